/**
 * The web app at phone width (360x740, Debian's Chromium): every main view, the left sidebar
 * opened from its button, the compose box and settings, with nothing wider than the screen: no
 * visible element reaches past the viewport's edges unless a scrolling or clipping box holds it,
 * and the page itself never scrolls sideways. Screenshots of each view go to the folder the test
 * prints (dist/screenshots/phone/) for a person to look at.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { createStreams } from "../api/streams-helpers.js";
import type { TestServer } from "../harness/server.js";
import { NO_CHROMIUM, hasChromium, logIn, openPage, screenshotDir } from "./browser.js";
import { twoPeople } from "./two-people.js";

if (!hasChromium) console.log(NO_CHROMIUM);

/** Elements past the viewport's left or right edge that no scrolling or clipping ancestor holds, and the main containers wider than they are shown. */
function overflowing(): string[] {
  const out: string[] = [];
  const width = document.documentElement.clientWidth;
  const name = (el: Element) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${el.classList.length ? `.${[...el.classList].join(".")}` : ""}`;
  if (document.documentElement.scrollWidth > width) out.push(`the page scrolls sideways: ${document.documentElement.scrollWidth} > ${width}`);
  for (const sel of [".app", ".top", "main.middle", ".compose", ".settings-main", ".settings-nav", ".narrow-header", ".list-view"]) {
    for (const el of document.querySelectorAll(sel)) {
      const style = getComputedStyle(el);
      const scrolls = style.overflowX === "auto" || style.overflowX === "scroll";
      if (!scrolls && el.scrollWidth > el.clientWidth + 1) out.push(`${name(el)} is ${el.scrollWidth} px wide in ${el.clientWidth}`);
    }
  }
  const held = (el: Element) => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.overflowX !== "visible") {
        const r = a.getBoundingClientRect();
        if (r.left >= -1 && r.right <= width + 1) return true;
      }
    }
    return false;
  };
  for (const el of document.body.querySelectorAll("*")) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const style = getComputedStyle(el);
    if (style.visibility === "hidden" || style.position === "fixed" && r.right <= 0) continue;
    if ((r.right > width + 1 || r.left < -1) && !held(el)) out.push(`${name(el)} spans ${Math.round(r.left)}..${Math.round(r.right)} of ${width}`);
  }
  return out;
}

describe.skipIf(!hasChromium)("the web app at phone width (360x740)", () => {
  let denmarkId = 0;
  const people = twoPeople({
    context: { timezoneId: "Europe/Copenhagen" },
    async prepare(server) {
      denmarkId = (await createStreams(server, "hamlet", ["Denmark and its very long channel name for phones"], { description: "The **royal** channel", principals: [server.users.hamlet.id, server.users.othello.id] }))["Denmark and its very long channel name for phones"] ?? 0;
      const say = async (who: "hamlet" | "othello", params: Record<string, string>) => expect((await server.as(who).post("/messages", params)).body).toMatchObject({ result: "success" });
      await say("othello", { type: "stream", to: String(denmarkId), topic: "a topic whose name goes on and on past any phone's width", content: "Who's there? A https://example.com/a/very/long/link/that/does/not/break/anywhere/at/all/in/the/text" });
      await say("hamlet", { type: "stream", to: String(denmarkId), topic: "castle", content: "```\nconst aVeryLongLineOfCode = 'that must scroll inside its own box, not push the page sideways at all';\n```\n| a | table | with | many | columns | that | is | wide |\n|---|---|---|---|---|---|---|---|\n| 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 |" });
      await say("othello", { type: "private", to: JSON.stringify([server.users.hamlet.id]), content: "A word in private, my lord." });
    },
  });
  const dir = path.join(screenshotDir(), "phone");
  mkdirSync(dir, { recursive: true });
  let server: TestServer;
  let page: Page;

  const open = async (hash: string) => {
    await page.evaluate((h) => (location.hash = h), hash);
    await page.locator("main.middle").waitFor();
    await expect.poll(() => page.locator("main.middle").getByText("Loading…").count()).toBe(0);
    await page.waitForTimeout(150);
  };
  const look = async (name: string) => {
    await page.screenshot({ path: path.join(dir, `${name}.png`) });
    return (await page.evaluate(overflowing)).map((line) => `${name}: ${line}`);
  };

  beforeAll(async () => {
    ({ server, hamlet: page } = people);
    await page.setViewportSize({ width: 360, height: 740 });
    console.log(`phone-width screenshots: ${dir}`);
  });

  it("every main view fits the screen", async () => {
    const topic = `#narrow/channel/${denmarkId}-Denmark/topic/castle`;
    const views: [string, string][] = [
      ["inbox", "#inbox"],
      ["recent", "#recent"],
      ["combined-feed", "#feed"],
      ["channel", `#narrow/channel/${denmarkId}-Denmark`],
      ["topic", topic],
      ["dms", `#narrow/dm/${server.users.othello.id}-Othello`],
      ["search", "#narrow/search/there"],
      ["channel-browser", "#channels"],
      ["drafts", "#drafts"],
      ["settings-profile", "#settings/profile"],
      ["settings-preferences", "#settings/preferences"],
      ["settings-notifications", "#settings/notifications"],
      ["settings-channel", `#settings/channels/${denmarkId}`],
    ];
    const found: string[] = [];
    for (const [name, hash] of views) {
      await open(hash);
      found.push(...(await look(name)));
    }
    expect(found).toEqual([]);
  });

  it("the left sidebar opens from its button over the view, and closes on going somewhere", async () => {
    await open("#inbox");
    expect(await page.locator("nav.left").isVisible()).toBe(false);
    await page.getByRole("button", { name: "Views and conversations" }).click();
    await page.locator("nav.left").waitFor();
    expect(await look("left-sidebar-open")).toEqual([]);
    // Its button stays in reach (above the panel), and closes it again.
    await page.getByRole("button", { name: "Views and conversations" }).click();
    await expect.poll(() => page.locator("nav.left").isVisible()).toBe(false);
    await page.getByRole("button", { name: "Views and conversations" }).click();
    await page.locator("nav.left").waitFor();
    await page.locator("nav.left").getByRole("link", { name: "Recent conversations" }).click();
    await expect.poll(() => page.locator("nav.left").isVisible()).toBe(false);
    expect(await page.getByRole("button", { name: "Views and conversations" }).getAttribute("aria-expanded")).toBe("false");
  });

  it("the compose box, filled, fits the screen", async () => {
    await open(`#narrow/channel/${denmarkId}-Denmark/topic/castle`);
    await page.getByRole("textbox", { name: "Message" }).fill("A long reply that wraps over several lines on a phone, ".repeat(6));
    expect(await look("compose-open")).toEqual([]);
    await page.getByRole("textbox", { name: "Message" }).fill("");
  });

  it("on a touch screen, a tap on a message selects it and shows its buttons; a second tap uses one", async () => {
    // Signed in wide (logIn waits for the left sidebar), then narrowed to the phone's width.
    const context = await people.browser.newContext({ viewport: { width: 1400, height: 1024 }, hasTouch: true, isMobile: true });
    people.contexts.push(context);
    const phone = await openPage(context, people.errors);
    await logIn(phone, server.url, server.users.hamlet.delivery_email, server.password, `#narrow/channel/${denmarkId}-Denmark`);
    await phone.setViewportSize({ width: 360, height: 740 });
    const older = phone.locator(".message", { hasText: "Who's there?" });
    const newer = phone.locator(".message", { hasText: "aVeryLongLineOfCode" });
    await newer.waitFor();
    const selectedId = () => phone.locator(".message.selected").getAttribute("data-id");
    const [olderId, newerId] = [await older.getAttribute("data-id"), await newer.getAttribute("data-id")];
    const buttonsShown = () => phone.locator(".message .message-actions > .icon-button:visible, .message .actions > .star:visible").count();

    for (const [row, id] of [[newer, newerId], [older, olderId]] as const) {
      const content = row.locator(".rendered");
      await content.tap({ position: { x: 2, y: 2 } });
      try {
        await expect.poll(selectedId).toBe(id);
      } catch (failed) {
        // For a failure seen once in CI and not since: what the tap point held, and the screen.
        const box = await content.boundingBox();
        const hit = box && (await phone.evaluate(([x, y]) => document.elementFromPoint(x, y)?.outerHTML.slice(0, 200) ?? "nothing", [box.x + 2, box.y + 2] as const));
        await phone.screenshot({ path: path.join(dir, "tap-not-selected.png") });
        console.log(`the tap on message ${id} left ${await selectedId()} selected; at the tap point now: ${hit}`);
        throw failed;
      }
      // Only the selected row's buttons are laid out: star, reaction, menu.
      expect(await row.getByRole("button", { name: "Star" }).isVisible()).toBe(true);
      expect(await buttonsShown()).toBe(3);
    }
    await phone.screenshot({ path: path.join(dir, "tap-selects.png") });
    await older.getByRole("button", { name: "Star" }).tap();
    await expect.poll(() => older.getByRole("button", { name: "Unstar" }).count()).toBe(1);
    const flags = async () => (await server.as("hamlet").get(`/messages/${olderId}`)).body.message.flags as string[];
    expect(await flags()).toContain("starred");
    await older.getByRole("button", { name: "Unstar" }).tap();
    await expect.poll(() => older.getByRole("button", { name: "Star" }).count()).toBe(1);
    await expect.poll(flags).not.toContain("starred");

    // A tap on a link in a message opens it (in a new tab: the request is what shows it here).
    const requested: string[] = [];
    await context.route("https://example.com/**", (route) => (requested.push(route.request().url()), route.fulfill({ status: 204 })));
    await older.locator(".rendered a[href]").first().tap();
    await expect.poll(() => requested).toEqual(["https://example.com/a/very/long/link/that/does/not/break/anywhere/at/all/in/the/text"]);
    expect(phone.url()).toContain(`#narrow/channel/${denmarkId}-`);
  });

  it("left no console errors", () => {
    expect(people.errors).toEqual([]);
  });
});
