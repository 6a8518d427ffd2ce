/**
 * Two people in two browser contexts (Debian's Chromium): both log in, chat in a channel and by
 * DM and see each other live (with reactions, edits, moves, deletes), unread counts rise and clear,
 * search and permalinks open the message, the app carries on over a server restart, and a
 * deactivated person's session ends. No console errors; screenshots of the main views.
 */
import pino from "pino";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp, type App } from "../../src/app.js";
import { createStreams } from "../api/streams-helpers.js";
import { clusterMode, testBackend, type TestServer } from "../harness/server.js";
import { NO_CHROMIUM, hasChromium, jsonCall, logIn, openPage } from "./browser.js";
import { twoPeople } from "./two-people.js";

if (!hasChromium) console.log(NO_CHROMIUM);
const restartable = !clusterMode && testBackend() === "sqlite";

describe.skipIf(!hasChromium)("the web app in two browsers", () => {
  let denmarkId = 0;
  const people = twoPeople({
    context: { timezoneId: "Europe/Copenhagen" },
    async prepare(server) {
      // Made as Zulip's tests make channels: without Notification Bot's creation notice, so it starts empty.
      const created = await createStreams(server, "hamlet", ["Denmark"], { description: "The **royal** channel", principals: [server.users.hamlet.id, server.users.othello.id] });
      denmarkId = created.Denmark ?? 0;
    },
  });
  const { contexts, errors, shot } = people;
  let server: TestServer;
  let browser: Browser;
  let hamlet: Page;
  let othello: Page;
  let restarted: App | undefined;

  const send = async (page: Page, params: Record<string, unknown>) => {
    const answer = await jsonCall(page, "POST", "messages", params);
    expect(answer.result).toBe("success");
    return Number(answer.id);
  };
  const row = (page: Page, id: number) => page.locator(`.message[data-id="${id}"]`);

  beforeAll(() => {
    ({ server, browser, hamlet, othello } = people);
  });

  afterAll(async () => {
    // The restarted app replaces the one the harness would close.
    if (restarted) {
      await restarted.close();
      server.app.close = async () => {};
    }
  });

  it("a channel message appears live for the other person, with unread counts that rise and clear", async () => {
    await hamlet.getByRole("link", { name: "Denmark" }).first().click();
    await expect.poll(() => hamlet.url()).toContain(`#narrow/channel/${denmarkId}-Denmark`);
    await hamlet.getByText("No messages here yet.").waitFor();

    const id = await send(othello, { type: "stream", to: denmarkId, topic: "castle", content: "Who's there? **Bernardo**" });
    await row(hamlet, id).getByText("Who's there?").waitFor();
    expect(await row(hamlet, id).locator("strong").textContent()).toBe("Bernardo");
    expect(await hamlet.locator(".recipient-bar").first().textContent()).toContain("Denmark›castle");

    // Othello is on the Inbox: Hamlet's answer raises his counts there and in the sidebar.
    // His own message is read (a browser's /json call is the "website" client, as in Zulip).
    const sidebarCount = othello.locator("nav.left .channels a", { hasText: "Denmark" }).locator(".count");
    expect(await sidebarCount.count()).toBe(0);
    const answer = await send(hamlet, { type: "stream", to: denmarkId, topic: "castle", content: "Nay, answer me: stand, and unfold yourself." });
    await row(hamlet, answer).waitFor();
    await expect.poll(() => sidebarCount.textContent()).toBe("1");
    await othello.locator(".inbox").getByRole("link", { name: /castle/ }).waitFor();
    await shot(othello, "inbox");
    await othello.locator(".inbox").getByRole("link", { name: /castle/ }).click();
    await row(othello, answer).waitFor();
    await expect.poll(() => sidebarCount.count()).toBe(0);
    await expect.poll(() => othello.locator("nav.left .views a", { hasText: "Inbox" }).locator(".count").count()).toBe(0);
    await shot(othello, "channel-topic");
  });

  it("direct messages, reactions, edits, moves and deletes show live", async () => {
    const dm = await send(hamlet, { type: "private", to: [server.users.othello.id], content: "A word in private, Othello." });
    const dmLink = othello.locator("nav.left .dms a", { hasText: "King Hamlet" });
    await expect.poll(() => dmLink.locator(".count").textContent()).toBe("1");
    await dmLink.click();
    await row(othello, dm).getByText("A word in private").waitFor();
    await expect.poll(() => dmLink.locator(".count").count()).toBe(0);
    const reply = await send(othello, { type: "private", to: [server.users.hamlet.id], content: "Speak, my lord." });
    await hamlet.locator("nav.left .dms a", { hasText: "Othello" }).click();
    await row(hamlet, reply).getByText("Speak, my lord.").waitFor();
    await shot(hamlet, "direct-messages");

    const added = await jsonCall(othello, "POST", `messages/${dm}/reactions`, { emoji_name: "thumbs_up", emoji_code: "1f44d", reaction_type: "unicode_emoji" });
    expect(added.result).toBe("success");
    const chip = row(hamlet, dm).locator(".reaction");
    await hamlet.locator("nav.left .dms a", { hasText: "Othello" }).click();
    await expect.poll(() => chip.textContent()).toBe("👍 1");
    await chip.click();
    await expect.poll(() => chip.textContent()).toBe("👍 2");
    await expect.poll(() => row(othello, dm).locator(".reaction").getAttribute("aria-pressed")).toBe("true");

    const edited = await jsonCall(hamlet, "PATCH", `messages/${dm}`, { content: "A word in private, *good* Othello." });
    expect(edited.result).toBe("success");
    await row(othello, dm).locator("em", { hasText: "good" }).waitFor();
    await row(othello, dm).getByText("EDITED").waitFor();

    await othello.getByRole("link", { name: "Denmark" }).first().click();
    const moving = await send(hamlet, { type: "stream", to: denmarkId, topic: "castle", content: "To be moved." });
    await row(othello, moving).waitFor();
    expect((await jsonCall(hamlet, "PATCH", `messages/${moving}`, { topic: "battlements", propagate_mode: "change_one" })).result).toBe("success");
    await expect.poll(() => othello.locator(".group-head", { hasText: "battlements" }).count()).toBe(1);
    expect((await jsonCall(hamlet, "DELETE", `messages/${moving}`, {})).result).toBe("success");
    await expect.poll(() => row(othello, moving).count()).toBe(0);
  });

  it("search with operators and suggestions finds the message; a permalink opens it", async () => {
    const box = hamlet.getByRole("combobox", { name: "Search" });
    await box.click();
    await box.fill("sender:oth");
    await hamlet.getByRole("option", { name: /Sent by Othello/ }).waitFor();
    await box.press("ArrowDown");
    await box.press("Enter");
    await expect.poll(() => hamlet.url()).toContain(`#narrow/sender/${server.users.othello.id}-`);
    await hamlet.getByText("Who's there?").waitFor();
    await box.click();
    await box.fill("Bernardo");
    await box.press("Enter");
    await hamlet.locator(".message", { hasText: "Who's there?" }).waitFor();
    await shot(hamlet, "search");

    const target = Number(await hamlet.locator(".message", { hasText: "Who's there?" }).getAttribute("data-id"));
    await othello.goto(`${server.url}/#narrow/channel/${denmarkId}-Denmark/topic/castle/near/${target}`);
    await row(othello, target).waitFor();
    await othello.goto(`${server.url}/#narrow/near/${target}`);
    await row(othello, target).waitFor();
  });

  it("draws every view without console errors (screenshots at 1400x1024)", async () => {
    const views: [string, string][] = [
      ["#recent", "recent-conversations"],
      ["#feed", "combined-feed"],
      ["#narrow/is/mentioned", "mentions"],
      ["#narrow/is/starred", "starred"],
      ["#drafts", "drafts"],
      ["#channels", "channel-browser"],
      ["#inbox", "inbox-empty"],
    ];
    for (const [hash, name] of views) {
      await hamlet.evaluate((h) => {
        location.hash = h;
      }, hash);
      await hamlet.locator("main.middle .narrow-header").waitFor();
      await hamlet.waitForTimeout(150);
      await shot(hamlet, name);
    }
    const dark = await browser.newContext({ viewport: { width: 1400, height: 1024 }, colorScheme: "dark" });
    contexts.push(dark);
    const page = await openPage(dark, errors);
    await logIn(page, server.url, server.users.hamlet.delivery_email, server.password);
    await page.evaluate((h) => {
      location.hash = h;
    }, `#narrow/channel/${denmarkId}-Denmark`);
    await page.locator(".message").first().waitFor();
    await shot(page, "channel-dark");
    expect(errors).toEqual([]);
  }, 60000);

  it.skipIf(!restartable)("carries on by itself after a server restart", async () => {
    const config = server.app.ctx.config;
    const port = Number(new URL(server.url).port);
    await server.app.close();
    await hamlet.locator(".banner", { hasText: "Reconnecting" }).waitFor({ timeout: 15000 });
    restarted = await buildApp(config, { clock: server.clock, logger: pino({ level: "silent" }) });
    await restarted.listening(await restarted.http.listen({ host: "127.0.0.1", port }));
    await hamlet.locator(".banner").waitFor({ state: "detached", timeout: 40000 });
    const after = await send(othello, { type: "stream", to: denmarkId, topic: "castle", content: "Back again." });
    await hamlet.getByRole("link", { name: "Denmark" }).first().click();
    await row(hamlet, after).waitFor({ timeout: 15000 });
    // Chromium reports the refused connections of the restart as console errors; nothing else may appear.
    expect(errors.filter((e) => !/ERR_CONNECTION_REFUSED|Failed to load resource/.test(e))).toEqual([]);
  }, 90000);

  it("an administrator deactivates a person through the API and their browser session ends", async () => {
    const url = restarted ? server.url : server.url;
    const deactivated = await fetch(`${url}/api/v1/users/${server.users.othello.id}`, { method: "DELETE", headers: { authorization: "Basic " + Buffer.from(`${server.users.iago.delivery_email}:${server.users.iago.api_key}`).toString("base64") } });
    expect(deactivated.status).toBe(200);
    await othello.waitForURL(/\/login\//, { timeout: 30000 });
    await othello.getByLabel("Password").waitFor();
  }, 40000);
});
