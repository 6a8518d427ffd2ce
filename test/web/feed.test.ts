/**
 * The message feed in Chromium over 700 messages: it opens at the first unread, marks messages read
 * as they scroll into view (counts fall), keeps at most 300 rows in the DOM while scrolling to the
 * oldest and back to the newest, and sticks to the bottom when a message arrives there. A page
 * opened on a channel draws its first page before /register answers and misses no message sent
 * in between.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildWeb } from "../../web/build.js";
import { createStreams } from "../api/streams-helpers.js";
import { startServer, type TestServer } from "../harness/server.js";
import { NO_CHROMIUM, hasChromium, launch, logIn, openPage } from "./browser.js";

if (!hasChromium) console.log(NO_CHROMIUM);
const COUNT = 700;

describe.skipIf(!hasChromium)("the message feed's window", () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let channelId = 0;
  let ids: number[] = [];
  const errors: string[] = [];
  const webDir = mkdtempSync(path.join(tmpdir(), "rookery-web-feed-"));

  beforeAll(async () => {
    await buildWeb(webDir);
    server = await startServer({ webDir });
    const othello = server.as("othello");
    // Made as Zulip's tests make channels: without Notification Bot's creation notice, so the play is all it holds.
    channelId = (await createStreams(server, "othello", ["Verona"], { principals: [server.users.hamlet.id, server.users.othello.id] })).Verona ?? 0;
    for (let i = 0; i < COUNT; i++) {
      const res = await othello.post("/messages", { type: "stream", to: channelId, topic: `act ${Math.floor(i / 100)}`, content: `Line ${i} of the play.` });
      ids.push(Number(res.body.id));
    }
    // Hamlet has read all but the last 20.
    await server.as("hamlet").post("/messages/flags", { messages: ids.slice(0, COUNT - 20), op: "add", flag: "read" });
    browser = await launch();
    const context = await browser.newContext({ viewport: { width: 1400, height: 1024 } });
    page = await openPage(context, errors);
    await logIn(page, server.url, server.users.hamlet.delivery_email, server.password);
  }, 120000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(webDir, { recursive: true, force: true });
    ids = [];
  });

  const rowCount = () => page.locator(".feed .message").count();
  const channelCount = () => page.locator("nav.left .channels a", { hasText: "Verona" }).locator(".count");

  it("opens at the first unread and marks what is seen as read", async () => {
    expect(await channelCount().textContent()).toBe("20");
    await page.getByRole("link", { name: "Verona" }).first().click();
    await page.locator(`.message[data-id="${ids[COUNT - 20]}"]`).waitFor();
    // The list opens with the rows after the first unread as well as before it: every unread one.
    expect(await page.locator(`.message[data-id="${ids[COUNT - 1]}"]`).count()).toBe(1);
    await page.locator(".feed .scroller").evaluate((box) => (box.scrollTop = box.scrollHeight));
    await expect.poll(() => channelCount().count(), { timeout: 10000 }).toBe(0);
  });

  it("scrolls to the oldest and back with at most 300 rows in the DOM", async () => {
    const seen = new Set<string>();
    let most = 0;
    for (let i = 0; i < 400; i++) {
      const state = await page.locator(".feed .scroller").evaluate((box) => {
        box.scrollTop = Math.max(0, box.scrollTop - 2500);
        const rows = [...box.querySelectorAll(".message")].map((r) => r.getAttribute("data-id") ?? "");
        return { rows, top: box.scrollTop, start: box.querySelector(".edge")?.textContent ?? "" };
      });
      for (const id of state.rows) seen.add(id);
      most = Math.max(most, state.rows.length);
      if (state.top === 0 && state.start.startsWith("This is the start") && seen.size >= COUNT) break;
      await page.waitForTimeout(30);
    }
    expect(seen.size).toBe(COUNT);
    expect(most).toBeLessThanOrEqual(300);
    expect(await page.locator(`.message[data-id="${ids[0]}"]`).count()).toBe(1);
    for (let i = 0; i < 400; i++) {
      await page.locator(".feed .scroller").evaluate((box) => (box.scrollTop += 2500));
      // At the bottom once the window has moved (rows added below keep the rows in view where they were).
      const bottom = await page.locator(".feed .scroller").evaluate(async (box, last) => {
        await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
        return box.scrollHeight - box.scrollTop - box.clientHeight < 2 && box.querySelector(`.message[data-id="${last}"]`) !== null;
      }, ids[COUNT - 1]);
      most = Math.max(most, await rowCount());
      if (bottom) break;
      await page.waitForTimeout(30);
    }
    expect(most).toBeLessThanOrEqual(300);
    expect(await page.locator(`.message[data-id="${ids[COUNT - 1]}"]`).count()).toBe(1);
  }, 60000);

  it("a new message at the bottom is scrolled into view", async () => {
    const res = await server.as("othello").post("/messages", { type: "stream", to: channelId, topic: "act 6", content: "Exeunt." });
    const row = page.locator(`.message[data-id="${Number(res.body.id)}"]`);
    await row.waitFor();
    await expect.poll(() => row.evaluate((el) => {
      const box = el.closest(".scroller")?.getBoundingClientRect();
      const r = el.getBoundingClientRect();
      return box !== undefined && r.bottom <= box.bottom + 1 && r.top >= box.top;
    })).toBe(true);
    expect(await rowCount()).toBeLessThanOrEqual(300);
    expect(errors).toEqual([]);
  });

  it("opens another narrow with the rows that fill its scroller, not the window's height of them", async () => {
    // Where the rows are when the feed marks the list drawn (scrolled to its place, before the frame is painted).
    await page.evaluate(() => {
      const mark = performance.mark.bind(performance);
      const scope = window as unknown as { drawnAt?: unknown; unmark?: () => void };
      scope.unmark = () => (performance.mark = mark);
      performance.mark = (name: string, options?: PerformanceMarkOptions) => {
        const box = document.querySelector(".feed .scroller")?.getBoundingClientRect();
        const rows = [...document.querySelectorAll(".feed .message")].map((r) => r.getBoundingClientRect());
        if (name === "rookery:list-drawn" && box) scope.drawnAt = { boxTop: box.top, boxHeight: box.height, firstTop: rows[0]?.top ?? 0, lastBottom: rows.at(-1)?.bottom ?? 0 };
        return mark(name, options);
      };
    });
    await page.evaluate((hash) => (location.hash = hash), `#narrow/channel/${channelId}-Verona/topic/act.203`);
    await page.waitForFunction(() => "drawnAt" in window);
    const at = await page.evaluate(() => {
      const scope = window as unknown as { drawnAt: { boxTop: number; boxHeight: number; firstTop: number; lastBottom: number }; unmark: () => void };
      scope.unmark();
      return scope.drawnAt;
    });
    // The newest row at the bottom, rows up to the top of the scroller, and not much more above it.
    expect(at.firstTop).toBeLessThanOrEqual(at.boxTop);
    expect(at.lastBottom).toBeGreaterThan(at.boxTop + at.boxHeight - 40);
    expect(at.boxTop - at.firstTop).toBeLessThan(at.boxHeight / 3);
    expect(await page.locator(`.message[data-id="${ids[399]}"]`).count()).toBe(1);
  });

  it("draws the open channel's messages before /register answers, and shows a message sent before the event queue existed", async () => {
    const fresh = await openPage(page.context(), errors);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let registerAsked = false;
    await fresh.route("**/json/register", async (route) => {
      registerAsked = true;
      await gate;
      await route.continue();
    });
    // The page's boot script asks for the first page before app.js has run; the app takes that answer instead of asking again.
    const asked: string[] = [];
    fresh.on("request", (r) => {
      const at = new URL(r.url()).pathname;
      if (at === "/json/messages" || /^\/static\/(boot|app)-\w+\.js$/.test(at)) asked.push(at.replace(/-\w+\.js$/, ".js"));
    });
    await fresh.goto(`${server.url}/#narrow/channel/${channelId}-Verona`);
    // The newest messages are drawn from the first page alone: no sidebars or compose box yet.
    await fresh.locator(`.feed .message[data-id="${ids[COUNT - 1]}"]`).waitFor();
    expect(asked).toEqual(["/static/boot.js", "/static/app.js", "/json/messages"]);
    // /register is asked once the app runs, after that first list is painted.
    await expect.poll(() => registerAsked).toBe(true);
    expect(await fresh.locator("nav.left .channels").count()).toBe(0);
    expect(await fresh.locator("section.compose").count()).toBe(0);
    expect(await fresh.locator(".feed .recipient-bar .channel").first().textContent()).toBe("# Verona");
    // Sent after that page was fetched and before the register made the event queue.
    const res = await server.as("othello").post("/messages", { type: "stream", to: channelId, topic: "act 7", content: "Enter a messenger." });
    release();
    await fresh.locator("nav.left .channels").waitFor();
    await fresh.locator("section.compose").waitFor();
    await fresh.locator(`.feed .message[data-id="${Number(res.body.id)}"]`).waitFor({ timeout: 10000 });
    // One after, through the queue.
    const later = await server.as("othello").post("/messages", { type: "stream", to: channelId, topic: "act 7", content: "Exit the messenger." });
    await fresh.locator(`.feed .message[data-id="${Number(later.body.id)}"]`).waitFor({ timeout: 10000 });
    expect(await fresh.locator(".feed .message").count()).toBeLessThanOrEqual(300);
    await fresh.close();
    expect(errors).toEqual([]);
  });
});
