/**
 * Compose, message actions, reactions, people and widgets in two browser contexts (Debian's
 * Chromium): sending in a channel and by DM through the compose box, the Enter setting, drafts over
 * a reload, typing seen by the other person, an image dropped into compose, edit/move/delete
 * through the message menu seen live, a reaction through the picker, and every user-controlled
 * string with script in it staying inert.
 */
import sharp from "sharp";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../harness/server.js";
import { NO_CHROMIUM, hasChromium, jsonCall } from "./browser.js";
import { twoPeople } from "./two-people.js";

if (!hasChromium) console.log(NO_CHROMIUM);

/** Waits for a value as a person would (vitest's default of 1 s is shorter than a debounced draft save under load). */
const poll = <T>(fn: () => T | Promise<T>, options: { timeout?: number } = {}) => expect.poll(fn, { timeout: 10000, ...options });

/** What an injected script would do: set a flag the test reads. */
const XSS = `<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>`;
/** For names, where the server refuses `>` and `"`: an unclosed tag still runs if it is ever parsed as HTML. */
const NAME_XSS = "<img src=x onerror=window.__xss=3 ";

describe.skipIf(!hasChromium)("compose, message actions and people in two browsers", () => {
  let denmarkId = 0;
  const people = twoPeople({
    defaultTimeout: 8000,
    async prepare(server) {
      // The server's test clock starts in 2024; the browsers live now (edit limits and presence compare the two).
      server.clock.advance(Math.floor((Date.now() - server.clock.now()) / 1000));
      const created = await server.as("hamlet").post("/users/me/subscriptions", { subscriptions: [{ name: "Denmark" }], principals: [server.users.hamlet.id, server.users.othello.id] });
      expect(created.status).toBe(200);
      denmarkId = Number((await server.as("hamlet").get("/get_stream_id", { stream: "Denmark" })).body.stream_id);
    },
  });
  const { contexts, errors, shot } = people;
  let server: TestServer;
  let hamlet: Page;
  let othello: Page;
  beforeAll(() => {
    ({ server, hamlet, othello } = people);
  });

  const row = (page: Page, id: number) => page.locator(`.message[data-id="${id}"]`);
  const go = (page: Page, hash: string) => page.evaluate((h) => void (location.hash = h), hash);
  /** Opens a topic and waits until compose has taken it as its recipient. */
  const openTopic = async (page: Page, topic: string) => {
    await go(page, topicHash(topic));
    await poll(() => page.getByRole("combobox", { name: "Topic" }).inputValue()).toBe(topic);
  };
  const topicHash = (topic: string) => `#narrow/channel/${denmarkId}-Denmark/topic/${encodeURIComponent(topic).replace(/%/g, ".")}`;
  const textbox = (page: Page) => page.getByRole("textbox", { name: "Message" });
  /** The id of the newest message in the open view whose text contains `text`. */
  const idOf = async (page: Page, text: string) => Number(await page.locator(".message:not([data-id*='.'])", { hasText: text }).last().getAttribute("data-id"));

  it("sends to a channel topic with Ctrl+Enter (Enter is a new line by default); the other person sees it live with typing first", async () => {
    await go(hamlet, topicHash("castle"));
    await go(othello, topicHash("castle"));
    await hamlet.getByText("No messages here yet.").waitFor();
    expect(await hamlet.getByRole("combobox", { name: "Topic" }).inputValue()).toBe("castle");
    const box = textbox(hamlet);
    await box.click();
    await box.pressSequentially("Who's there?");
    await othello.getByText("King Hamlet is typing…").waitFor();
    await shot(othello, "typing");
    await box.press("Enter");
    await box.pressSequentially("**Bernardo**");
    expect(await box.inputValue()).toBe("Who's there?\n**Bernardo**");
    await box.press("Control+Enter");
    await poll(() => box.inputValue()).toBe("");
    await hamlet.locator(".message", { hasText: "Who's there?" }).locator("strong", { hasText: "Bernardo" }).waitFor();
    await othello.locator(".message", { hasText: "Who's there?" }).locator("strong", { hasText: "Bernardo" }).waitFor();
    // Sending says "stop": the indicator goes at once, not after 15 s.
    await othello.getByText("King Hamlet is typing…").waitFor({ state: "detached", timeout: 5000 });
  });

  it("with the Enter setting on, Enter sends and Ctrl+Enter is a new line", async () => {
    await hamlet.getByRole("checkbox", { name: "Enter sends" }).check();
    await poll(async () => (await server.as("hamlet").post("/register", { fetch_event_types: ["user_settings"] })).body.user_settings?.enter_sends).toBe(true);
    await poll(() => hamlet.getByRole("checkbox", { name: "Enter sends" }).isChecked()).toBe(true);
    const box = textbox(hamlet);
    await box.click();
    await box.pressSequentially("Stand");
    await box.press("Control+Enter");
    await box.pressSequentially("and unfold yourself.");
    expect(await box.inputValue()).toBe("Stand\nand unfold yourself.");
    await box.press("Enter");
    await othello.locator(".message", { hasText: "unfold yourself" }).waitFor();
    expect(await box.inputValue()).toBe("");
  });

  it("sends a direct message to a person picked by typeahead", async () => {
    await go(hamlet, "#inbox");
    await hamlet.getByRole("combobox", { name: "Message type" }).selectOption("private");
    const to = hamlet.getByRole("combobox", { name: "To" });
    await to.click();
    await to.pressSequentially("Oth");
    await hamlet.getByRole("option", { name: /Othello/ }).waitFor();
    await to.press("Enter");
    await hamlet.locator(".pill", { hasText: "Othello" }).waitFor();
    const box = textbox(hamlet);
    await box.click();
    await box.pressSequentially("A word in private, @oth");
    await hamlet.getByRole("option", { name: /Othello/ }).waitFor();
    await shot(hamlet, "compose-typeahead");
    await box.press("Tab");
    expect(await box.inputValue()).toBe("A word in private, @**Othello, the Moor of Venice** ");
    await box.press("Enter");
    await othello.locator("nav.left .dms a", { hasText: "King Hamlet" }).click();
    await othello.locator(".message", { hasText: "A word in private" }).locator(".user-mention", { hasText: "Othello" }).waitFor();
  });

  it("a send that fails says why and offers to retry; the retry sends it", async () => {
    await go(hamlet, topicHash("castle"));
    await go(othello, topicHash("castle"));
    await contexts[0]!.setOffline(true);
    await textbox(hamlet).fill("Sent through the storm");
    await textbox(hamlet).press("Enter");
    const failed = hamlet.locator(".message", { hasText: "Sent through the storm" });
    await failed.getByText("Not sent: The server cannot be reached.").waitFor();
    await shot(hamlet, "send-failed");
    await contexts[0]!.setOffline(false);
    await failed.getByRole("button", { name: "Retry" }).click();
    await othello.locator(".message", { hasText: "Sent through the storm" }).waitFor({ timeout: 20000 });
    await poll(() => hamlet.locator(".message", { hasText: "Sent through the storm" }).count()).toBe(1);
    await poll(() => hamlet.locator(".echo-status").count(), { timeout: 20000 }).toBe(0);
  }, 60000);

  it("keeps typed text as a draft across a reload, synced to the server", async () => {
    await go(hamlet, topicHash("drafts"));
    const box = textbox(hamlet);
    await box.click();
    await box.pressSequentially("Something is rotten");
    await poll(async () => ((await server.as("hamlet").get("/drafts")).body.drafts as { content: string; topic: string }[]).map((d) => [d.topic, d.content])).toContainEqual(["drafts", "Something is rotten"]);
    await hamlet.reload();
    await poll(() => textbox(hamlet).inputValue()).toBe("Something is rotten");
    // Another narrow opens with its own text; coming back brings the draft back.
    await go(hamlet, topicHash("castle"));
    await poll(() => textbox(hamlet).inputValue()).toBe("");
    await go(hamlet, topicHash("drafts"));
    await poll(() => textbox(hamlet).inputValue()).toBe("Something is rotten");
    await textbox(hamlet).fill("");
    await textbox(hamlet).press("Space");
    await textbox(hamlet).press("Backspace");
    await poll(async () => ((await server.as("hamlet").get("/drafts")).body.drafts as unknown[]).length).toBe(0);
  });

  it("a reload before a new draft's id comes back keeps one draft, which the next change updates", async () => {
    const drafts = async () => ((await server.as("hamlet").get("/drafts")).body.drafts as { topic: string; content: string }[]).filter((d) => d.topic === "reloaded");
    await go(hamlet, topicHash("reloaded"));
    // The draft is created on the server, but its answer (the id) is held until the page has gone.
    let created = false;
    let release: () => void = () => undefined;
    const gone = new Promise<void>((resolve) => (release = resolve));
    await hamlet.route("**/json/drafts", async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      const answer = await route.fetch();
      created = true;
      await gone;
      await route.fulfill({ response: answer }).catch(() => undefined);
    });
    await textbox(hamlet).click();
    await textbox(hamlet).pressSequentially("To be");
    await poll(() => created).toBe(true);
    await hamlet.reload();
    release();
    await hamlet.unroute("**/json/drafts");
    await poll(() => textbox(hamlet).inputValue()).toBe("To be");
    await textbox(hamlet).press("End");
    await textbox(hamlet).pressSequentially(", or not");
    await poll(async () => (await drafts()).map((d) => d.content)).toEqual(["To be, or not"]);
    await textbox(hamlet).fill("");
    await textbox(hamlet).press("Space");
    await textbox(hamlet).press("Backspace");
    await poll(async () => (await drafts()).length).toBe(0);
  });

  it("an image dropped into compose uploads with progress and shows as its thumbnail after sending", async () => {
    await go(hamlet, topicHash("pictures"));
    await go(othello, topicHash("pictures"));
    const png = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 40, b: 40 } } }).png().toBuffer();
    await hamlet.evaluate((b64) => {
      const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([bytes], "red square.png", { type: "image/png" }));
      const form = document.querySelector(".compose-form");
      form?.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, png.toString("base64"));
    await poll(() => textbox(hamlet).inputValue()).toMatch(/^\[red square\.png\]\(\/user_uploads\/[^)]+\) $/);
    await textbox(hamlet).press("Enter");
    const img = othello.locator(".message .message_inline_image img");
    await img.waitFor();
    await poll(() => img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    await shot(othello, "image-thumbnail");
  });

  it("edits, moves and deletes through the message menu, seen live by the other person", async () => {
    await go(hamlet, topicHash("castle"));
    await go(othello, topicHash("castle"));
    const box = textbox(hamlet);
    await box.fill("To be, or not to be");
    await box.press("Enter");
    await othello.locator(".message", { hasText: "To be, or not to be" }).waitFor();
    const id = await idOf(hamlet, "To be, or not to be");
    expect(id).toBeGreaterThan(0);

    await row(hamlet, id).hover();
    // A row clips what it paints (message.css): its buttons' focus rings, which Chromium draws up
    // to 3 px outside a button, still fit within the row and its overflow-clip-margin.
    const cramped = await row(hamlet, id).evaluate((el) => {
      const r = el.getBoundingClientRect();
      const margin = parseFloat(getComputedStyle(el).overflowClipMargin) || 0;
      const shown = [...el.querySelectorAll(".actions button")].map((b) => b.getBoundingClientRect()).filter((b) => b.width > 0);
      return { shown: shown.length, cramped: shown.filter((b) => Math.min(b.top - r.top, r.bottom - b.bottom, b.left - r.left, r.right - b.right) + margin < 3).length };
    });
    expect(cramped).toEqual({ shown: 3, cramped: 0 });
    await row(hamlet, id).getByRole("button", { name: "Message actions" }).click();
    await shot(hamlet, "message-menu");
    // The menu reaches past its row (the newest, at the bottom): none of it is clipped by the row.
    const hidden = await hamlet.locator(".message .menu [role=menuitem]").evaluateAll((items) =>
      items.filter((item) => {
        const r = item.getBoundingClientRect();
        const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return !hit || !item.contains(hit);
      }).length,
    );
    expect(hidden).toBe(0);
    await hamlet.getByRole("menuitem", { name: "Edit message" }).click();
    const editor = hamlet.getByRole("dialog", { name: "Edit message" }).getByRole("textbox", { name: "Message" });
    await poll(() => editor.inputValue()).toBe("To be, or not to be");
    await editor.fill("To be, or not to be: *that* is the question");
    await hamlet.getByRole("dialog").getByRole("button", { name: "Save" }).click();
    await row(othello, id).locator("em", { hasText: "that" }).waitFor();
    await row(othello, id).getByText("EDITED").waitFor();

    await row(hamlet, id).hover();
    await row(hamlet, id).getByRole("button", { name: "Message actions" }).click();
    await hamlet.getByRole("menuitem", { name: "View edit history" }).click();
    await hamlet.getByRole("dialog", { name: "Message edit history" }).locator("em", { hasText: "that" }).waitFor();
    await shot(hamlet, "edit-history");
    await hamlet.keyboard.press("Escape");

    await row(hamlet, id).hover();
    await row(hamlet, id).getByRole("button", { name: "Message actions" }).click();
    await hamlet.getByRole("menuitem", { name: "Move messages" }).click();
    const move = hamlet.getByRole("dialog", { name: "Move messages" });
    await move.getByRole("textbox", { name: "Topic" }).fill("soliloquy");
    await move.getByRole("combobox", { name: "Which messages" }).selectOption("change_one");
    await shot(hamlet, "move-dialog");
    await move.getByRole("button", { name: "Move" }).click();
    await poll(() => othello.locator(".group-head", { hasText: "soliloquy" }).count()).toBe(0);
    await go(othello, topicHash("soliloquy"));
    await row(othello, id).waitFor();

    await go(hamlet, topicHash("soliloquy"));
    await row(hamlet, id).hover();
    await row(hamlet, id).getByRole("button", { name: "Message actions" }).click();
    await hamlet.getByRole("menuitem", { name: "Mark as resolved" }).click();
    await poll(() => row(othello, id).count()).toBe(0);
    await go(othello, topicHash("✔ soliloquy"));
    await row(othello, id).waitFor();

    await go(hamlet, topicHash("✔ soliloquy"));
    await row(hamlet, id).hover();
    await row(hamlet, id).getByRole("button", { name: "Message actions" }).click();
    await hamlet.getByRole("menuitem", { name: "Delete message" }).click();
    await hamlet.getByRole("dialog", { name: "Delete message?" }).getByRole("button", { name: "Delete" }).click();
    await poll(() => row(othello, id).count()).toBe(0);
  });

  it("quote and reply puts Zulip's quote of the source into compose", async () => {
    await go(hamlet, topicHash("castle"));
    const id = await idOf(hamlet, "Who's there?");
    await row(hamlet, id).hover();
    await row(hamlet, id).getByRole("button", { name: "Message actions" }).click();
    await hamlet.getByRole("menuitem", { name: "Quote and reply" }).click();
    await poll(() => textbox(hamlet).inputValue()).toBe(`@_**King Hamlet|${server.users.hamlet.id}** [said](${server.url}/#narrow/channel/${denmarkId}-Denmark/topic/castle/near/${id}):\n\`\`\`quote\nWho's there?\n**Bernardo**\n\`\`\`\n`);
    await textbox(hamlet).fill("");
  });

  it("adds a reaction with the emoji picker, seen live", async () => {
    await go(othello, topicHash("castle"));
    const id = await idOf(othello, "Who's there?");
    await row(othello, id).hover();
    await row(othello, id).getByRole("button", { name: "Add emoji reaction" }).click();
    const picker = othello.getByRole("dialog", { name: "Add emoji reaction" });
    await picker.getByRole("option", { name: ":octopus:" }).waitFor();
    await picker.getByRole("searchbox", { name: "Search emoji" }).fill("octo");
    await shot(othello, "emoji-picker");
    await picker.getByRole("option", { name: ":octopus:" }).click();
    await poll(() => row(hamlet, id).locator(".reaction").textContent()).toBe("🐙 1");
  });

  it("previews Markdown; completes #channel>topic and :emoji:; reacts with a custom emoji", async () => {
    await go(hamlet, topicHash("castle"));
    const box = textbox(hamlet);
    await box.fill("");
    await box.pressSequentially("See #**Denmark>pic");
    await hamlet.locator(".compose-box .typeahead [role=option]", { hasText: "pictures" }).waitFor();
    await box.press("Enter");
    await box.pressSequentially(":octo");
    await hamlet.locator(".compose-box .typeahead [role=option]", { hasText: ":octopus:" }).waitFor();
    await box.press("Tab");
    expect(await box.inputValue()).toBe("See #**Denmark>pictures** :octopus: ");
    await hamlet.getByRole("button", { name: "Preview" }).click();
    const preview = hamlet.getByLabel("Preview");
    await preview.locator("a.stream-topic", { hasText: "pictures" }).waitFor();
    await poll(() => preview.locator(".emoji-1f419").textContent()).toBe("🐙");
    await shot(hamlet, "compose-preview");
    await hamlet.getByRole("button", { name: "Edit" }).click();
    await box.fill("");

    const png = await sharp({ create: { width: 32, height: 32, channels: 4, background: { r: 30, g: 30, b: 30, alpha: 1 } } }).png().toBuffer();
    expect((await server.as("iago").post("/realm/emoji/rook", {}, { files: [{ field: "file", filename: "rook.png", type: "image/png", data: png }] })).status).toBe(200);
    await go(othello, topicHash("castle"));
    const id = await idOf(othello, "Who's there?");
    await row(othello, id).hover();
    await row(othello, id).getByRole("button", { name: "Add emoji reaction" }).click();
    const picker = othello.getByRole("dialog", { name: "Add emoji reaction" });
    await picker.getByRole("searchbox", { name: "Search emoji" }).fill("rook");
    await picker.getByRole("option", { name: ":rook:" }).click();
    await row(hamlet, id).locator(".reaction img.emoji[alt=':rook:']").waitFor();
  });

  it("reopens a draft from the Drafts view; read receipts; mark as unread from here", async () => {
    await openTopic(hamlet, "elsewhere");
    await textbox(hamlet).fill("A draft to come back to");
    await poll(async () => ((await server.as("hamlet").get("/drafts")).body.drafts as { content: string }[]).map((d) => d.content)).toContain("A draft to come back to");
    await go(hamlet, topicHash("castle"));
    await poll(() => textbox(hamlet).inputValue()).toBe("");
    await go(hamlet, "#drafts");
    await hamlet.locator(".draft", { hasText: "A draft to come back to" }).getByRole("button", { name: "Restore" }).click();
    await poll(() => hamlet.url()).toContain("/topic/elsewhere");
    await poll(() => textbox(hamlet).inputValue()).toBe("A draft to come back to");
    await textbox(hamlet).fill("");

    expect((await server.as("desdemona").patch("/realm", { enable_read_receipts: true })).status).toBe(200);
    await go(hamlet, topicHash("castle"));
    const id = await idOf(hamlet, "Who's there?");
    await row(hamlet, id).hover();
    await row(hamlet, id).getByRole("button", { name: "Message actions" }).click();
    await hamlet.getByRole("menuitem", { name: "View read receipts" }).click();
    await hamlet.getByRole("dialog", { name: "Read receipts" }).getByText("Othello, the Moor of Venice").waitFor();
    await hamlet.keyboard.press("Escape");

    await go(othello, topicHash("castle"));
    const mid = await idOf(othello, "unfold yourself");
    await row(othello, mid).hover();
    await row(othello, mid).getByRole("button", { name: "Message actions" }).click();
    await othello.getByRole("menuitem", { name: "Mark as unread from here" }).click();
    await poll(() => othello.locator(`.message[data-id="${mid}"].unread`).count()).toBe(1);
  });

  it("shows people with presence, status and a profile card", async () => {
    expect((await jsonCall(othello, "POST", "users/me/presence", { status: "active", new_user_input: true })).result).toBe("success");
    expect((await jsonCall(othello, "POST", "users/me/status", { status_text: "On the battlements", emoji_name: "castle" })).result).toBe("success");
    const person = hamlet.locator(".right-sidebar .person", { hasText: "Othello" });
    await poll(() => person.getAttribute("class")).toBe("person active");
    await person.getByText("On the battlements").waitFor();
    await person.getByRole("button").click();
    const card = hamlet.getByRole("dialog", { name: /Othello/ });
    await card.getByText("othello@zulip.com").waitFor();
    await shot(hamlet, "profile-card");
    await hamlet.keyboard.press("Escape");
  });

  it("votes in a /poll and ticks a /todo through submessages, seen live", async () => {
    await go(hamlet, topicHash("castle"));
    await textbox(hamlet).fill("/poll To be?\nYes\nNo");
    await textbox(hamlet).press("Enter");
    const pollWidget = othello.locator(".widget.poll", { hasText: "To be?" });
    await pollWidget.waitFor();
    await pollWidget.getByRole("button", { name: "Vote for No" }).click();
    await poll(() => hamlet.locator(".widget.poll").getByRole("button", { name: "Vote for No" }).textContent()).toBe("1");
    await textbox(hamlet).fill("/todo Errands\nFind the ghost");
    await textbox(hamlet).press("Enter");
    const todo = othello.locator(".widget.todo", { hasText: "Errands" });
    await todo.waitFor();
    await todo.getByRole("checkbox").first().check();
    await poll(() => hamlet.locator(".widget.todo li.done").count()).toBe(1);
    await shot(othello, "widgets");
  });

  it("runs no script from any user-controlled string", async () => {
    const iago = server.as("iago");
    expect((await server.as("hamlet").patch("/settings", { full_name: `Ham ${NAME_XSS}` })).status).toBe(200);
    expect((await iago.post("/users/me/subscriptions", { subscriptions: [{ name: `Elsinore ${XSS}`.slice(0, 60) }], principals: [server.users.hamlet.id, server.users.othello.id] })).status).toBe(200);
    const elsinore = Number((await iago.get("/get_stream_id", { stream: `Elsinore ${XSS}`.slice(0, 60) })).body.stream_id);
    const field = await iago.post("/realm/profile_fields", { name: `Motto ${XSS}`.slice(0, 40), hint: "", field_type: 1 });
    expect(field.status).toBe(200);
    const link = await iago.post("/realm/profile_fields", { name: "Site", hint: "", field_type: 5 });
    expect((await server.as("othello").patch("/users/me/profile_data", { data: [{ id: field.body.id, value: XSS.slice(0, 50) }] }, { validate: false })).status).toBe(200);
    expect(link.status).toBe(200);
    expect((await server.as("othello").post("/users/me/status", { status_text: XSS.slice(0, 60) })).status).toBe(200);
    const upload = await server.as("othello").post("/user_uploads", {}, { files: [{ field: "file", filename: `${XSS.slice(0, 40)}.txt`, type: "text/plain", data: Buffer.from("hi") }] });
    expect(upload.status).toBe(200);
    const content = `[${XSS}](https://example.com) and ${XSS} and [file](${String(upload.body.url)}) @**Ham ${NAME_XSS}**`;
    const sent = await server.as("othello").post("/messages", { type: "stream", to: elsinore, topic: `Topic ${XSS}`.slice(0, 60), content });
    expect(sent.status).toBe(200);
    for (const page of [hamlet, othello]) {
      await go(page, `#narrow/channel/${elsinore}`);
      await page.locator(`.message[data-id="${String(sent.body.id)}"]`).waitFor();
    }
    // A file whose name is markup, dropped into compose: the name shows as the link's text.
    await hamlet.evaluate((name) => {
      const dt = new DataTransfer();
      dt.items.add(new File(["hello"], name, { type: "text/plain" }));
      document.querySelector(".compose-form")?.dispatchEvent(new DragEvent("drop", { dataTransfer: dt, bubbles: true, cancelable: true }));
    }, `${XSS.slice(0, 40)}.txt`);
    await hamlet.getByRole("combobox", { name: "Topic" }).fill("files");
    await poll(() => textbox(hamlet).inputValue()).toMatch(/\(\/user_uploads\/[^)]+\) $/);
    await textbox(hamlet).press("Enter");
    await othello.locator(".message a", { hasText: ".txt" }).waitFor();
    await othello.locator(".right-sidebar .person", { hasText: "Ham" }).getByRole("button").click();
    await hamlet.locator(".right-sidebar .person", { hasText: "Othello" }).getByRole("button").click();
    await hamlet.getByRole("dialog").getByText("Motto", { exact: false }).waitFor();
    await shot(hamlet, "xss-profile");
    await hamlet.keyboard.press("Escape");
    await textbox(hamlet).fill("@Ham");
    await textbox(hamlet).press("m");
    await textbox(hamlet).fill("#Elsi");
    await textbox(hamlet).press("n");
    await hamlet.locator(".compose-box .typeahead [role=option]").first().waitFor();
    await shot(hamlet, "xss-strings");
    await hamlet.waitForTimeout(300);
    for (const page of [hamlet, othello]) expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined();
    await textbox(hamlet).fill("");
  });

  it("had no console errors", () => {
    // Chromium reports the requests refused while the test had the first browser offline; nothing else may appear.
    expect(errors.filter((e) => !e.endsWith("net::ERR_INTERNET_DISCONNECTED"))).toEqual([]);
  });
});
