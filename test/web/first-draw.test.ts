/**
 * The page's first message list, drawn by boot.ts with plain DOM before the app has run
 * (web/views/first-draw.ts), in Chromium: it is the real list (the open channel's newest rows,
 * visible, painted while the app's code is still held back), the app then takes those very
 * elements over with nothing changed (same markup, same scroll position, no row drawn twice), and
 * hostile channel, topic and sender names stay text: the XSS sentinel stays unset, no console error.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Browser, Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildWeb } from "../../web/build.js";
import { startServer, type TestServer } from "../harness/server.js";
import { NO_CHROMIUM, hasChromium, launch, logIn, openPage, screenshotDir } from "./browser.js";

if (!hasChromium) console.log(NO_CHROMIUM);

/** What an injected script would do: set a flag the test reads. */
const XSS = `<img src=x onerror="window.__xss=1"><script>window.__xss=2</script>`;
/** For names, where the server refuses `>` and `"`: an unclosed tag still runs if it is ever parsed as HTML. */
const NAME_XSS = "<img src=x onerror=window.__xss=3 ";
const CHANNEL = `Elsinore ${XSS}`.slice(0, 60);
const TOPIC = `act ${XSS}`.slice(0, 60);
const COUNT = 80;

/** Put in the page (an init script): an element as text, attributes sorted, adjacent text joined, empty text left out. */
function defineSerializer(): void {
  const walk = (n: Node): string => {
    if (!(n instanceof Element)) return "";
    const attrs = [...n.attributes].map((a) => `${a.name}=${JSON.stringify(a.value)}`).sort().join(" ");
    let inner = "";
    let text = "";
    for (const c of n.childNodes) {
      if (c.nodeType === Node.TEXT_NODE) text += (c as Text).data;
      else {
        if (text) inner += JSON.stringify(text);
        text = "";
        inner += walk(c);
      }
    }
    if (text) inner += JSON.stringify(text);
    return `<${n.localName} ${attrs}>${inner}</${n.localName}>`;
  };
  (window as unknown as { __serialize: (n: Node) => string }).__serialize = walk;
}

type Seen = { rows: { id: string; html: string; top: number; el: HTMLElement }[]; shell: string; scrollTop: number };

/** In the page: each message row drawn (markup and place on screen) and the shell around the rows. */
function look(): Omit<Seen, "rows"> & { rows: Omit<Seen["rows"][number], "el">[] } {
  const w = window as unknown as { __serialize: (n: Node) => string; __first?: Seen };
  const box = document.querySelector<HTMLElement>(".feed .scroller");
  const boxTop = box?.getBoundingClientRect().top ?? 0;
  const rows = (w.__first?.rows.map((r) => r.el) ?? [...document.querySelectorAll<HTMLElement>(".feed .message")]).map((el) => ({ el, id: el.dataset.id ?? "", html: w.__serialize(el), top: Math.round(el.getBoundingClientRect().top - boxTop) }));
  const shell = [".app > .banners", ".app > header.top", ".app > nav.left", ".app > aside.right", ".feed > .narrow-header"].map((q) => { const e = document.querySelector(q); return e ? w.__serialize(e) : `(no ${q})`; }).join("");
  const seen = { rows, shell, scrollTop: box?.scrollTop ?? -1 };
  w.__first ??= seen;
  return { ...seen, rows: rows.map(({ id, html, top }) => ({ id, html, top })) };
}

describe.skipIf(!hasChromium)("the first message list, drawn before the app runs", () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let channelId = 0;
  const ids: number[] = [];
  const errors: string[] = [];
  const webDir = mkdtempSync(path.join(tmpdir(), "rookery-web-first-draw-"));

  beforeAll(async () => {
    await buildWeb(webDir);
    server = await startServer({ webDir });
    expect((await server.as("othello").patch("/settings", { full_name: `Oth ${NAME_XSS}` })).status).toBe(200);
    const created = await server.as("iago").post("/users/me/subscriptions", { subscriptions: [{ name: CHANNEL }], principals: [server.users.hamlet.id, server.users.othello.id] });
    expect(created.status).toBe(200);
    channelId = Number((await server.as("iago").get("/get_stream_id", { stream: CHANNEL })).body.stream_id);
    for (let i = 0; i < COUNT; i++) {
      const who = i % 3 === 0 ? "hamlet" : "othello";
      const res = await server.as(who).post("/messages", { type: "stream", to: channelId, topic: i < COUNT - 20 ? "act 1" : TOPIC, content: i % 10 === 0 ? `Line ${i}: ${XSS} **bold** :octopus:` : `Line ${i} of the play.` });
      expect(res.status).toBe(200);
      ids.push(Number(res.body.id));
    }
    const hamlet = server.as("hamlet");
    // All read (the channel's creation notice too): the list opens at its newest message.
    expect((await hamlet.post("/mark_stream_as_read", { stream_id: channelId })).status).toBe(200);
    expect((await hamlet.post("/messages/flags", { messages: [ids[COUNT - 3]], op: "add", flag: "starred" })).status).toBe(200);
    browser = await launch();
    const context = await browser.newContext({ viewport: { width: 1400, height: 1024 } });
    page = await openPage(context, errors);
    await logIn(page, server.url, server.users.hamlet.delivery_email, server.password);
  }, 120000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(webDir, { recursive: true, force: true });
  });

  it("is the real list, painted before the app runs, and the app takes it over unchanged", async () => {
    const fresh = await openPage(page.context(), errors);
    await fresh.addInitScript(defineSerializer);
    // The app's code (app.js and its chunks) and /register are held back: what is on screen meanwhile is boot.ts's alone.
    const held: { route: Route; what: "js" | "register" }[] = [];
    const holding = { js: true, register: true };
    const hold = async (route: Route, what: "js" | "register") => {
      if (holding[what]) held.push({ route, what });
      else await route.continue();
    };
    const release = async (what: "js" | "register") => {
      holding[what] = false;
      for (const h of held.filter((x) => x.what === what)) await h.route.continue();
    };
    await fresh.route(/\/static\/(app|chunk)-\w+\.js$/, (route) => hold(route, "js"));
    await fresh.route("**/json/register", (route) => hold(route, "register"));
    const asked: string[] = [];
    fresh.on("request", (r) => {
      if (new URL(r.url()).pathname === "/json/messages") asked.push(r.url());
    });
    // Not waiting for "load": that waits for the app.js held back.
    await fresh.goto(`${server.url}/#narrow/channel/${channelId}-Elsinore`, { waitUntil: "commit" });
    await fresh.waitForFunction(() => performance.getEntriesByName("rookery:list-painted").length === 1);
    // The app has not run: none of its code has arrived.
    expect(held.length).toBeGreaterThan(0);
    expect(held.every((h) => h.what === "js")).toBe(true);
    expect(await fresh.evaluate(() => performance.getEntriesByName("rookery:list-adopted").length)).toBe(0);
    expect(await fresh.locator('link[rel="modulepreload"]').count()).toBe(0);

    // The real list: the newest messages, the last one in view, in the app's stylesheet (the rows have their layout).
    const newest = fresh.locator(`.feed .message[data-id="${ids[COUNT - 1]}"]`);
    await expect.poll(() => newest.isVisible()).toBe(true);
    const shown = await fresh.evaluate(look);
    const lastRow = shown.rows[shown.rows.length - 1];
    const height = await fresh.locator(".feed .scroller").evaluate((e) => e.clientHeight);
    // Rows enough to fill the list by their least heights, and no more: fewer than 40, as most of these rows do not show their sender.
    const n = shown.rows.length;
    expect(shown.rows.map((r) => Number(r.id))).toEqual(ids.slice(COUNT - n));
    expect(n).toBeGreaterThan(20);
    expect(n).toBeLessThan(40);
    expect(shown.rows[0]?.top).toBeLessThan(0);
    expect(lastRow !== undefined && lastRow.top >= 0 && lastRow.top < height).toBe(true);
    expect(await newest.evaluate((e) => getComputedStyle(e).display)).toBe("grid");
    expect(shown.scrollTop).toBeGreaterThan(0);
    expect(await fresh.locator(".feed .recipient-bar .channel").first().textContent()).toBe(`# ${CHANNEL}`);
    expect(await fresh.locator(".feed .recipient-bar .topic").allTextContents()).toEqual(["act 1", TOPIC]);
    expect(await fresh.locator(".feed .sender", { hasText: "Oth " }).first().textContent()).toBe(`Oth ${NAME_XSS}`.trim());
    expect(await fresh.locator(`.feed .message[data-id="${ids[COUNT - 3]}"] .star`).getAttribute("aria-label")).toBe("Unstar");
    expect(await fresh.locator(".feed .message.selected").getAttribute("data-id")).toBe(String(ids[COUNT - 1]));
    await fresh.screenshot({ path: path.join(screenshotDir(), "first-draw-boot.png") });

    // The app runs (no /register yet): it renders into the drawn list. The same row elements, the
    // same markup, at the same places on screen (its window then grows above them, off screen).
    await release("js");
    await fresh.waitForFunction(() => performance.getEntriesByName("rookery:list-adopted").length === 1);
    await fresh.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 100))));
    const adopted = await fresh.evaluate(look);
    expect(adopted.shell).toBe(shown.shell);
    for (const [i, r] of adopted.rows.entries()) expect(r).toEqual(shown.rows[i]);
    expect(await fresh.evaluate(() => (window as unknown as { __first: Seen }).__first.rows.every((r) => r.el.isConnected))).toBe(true);
    const rowIds = await fresh.locator(".feed .message").evaluateAll((rows) => rows.map((e) => (e as HTMLElement).dataset.id));
    expect(new Set(rowIds).size).toBe(rowIds.length);
    // The chunks the page names were preloaded by app.js once the list was painted (none before: the page lists none itself).
    const preloads = await fresh.evaluate(() => ({
      named: document.querySelector<HTMLMetaElement>('meta[name="rookery-chunks"]')?.content.split(" ") ?? [],
      linked: [...document.querySelectorAll<HTMLLinkElement>('link[rel="modulepreload"]')].map((l) => new URL(l.href).pathname.replace("/static/", "")),
    }));
    expect(preloads.named.length).toBeGreaterThan(0);
    expect(preloads.linked).toEqual(preloads.named);
    // Still one painted mark: the bench's figure is the first draw's.
    expect(await fresh.evaluate(() => performance.getEntriesByName("rookery:list-painted").length)).toBe(1);

    // /register answers: the sidebars and compose join; the drawn rows stay, each once.
    await release("register");
    await fresh.locator("nav.left .channels").waitFor();
    await fresh.locator("section.compose").waitFor();
    const after = await fresh.evaluate(() => {
      const first = (window as unknown as { __first: Seen }).__first.rows.map((r) => r.el);
      const rowIds = [...document.querySelectorAll<HTMLElement>(".feed .message")].map((e) => e.dataset.id);
      return { connected: first.every((e) => e.isConnected), unique: new Set(rowIds).size === rowIds.length, rows: rowIds.length, xss: (window as unknown as { __xss?: number }).__xss };
    });
    expect(after).toEqual({ connected: true, unique: true, rows: after.rows, xss: undefined });
    expect(after.rows).toBeGreaterThanOrEqual(n);
    // The compose box took room from the list, which kept its newest row in view.
    await expect.poll(() => fresh.evaluate((id) => {
      const box = document.querySelector(".feed .scroller")!.getBoundingClientRect();
      const row = document.querySelector(`.feed .message[data-id="${id}"]`)!.getBoundingClientRect();
      return row.top >= box.top && row.bottom <= box.bottom + 1;
    }, ids[COUNT - 1])).toBe(true);
    // The first page was asked for once, by boot.ts; the app took its answer (and then asks for older pages).
    expect(asked.filter((url) => new URL(url).searchParams.get("anchor") === "first_unread").length).toBe(1);
    await fresh.screenshot({ path: path.join(screenshotDir(), "first-draw-app.png") });
    await fresh.close();
    expect(errors).toEqual([]);
  });

  it("opens the home view at /: the Combined feed drawn from the page itself, with no request, and taken over by the app", async () => {
    const hamlet = server.as("hamlet");
    expect((await hamlet.patch("/settings", { web_home_view: "all_messages" })).status).toBe(200);
    try {
      const fresh = await openPage(page.context(), errors);
      const held: Route[] = [];
      let holding = true;
      await fresh.route(/\/static\/(app|chunk)-\w+\.js$/, async (route) => (holding ? held.push(route) : route.continue()));
      const asked: string[] = [];
      fresh.on("request", (r) => {
        if (new URL(r.url()).pathname === "/json/messages") asked.push(r.url());
      });
      await fresh.goto(`${server.url}/`, { waitUntil: "commit" });
      await fresh.waitForFunction(() => performance.getEntriesByName("rookery:list-painted").length === 1);
      expect(held.length).toBeGreaterThan(0);
      // The newest messages of all (this channel's), the newest in view; nothing was asked for.
      const drawn = await fresh.locator(".feed .message").evaluateAll((rows) => rows.map((e) => Number((e as HTMLElement).dataset.id)));
      expect(drawn.length).toBeGreaterThan(20);
      expect(drawn).toEqual(ids.slice(COUNT - drawn.length));
      expect(await fresh.locator(".feed .narrow-header h1").textContent()).toBe("Combined feed");
      expect(await fresh.locator(`.feed .message[data-id="${ids[COUNT - 1]}"]`).isVisible()).toBe(true);
      expect(asked).toEqual([]);
      expect(await fresh.locator("#rookery-first-page").count()).toBe(0);
      holding = false;
      for (const route of held) await route.continue();
      await fresh.waitForFunction(() => performance.getEntriesByName("rookery:list-adopted").length === 1);
      await fresh.locator("section.compose").waitFor();
      // The app took the page's answer for its own first page (it asks only for older ones).
      expect(asked.filter((url) => new URL(url).searchParams.get("anchor") === "first_unread")).toEqual([]);
      expect(fresh.url()).toBe(`${server.url}/`);
      await fresh.close();
    } finally {
      await hamlet.patch("/settings", { web_home_view: "inbox" });
    }
    expect(errors).toEqual([]);
  });

  it("opens the inbox at / when that is the home view, and the page carries no messages", async () => {
    const fresh = await openPage(page.context(), errors);
    await fresh.goto(`${server.url}/`);
    await fresh.locator(".inbox").waitFor();
    expect(await fresh.evaluate(() => performance.getEntriesByName("rookery:list-painted").length)).toBe(0);
    await fresh.close();
    expect(errors).toEqual([]);
  });

  it("leaves the page to the app when the open narrow is not a message list", async () => {
    const fresh = await openPage(page.context(), errors);
    await fresh.goto(`${server.url}/#inbox`);
    await fresh.locator(".inbox").waitFor();
    expect(await fresh.evaluate(() => performance.getEntriesByName("rookery:list-painted").length)).toBe(0);
    expect(await fresh.evaluate(() => (window as unknown as { rookeryFirstDraw?: unknown }).rookeryFirstDraw)).toBeUndefined();
    await fresh.close();
    expect(errors).toEqual([]);
  });
});
