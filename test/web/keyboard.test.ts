/**
 * The keyboard shortcuts in Debian's Chromium: one test per key of every row of the shortcut table
 * (web/views/keyboard/table.ts), generated from the table, each pressing the key and checking what
 * it did (the view, the compose box, the server's answer). A row with keys and no test here fails
 * (and does not type-check); the `?` overlay lists every row.
 */
import type { Locator, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../harness/server.js";
import { keyLabel, rows, splitKey, type BoundId, type Row } from "../../web/views/keyboard/table.js";
import { NO_CHROMIUM, hasChromium, jsonCall } from "./browser.js";
import { twoPeople } from "./two-people.js";

if (!hasChromium) console.log(NO_CHROMIUM);

const poll = <T>(fn: () => T | Promise<T>) => expect.poll(fn, { timeout: 10000 });

/** A table key as Playwright presses it. */
export function playwrightKey(key: string): string {
  const k = splitKey(key);
  const names: Record<string, string> = { " ": "Space", "+": "Shift+Equal", "[": "BracketLeft", ".": "Period" };
  const base = names[k.key] ?? (k.key.length === 1 && /[a-z]/.test(k.key) && k.shift ? k.key.toUpperCase() : k.key);
  return [k.ctrl ? "Control" : "", k.alt ? "Alt" : "", k.shift && !base.startsWith("Shift+") ? "Shift" : "", base].filter(Boolean).join("+");
}

describe.skipIf(!hasChromium)("keyboard shortcuts", () => {
  let denmarkId = 0;
  /** Message ids by name: othello's m1…m5 in "castle", hamlet's own (edited) "mine", 80 in "long". */
  const ids: Record<string, number> = {};
  const long: number[] = [];
  const people = twoPeople({
    defaultTimeout: 8000,
    async prepare(server) {
      server.clock.advance(Math.floor((Date.now() - server.clock.now()) / 1000));
      const hamletId = server.users.hamlet.id;
      const othelloId = server.users.othello.id;
      for (const name of ["Denmark", "Elsinore"]) {
        const created = await server.as("hamlet").post("/users/me/subscriptions", { subscriptions: [{ name }], principals: [hamletId, othelloId] });
        expect(created.status).toBe(200);
      }
      expect((await server.as("othello").post("/users/me/subscriptions", { subscriptions: [{ name: "Wittenberg" }] })).status).toBe(200);
      denmarkId = Number((await server.as("hamlet").get("/get_stream_id", { stream: "Denmark" })).body.stream_id);
      const send = async (who: "hamlet" | "othello", topic: string, content: string) => {
        const res = await server.as(who).post("/messages", { type: "stream", to: denmarkId, topic, content });
        expect(res.status).toBe(200);
        return Number(res.body.id);
      };
      for (let i = 1; i <= 5; i++) ids[`m${i}`] = await send("othello", "castle", `Castle line ${i}`);
      ids.mine = await send("hamlet", "castle", "My own words");
      expect((await server.as("hamlet").patch(`/messages/${ids.mine}`, { content: "My own words, edited" })).status).toBe(200);
      expect((await server.as("othello").post(`/messages/${ids.m4}/reactions`, { emoji_name: "tada" })).status).toBe(200);
      await send("othello", "battlements", "On the battlements");
      for (let i = 1; i <= 80; i++) long.push(await send("othello", "long", `Long line ${i}\n\nwith a second paragraph`));
      expect((await server.as("hamlet").post("/user_topics", { stream_id: denmarkId, topic: "watch", visibility_policy: 3 })).status).toBe(200);
      expect((await server.as("hamlet").post("/mark_all_as_read")).status).toBe(200);
    },
  });
  const { errors } = people;
  let server: TestServer;
  let page: Page;
  beforeAll(() => {
    ({ server, hamlet: page } = people);
  });

  const hashOf = () => page.evaluate(() => decodeURIComponent(location.hash));
  const channelHash = () => `#narrow/channel/${denmarkId}-Denmark`;
  const topicHash = (topic: string) => `${channelHash()}/topic/${topic}`;
  const near = (topic: string, id: number) => `${topicHash(topic)}/near/${id}`;
  const selectedId = async () => Number(await page.locator(".message.selected").getAttribute("data-id"));
  const textbox = () => page.getByRole("textbox", { name: "Message" });
  const focused = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.getAttribute("aria-label") ?? document.activeElement?.className ?? "");
  const dialogNamed = (name: string) => page.getByRole("dialog", { name });
  const isFocused = (l: Locator) => l.evaluate((el) => el === document.activeElement);

  /** Closes any dialog, takes focus off fields, opens `hash` and waits for its messages (when `waitFor` is a message id). */
  const open = async (hash: string, waitFor?: number) => {
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    if ((await page.locator(".overlay").count()) > 0) {
      await page.keyboard.press("Escape");
      await page.locator(".overlay").waitFor({ state: "detached" });
    }
    // The same address again still opens the view afresh (as following a link to it does).
    if ((await hashOf()) === decodeURIComponent(hash)) {
      await page.evaluate(() => void (location.hash = "#inbox"));
      await page.getByRole("region", { name: "Inbox" }).waitFor();
    }
    await page.evaluate((h) => void (location.hash = h), hash);
    await poll(hashOf).toBe(decodeURIComponent(hash));
    if (waitFor !== undefined) await page.locator(`.message.selected[data-id="${waitFor}"]`).waitFor();
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  };
  const press = (key: string) => page.keyboard.press(playwrightKey(key));
  const message = async (id: number) => (await server.as("hamlet").get(`/messages/${id}`)).body.message as { flags: string[]; reactions: { emoji_name: string; user_id: number }[] };
  const setEnterSends = async (on: boolean) => {
    expect((await jsonCall(page, "PATCH", "settings", { enter_sends: on })).result).toBe("success");
    await poll(() => page.getByRole("checkbox", { name: "Enter sends" }).isChecked()).toBe(on);
  };
  /** Opens the topic "writing" with `text` in the compose box and the caret in it. */
  const writing = async (text: string) => {
    await open(topicHash("writing"));
    await poll(() => page.getByRole("combobox", { name: "Topic" }).inputValue()).toBe("writing");
    await textbox().fill(text);
    await textbox().focus();
  };
  const sentByHamlet = async (text: string) => {
    const res = await server.as("hamlet").get("/messages", { anchor: "newest", num_before: 5, num_after: 0, narrow: [{ operator: "sender", operand: server.users.hamlet.id }] });
    return (res.body.messages as { content: string }[]).some((m) => m.content.includes(text));
  };
  const drafts = async () => (await server.as("hamlet").get("/drafts")).body.drafts as { id: number; content: string; topic: string }[];

  /** One check per row with keys; each gets the key to press. */
  const checks: Record<BoundId, (key: string) => Promise<void>> = {
    async help(key) {
      await open(topicHash("castle"));
      const link = page.locator("nav.left a[href]").first();
      await link.focus();
      await press(key);
      const box = dialogNamed("Keyboard shortcuts");
      await box.waitFor();
      for (const row of rows as readonly Row[]) {
        const line = box.locator(`tr[data-shortcut="${row.id}"]`);
        expect(await line.locator("th").textContent()).toBe(row.label);
        if (row.absent) expect(await line.locator("td").textContent()).toBe(`Not in Rookery: ${row.absent}`);
        else expect(await line.locator("kbd").allTextContents()).toEqual(row.keys.map(keyLabel));
      }
      expect(await box.locator("tr[data-shortcut]").count()).toBe(rows.length);
      // Focus is in the dialog and Tab keeps it there.
      for (let i = 0; i < 4; i++) {
        await page.keyboard.press("Tab");
        expect(await page.evaluate(() => document.activeElement?.closest("[role=dialog]") !== null)).toBe(true);
      }
      await press(key);
      await box.waitFor({ state: "detached" });
      await press(key);
      await box.waitFor();
      await page.keyboard.press("Escape");
      await box.waitFor({ state: "detached" });
      // Focus is back where it was.
      expect(await link.evaluate((el) => el === document.activeElement)).toBe(true);
    },
    async home(key) {
      await open(topicHash("castle"));
      await press(key);
      await poll(hashOf).toBe("#inbox");
    },
    async search(key) {
      await open("#inbox");
      await press(key);
      await poll(focused).toBe("Search");
    },
    async "filter-channels"(key) {
      await open("#inbox");
      await press(key);
      await poll(hashOf).toBe("#channels");
      await poll(focused).toBe("Filter channels");
    },
    async "filter-people"(key) {
      await open("#inbox");
      await press(key);
      await poll(focused).toBe("Filter people");
    },
    async next(key) {
      await open(near("castle", ids.m2!), ids.m2);
      await press(key);
      await poll(selectedId).toBe(ids.m3);
      await press(key);
      await poll(selectedId).toBe(ids.m4);
    },
    async previous(key) {
      await open(near("castle", ids.m3!), ids.m3);
      await press(key);
      await poll(selectedId).toBe(ids.m2);
    },
    async last(key) {
      await open(near("long", long[5]!), long[5]);
      expect((await jsonCall(page, "POST", "messages/flags", { messages: long, op: "remove", flag: "read" })).result).toBe("success");
      // End marks read what the app knows to be unread: it waits for the flags' event (one for all of them).
      await poll(() => page.locator(`.message.unread[data-id="${long[5]}"]`).count()).toBe(1);
      await press(key);
      await poll(selectedId).toBe(long[79]);
      await poll(() => page.locator(`.message[data-id="${long[79]}"]`).isVisible()).toBe(true);
      await poll(async () => (await message(long[10]!)).flags).toContain("read");
    },
    async first(key) {
      await open(near("castle", ids.m5!), ids.m5);
      await press(key);
      await poll(selectedId).toBe(ids.m1);
    },
    async "page-up"(key) {
      await open(near("long", long[60]!), long[60]);
      const top = () => page.locator(".feed .scroller").evaluate((el) => el.scrollTop);
      const before = await top();
      await press(key);
      await poll(top).toBeLessThan(before - 100);
      expect(await selectedId()).not.toBe(long[60]);
    },
    async "page-down"(key) {
      await open(near("long", long[20]!), long[20]);
      const top = () => page.locator(".feed .scroller").evaluate((el) => el.scrollTop);
      const before = await top();
      await press(key);
      await poll(top).toBeGreaterThan(before + 100);
      expect(await selectedId()).not.toBe(long[20]);
    },
    async back(key) {
      await open(topicHash("castle"));
      await open(topicHash("battlements"));
      await press(key);
      await poll(hashOf).toBe(topicHash("castle"));
    },
    async forward(key) {
      await open(topicHash("castle"));
      await open(topicHash("battlements"));
      await page.evaluate(() => history.back());
      await poll(hashOf).toBe(topicHash("castle"));
      await press(key);
      await poll(hashOf).toBe(topicHash("battlements"));
    },
    async "next-unread-topic"(key) {
      await open(topicHash("castle"));
      await server.as("othello").post("/messages", { type: "stream", to: denmarkId, topic: "ghost", content: "Unread, in a topic of its own" });
      await poll(async () => {
        await press(key);
        return hashOf();
      }).toBe(topicHash("ghost"));
    },
    async "next-unread-followed"(key) {
      await open("#inbox");
      await server.as("othello").post("/messages", { type: "stream", to: denmarkId, topic: "unfollowed", content: "Unread, not followed" });
      await server.as("othello").post("/messages", { type: "stream", to: denmarkId, topic: "watch", content: "Unread, followed" });
      await poll(async () => {
        await press(key);
        return hashOf();
      }).toBe(topicHash("watch"));
    },
    async "next-unread-dm"(key) {
      await open(topicHash("castle"));
      await server.as("othello").post("/messages", { type: "direct", to: [server.users.hamlet.id], content: "Unread, direct" });
      await poll(async () => {
        await press(key);
        return hashOf();
      }).toMatch(new RegExp(`^#narrow/dm/${server.users.othello.id}-Othello`));
    },
    async conversation(key) {
      await open(`${channelHash()}/near/${ids.m2}`, ids.m2);
      await press(key);
      await poll(hashOf).toBe(topicHash("castle"));
      await page.locator(".message.selected").waitFor();
      await press(key);
      await poll(hashOf).toBe(channelHash());
    },
    async "dm-feed"(key) {
      await open("#inbox");
      await press(key);
      await poll(hashOf).toBe("#narrow/is/dm");
    },
    async zoom(key) {
      await open(`${channelHash()}/near/${ids.m3}`, ids.m3);
      await press(key);
      await poll(hashOf).toBe(near("castle", ids.m3!));
    },
    async "previous-channel"(key) {
      await open(channelHash());
      await press(key);
      await poll(hashOf).not.toBe(channelHash());
      await poll(hashOf).toMatch(/^#narrow\/channel\/\d+-[^/]+$/);
      await press("Shift+D");
      await poll(hashOf).toBe(channelHash());
    },
    async "next-channel"(key) {
      await open(channelHash());
      await press(key);
      await poll(hashOf).toMatch(/^#narrow\/channel\/\d+-[^/]+$/);
      await poll(hashOf).not.toBe(channelHash());
      await press("Shift+A");
      await poll(hashOf).toBe(channelHash());
    },
    async inbox(key) {
      await open(topicHash("castle"));
      await press(key);
      await poll(hashOf).toBe("#inbox");
    },
    async recent(key) {
      await open("#inbox");
      await press(key);
      await poll(hashOf).toBe("#recent");
      await page.getByRole("region", { name: "Recent conversations" }).waitFor();
    },
    async "combined-feed"(key) {
      await open("#inbox");
      await press(key);
      await poll(hashOf).toBe("#feed");
    },
    async starred(key) {
      await open("#inbox");
      await press(key);
      await poll(hashOf).toBe("#narrow/is/starred");
    },
    async "composing-to"(key) {
      await writing("");
      await open("#inbox");
      await press(key);
      await poll(hashOf).toBe(topicHash("writing"));
    },
    async "new-channel-message"(key) {
      await open(topicHash("castle"));
      await poll(() => page.getByRole("combobox", { name: "Topic" }).inputValue()).toBe("castle");
      await press(key);
      await poll(focused).toBe("Topic");
      await poll(() => page.getByRole("combobox", { name: "Topic" }).inputValue()).toBe("");
      expect(await page.getByRole("combobox", { name: "Channel" }).inputValue()).toBe("Denmark");
    },
    async "new-dm"(key) {
      await open(topicHash("castle"));
      await poll(() => page.getByRole("combobox", { name: "Topic" }).inputValue()).toBe("castle");
      await press(key);
      await poll(focused).toBe("To");
      expect(await page.getByRole("combobox", { name: "Message type" }).inputValue()).toBe("private");
    },
    async reply(key) {
      await open(`${channelHash()}/near/${ids.m2}`, ids.m2);
      await poll(() => page.getByRole("combobox", { name: "Topic" }).inputValue()).toBe("");
      await press(key);
      await poll(focused).toBe("Message");
      expect(await page.getByRole("combobox", { name: "Topic" }).inputValue()).toBe("castle");
    },
    async quote(key) {
      await open(near("castle", ids.m2!), ids.m2);
      await textbox().fill("");
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await press(key);
      await poll(() => textbox().inputValue()).toMatch(/^@_\*\*Othello, the Moor of Venice\|\d+\*\* \[said\]\(.*\/near\/\d+\):\n```quote\nCastle line 2\n```\n$/);
      await textbox().fill("");
    },
    async "reply-sender"(key) {
      await open(near("castle", ids.m2!), ids.m2);
      await press(key);
      await poll(focused).toBe("Message");
      expect(await page.getByRole("combobox", { name: "Message type" }).inputValue()).toBe("private");
      await page.locator(".compose .pill", { hasText: "Othello" }).waitFor();
    },
    async "reply-mention"(key) {
      await open(near("castle", ids.m2!), ids.m2);
      await textbox().fill("");
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await press(key);
      await poll(() => textbox().inputValue()).toBe("@**Othello, the Moor of Venice** ");
      await textbox().fill("");
    },
    async send(key) {
      await setEnterSends(key === "Enter");
      const text = `Sent with ${key}`;
      await writing(text);
      await press(key);
      await poll(() => textbox().inputValue()).toBe("");
      await poll(() => sentByHamlet(text)).toBe(true);
    },
    async "send-button"(key) {
      await setEnterSends(false);
      await writing("Tab, then Enter");
      await press(key);
      await poll(focused).toBe("send");
      await page.keyboard.press("Enter");
      await poll(() => sentByHamlet("Tab, then Enter")).toBe(true);
    },
    async "new-line"(key) {
      await setEnterSends(true);
      await writing("one");
      await press(key);
      await textbox().pressSequentially("two");
      expect(await textbox().inputValue()).toBe("one\ntwo");
      await textbox().fill("");
      await setEnterSends(false);
    },
    async italic(key) {
      await writing("word");
      await textbox().selectText();
      await press(key);
      await poll(() => textbox().inputValue()).toBe("*word*");
      await textbox().fill("");
    },
    async bold(key) {
      await writing("word");
      await textbox().selectText();
      await press(key);
      await poll(() => textbox().inputValue()).toBe("**word**");
      await textbox().fill("");
    },
    async link(key) {
      await writing("Zulip");
      await textbox().selectText();
      await press(key);
      await poll(() => textbox().inputValue()).toBe("[Zulip](url)");
      expect(await textbox().evaluate((el: HTMLTextAreaElement) => el.value.slice(el.selectionStart, el.selectionEnd))).toBe("url");
      await textbox().fill("");
    },
    async preview(key) {
      await writing("**loud**");
      await press(key);
      await page.locator(".compose .preview strong", { hasText: "loud" }).waitFor();
      await press(key);
      await poll(() => textbox().inputValue()).toBe("**loud**");
      await textbox().fill("");
    },
    async "cancel-compose"(key) {
      const text = `Put away with ${key}`;
      await writing(text);
      await press(key);
      await poll(() => textbox().inputValue()).toBe("");
      await poll(async () => (await drafts()).map((d) => d.content)).toContain(text);
    },
    async "edit-last"(key) {
      await open(topicHash("castle"));
      await page.locator(".message").first().waitFor();
      await press(key);
      await dialogNamed("Edit message").waitFor();
      await poll(selectedId).toBe(ids.mine);
    },
    async edit(key) {
      await open(near("castle", ids.mine!), ids.mine);
      await press(key);
      await dialogNamed("Edit message").waitFor();
      await open(near("castle", ids.m1!), ids.m1);
      await press(key);
      await dialogNamed("Message source").waitFor();
    },
    async "user-card"(key) {
      await open(near("castle", ids.m2!), ids.m2);
      await press(key);
      await dialogNamed("Othello, the Moor of Venice").waitFor();
    },
    async "read-receipts"(key) {
      await open(near("castle", ids.m2!), ids.m2);
      await press(key);
      await dialogNamed("Read receipts").getByText(/This message has been read by/).waitFor();
      await press(key);
      await dialogNamed("Read receipts").waitFor({ state: "detached" });
    },
    async move(key) {
      await open(near("castle", ids.mine!), ids.mine);
      await press(key);
      await dialogNamed("Move messages").waitFor();
    },
    async "edit-history"(key) {
      await open(near("castle", ids.mine!), ids.mine);
      await press(key);
      await dialogNamed("Message edit history").getByText("My own words, edited").waitFor();
    },
    async star(key) {
      await open(near("castle", ids.m3!), ids.m3);
      await press(key);
      await poll(async () => (await message(ids.m3!)).flags).toContain("starred");
      await page.locator(`.message[data-id="${ids.m3}"] .star.on`).waitFor();
    },
    async "thumbs-up"(key) {
      await open(near("castle", ids.m3!), ids.m3);
      await press(key);
      await poll(async () => (await message(ids.m3!)).reactions.map((r) => [r.emoji_name, r.user_id])).toContainEqual(["+1", server.users.hamlet.id]);
      // Taken back once the page knows it is there.
      await page.locator(`.message[data-id="${ids.m3}"] .reaction.mine`).waitFor();
      await press(key);
      await poll(async () => (await message(ids.m3!)).reactions.length).toBe(0);
    },
    async "first-reaction"(key) {
      await open(near("castle", ids.m4!), ids.m4);
      await press(key);
      await poll(async () => (await message(ids.m4!)).reactions.map((r) => [r.emoji_name, r.user_id])).toContainEqual(["tada", server.users.hamlet.id]);
    },
    async collapse(key) {
      await open(near("castle", ids.m1!), ids.m1);
      const row = page.locator(`.message[data-id="${ids.m1}"]`);
      await press(key);
      await row.getByRole("button", { name: "Show collapsed message" }).waitFor();
      await poll(async () => (await message(ids.m1!)).flags).toContain("collapsed");
      expect(await row.locator(".content").count()).toBe(0);
      await press(key);
      await row.locator(".content", { hasText: "Castle line 1" }).waitFor();
      await poll(async () => (await message(ids.m1!)).flags).not.toContain("collapsed");
    },
    async "mark-unread"(key) {
      await open(near("castle", ids.m5!), ids.m5);
      await press(key);
      await poll(async () => (await message(ids.m5!)).flags).not.toContain("read");
      await poll(async () => (await message(ids.mine!)).flags).not.toContain("read");
      expect((await message(ids.m4!)).flags).toContain("read");
    },
    async "mute-topic"(key) {
      await open(near("castle", ids.m2!), ids.m2);
      const policy = async () => ((await server.as("hamlet").post("/register", { fetch_event_types: ["user_topic"] })).body.user_topics as { topic_name: string; visibility_policy: number }[]).find((t) => t.topic_name === "castle")?.visibility_policy;
      await press(key);
      await poll(policy).toBe(1);
      await press(key);
      await poll(policy).toBe(undefined);
      // In Recent conversations: the topic whose link has focus.
      await open("#recent");
      await page.locator(".recent-table a", { hasText: /^castle$/ }).focus();
      await press(key);
      await poll(policy).toBe(1);
      await poll(() => isFocused(page.locator(".recent-table a", { hasText: /^castle$/ }))).toBe(true);
      await press(key);
      await poll(policy).toBe(undefined);
    },
    async "recent-down"(key) {
      await open("#recent");
      const links = page.locator(".recent-table a");
      await links.nth(1).waitFor();
      await press(key);
      await poll(() => isFocused(links.nth(0))).toBe(true);
      await press(key);
      await poll(() => isFocused(links.nth(1))).toBe(true);
      await page.keyboard.press("Enter");
      await poll(hashOf).toMatch(/^#narrow\//);
    },
    async "recent-up"(key) {
      await open("#recent");
      const links = page.locator(".recent-table a");
      await links.nth(2).waitFor();
      await links.nth(2).focus();
      await press(key);
      await poll(() => isFocused(links.nth(1))).toBe(true);
    },
    async drafts(key) {
      await open(topicHash("castle"));
      await press(key);
      await poll(hashOf).toBe("#drafts");
      await press(key);
      await poll(hashOf).toBe(topicHash("castle"));
    },
    async "restore-draft"(key) {
      const made = await server.as("hamlet").post("/drafts", { drafts: [{ type: "stream", to: [denmarkId], topic: "draftland", content: "Restore me", timestamp: Math.floor(Date.now() / 1000) }] });
      const id = (made.body.ids as number[])[0];
      await open("#drafts");
      await page.locator(`.draft[data-draft-id="${id}"]`).focus();
      await press(key);
      await poll(hashOf).toBe(topicHash("draftland"));
      await poll(() => textbox().inputValue()).toBe("Restore me");
      await textbox().fill("");
    },
    async "delete-draft"(key) {
      const made = await server.as("hamlet").post("/drafts", { drafts: [{ type: "stream", to: [denmarkId], topic: "scrap", content: "Delete me", timestamp: Math.floor(Date.now() / 1000) }] });
      const id = (made.body.ids as number[])[0];
      await open("#drafts");
      await page.locator(`.draft[data-draft-id="${id}"]`).focus();
      await press(key);
      await poll(async () => (await drafts()).map((d) => d.id)).not.toContain(id);
      await page.locator(`.draft[data-draft-id="${id}"]`).waitFor({ state: "detached" });
    },
    async gear(key) {
      await open(topicHash("castle"));
      await press(key);
      await poll(hashOf).toBe("#settings/profile");
      await page.locator(".settings-main").waitFor();
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await press(key);
      await poll(hashOf).toBe(topicHash("castle"));
    },
    async "emoji-menu"(key) {
      await open(near("castle", ids.m2!), ids.m2);
      await press(key);
      await dialogNamed("Add emoji reaction").waitFor();
    },
    async "actions-menu"(key) {
      await open(near("castle", ids.m2!), ids.m2);
      await press(key);
      const menu = page.locator(`.message[data-id="${ids.m2}"]`).getByRole("menu", { name: "Message actions" });
      await menu.waitFor();
      await poll(() => page.evaluate(() => document.activeElement?.getAttribute("role"))).toBe("menuitem");
      await press(key);
      await menu.waitFor({ state: "detached" });
    },
    async "channel-down"(key) {
      await open("#channels");
      const filter = page.getByRole("searchbox", { name: "Filter channels" });
      await filter.fill("Elsi");
      await filter.focus();
      await press(key);
      await poll(() => isFocused(page.locator(".channel-list a", { hasText: "Elsinore" }))).toBe(true);
      await filter.fill("");
    },
    async "channel-up"(key) {
      await open("#channels");
      const first = page.locator(".channel-list li > a").first();
      await first.focus();
      await press(key);
      await poll(focused).toBe("Filter channels");
    },
    async "view-channel"(key) {
      await open("#channels");
      await page.locator(".channel-list a", { hasText: "Elsinore" }).focus();
      await press(key);
      await poll(hashOf).toMatch(/^#narrow\/channel\/\d+-Elsinore$/);
    },
    async "toggle-subscription"(key) {
      await open("#channels");
      const subscribed = async () => ((await server.as("hamlet").get("/users/me/subscriptions")).body.subscriptions as { name: string }[]).some((c) => c.name === "Wittenberg");
      await page.locator(".channel-list a", { hasText: "Wittenberg" }).focus();
      await press(key);
      await poll(subscribed).toBe(true);
      await page.locator(".channel-list li", { hasText: "Wittenberg" }).getByRole("button", { name: "Leave" }).waitFor();
      await press(key);
      await poll(subscribed).toBe(false);
    },
    async "create-channel"(key) {
      await open("#channels");
      // Typed into the filter, the key is only a letter.
      const filter = page.getByRole("searchbox", { name: "Filter channels" });
      await filter.focus();
      await press(key);
      expect(await filter.inputValue()).toBe(key);
      expect(await isFocused(filter)).toBe(true);
      await filter.fill("");
      await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
      await press(key);
      await poll(() => page.evaluate(() => document.activeElement?.closest("form.create-channel") !== null)).toBe(true);
    },
  };

  it("Tab reaches both sidebars, each control with a visible focus ring", async () => {
    await open(topicHash("castle"));
    /** Presses Tab from `start` until focus is in `side`; checks the ring on the way. */
    const tabInto = async (start: string, side: string) => {
      await page.locator(start).focus();
      for (let i = 0; i < 60; i++) {
        await page.keyboard.press("Tab");
        const where = await page.evaluate((sel) => {
          const el = document.activeElement as HTMLElement | null;
          return { inside: el?.closest(sel) !== null, outline: el ? getComputedStyle(el).outlineStyle : "none" };
        }, side);
        expect(where.outline).not.toBe("none");
        if (where.inside) return true;
      }
      return false;
    };
    // The left sidebar follows the top bar; the right one follows compose's Send button.
    expect(await tabInto("header.top a.gear", "nav.left")).toBe(true);
    expect(await tabInto(".compose button.send", "aside.right")).toBe(true);
  });

  it("a row's buttons (and a later message's time) show while it is hovered, focused or selected; Tab reaches the selected message's", async () => {
    await open(near("castle", ids.m2!), ids.m2);
    await page.mouse.move(1, 1);
    const row = (id: number) => page.locator(`.message[data-id="${id}"]`);
    const buttons = (id: number) => row(id).locator(".actions button");
    const shown = (id: number) => buttons(id).evaluateAll((els) => els.map((el) => getComputedStyle(el).display !== "none"));
    const layout = (id: number) => row(id).evaluate((el) => [el.getBoundingClientRect().height, el.querySelector(".content")!.getBoundingClientRect().width]);
    // Star, reaction, menu: all three on the selected row, none on another (its star is off).
    expect(await shown(ids.m2!)).toEqual([true, true, true]);
    expect(await shown(ids.m3!)).toEqual([false, false, false]);
    const before = await layout(ids.m3!);
    expect(await row(ids.m3!).locator(".hover-time").isVisible()).toBe(false);
    await row(ids.m3!).hover();
    expect(await shown(ids.m3!)).toEqual([true, true, true]);
    expect(await row(ids.m3!).locator(".hover-time").isVisible()).toBe(true);
    // Nothing moves under the pointer: the actions column keeps its width.
    expect(await layout(ids.m3!)).toEqual(before);
    await page.mouse.move(1, 1);
    expect(await shown(ids.m3!)).toEqual([false, false, false]);
    // From the top bar, Tab comes to the selected message's star. Another row's buttons come only
    // after a link in that row took focus (and showed them).
    await page.locator("header.top a.gear").focus();
    let reached = false;
    let lastRow = 0;
    for (let i = 0; i < 150 && !reached; i++) {
      await page.keyboard.press("Tab");
      const at = await page.evaluate(() => {
        const el = document.activeElement;
        return { row: Number(el?.closest(".message")?.getAttribute("data-id") ?? 0), button: el?.closest(".actions") !== null };
      });
      if (at.button && at.row !== ids.m2) expect(at.row).toBe(lastRow);
      reached = at.button && at.row === ids.m2;
      lastRow = at.row;
    }
    expect(reached).toBe(true);
    // Focused, the row keeps its buttons with the pointer away.
    expect(await shown(ids.m2!)).toEqual([true, true, true]);
    expect(errors).toEqual([]);
  });

  it("the table has a test for every row with keys, and every key is one a keyboard can press", () => {
    for (const row of rows as readonly Row[]) {
      if (row.keys.length === 0) expect(row.absent, row.id).toBeTruthy();
      else expect(checks[row.id as BoundId], row.id).toBeTypeOf("function");
      for (const key of row.keys) expect(keyLabel(key)).not.toBe("");
    }
  });

  for (const row of rows as readonly Row[]) {
    for (const key of row.keys) {
      it(`${row.id}: ${keyLabel(key)} (${row.label})`, async () => {
        await checks[row.id as BoundId](key);
        expect(errors).toEqual([]);
      });
    }
  }
});
