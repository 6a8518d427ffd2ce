/**
 * axe-core on every view of the web app (Debian's Chromium), in the light and the dark colour
 * scheme: Iago (an administrator, who sees every settings and administration section) opens each
 * view and axe reports no violation. axe's source is evaluated in the page through the browser's
 * debugging protocol (page.evaluate), which the page's CSP (script-src 'self', no inline script)
 * does not govern, so the CSP stays as the server sends it.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildWeb } from "../../web/build.js";
import { createStreams } from "../api/streams-helpers.js";
import { startServer, type TestServer } from "../harness/server.js";
import { NO_CHROMIUM, hasChromium, launch, logIn, openPage } from "./browser.js";

if (!hasChromium) console.log(NO_CHROMIUM);

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

type Violation = { id: string; help: string; nodes: { target: string[]; failureSummary?: string }[] };
declare global {
  interface Window {
    axe?: { run(context: Document, options: Record<string, unknown>): Promise<{ violations: Violation[] }> };
  }
}

const personal = ["profile", "account-and-privacy", "preferences", "notifications", "status", "alert-words", "muted-users", "your-bots", "channels"];
const organization = [
  "organization-profile",
  "organization-settings",
  "organization-permissions",
  "users",
  "deactivated",
  "bots",
  "invites",
  "user-groups",
  "emoji-settings",
  "profile-field-settings",
  "linkifier-settings",
  "playground-settings",
  "default-channels-list",
];

describe.skipIf(!hasChromium)("axe-core on every view, light and dark", () => {
  let server: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const errors: string[] = [];
  const webDir = mkdtempSync(path.join(tmpdir(), "rookery-web-a11y-"));
  let denmarkId = 0;
  let views: [string, string][] = [];

  /** axe's violations on the page as it is now, one line per element. */
  const check = async (): Promise<string[]> => {
    if (!(await page.evaluate(() => window.axe !== undefined))) await page.evaluate(axeSource);
    const { violations } = await page.evaluate(() => window.axe!.run(document, { resultTypes: ["violations"] }));
    return violations.flatMap((v) => v.nodes.map((n) => `${v.id} (${v.help}) at ${n.target.join(" ")}: ${n.failureSummary ?? ""}`));
  };
  /** Opens a view and waits until nothing in it is still loading. */
  const open = async (hash: string) => {
    await page.evaluate((h) => (location.hash = h), hash);
    await page.locator("main.middle").waitFor();
    await expect.poll(() => page.locator("main.middle").getByText("Loading…").count()).toBe(0);
    await page.waitForTimeout(150);
  };

  beforeAll(async () => {
    await buildWeb(webDir);
    server = await startServer({ webDir });
    const { hamlet, othello, iago } = server.users;
    denmarkId = (await createStreams(server, "iago", ["Denmark"], { description: "The **royal** channel", principals: [hamlet.id, othello.id, iago.id] })).Denmark ?? 0;
    const say = async (who: "hamlet" | "othello" | "iago", params: Record<string, string>) => expect((await server.as(who).post("/messages", params)).body).toMatchObject({ result: "success" });
    await say("hamlet", { type: "stream", to: String(denmarkId), topic: "castle", content: "Who's there? @**Iago** look:\n```js\nconst ghost = true;\n```" });
    await say("othello", { type: "stream", to: String(denmarkId), topic: "castle", content: "> Stand and unfold yourself.\n\n* one\n* two [a link](https://example.com)" });
    await say("othello", { type: "private", to: JSON.stringify([iago.id]), content: "A word in private, Iago." });
    await say("iago", { type: "stream", to: String(denmarkId), topic: "walls", content: "All quiet." });
    views = [
      ["inbox", "#inbox"],
      ["recent", "#recent"],
      ["combined-feed", "#feed"],
      ["channel", `#narrow/channel/${denmarkId}-Denmark`],
      ["topic", `#narrow/channel/${denmarkId}-Denmark/topic/castle`],
      ["dms", `#narrow/dm/${othello.id}-Othello`],
      ["search", "#narrow/search/ghost"],
      ["channel-browser", "#channels"],
      ["drafts", "#drafts"],
      ...personal.map((s): [string, string] => [`settings-${s}`, `#settings/${s}`]),
      ["settings-channel", `#settings/channels/${denmarkId}`],
      ...organization.map((s): [string, string] => [`organization-${s}`, `#organization/${s}`]),
    ];
    browser = await launch();
    context = await browser.newContext({ viewport: { width: 1400, height: 1024 }, timezoneId: "Europe/Copenhagen" });
    page = await openPage(context, errors);
    await logIn(page, server.url, iago.delivery_email, server.password);
  }, 90000);

  afterAll(async () => {
    await context?.close().catch(() => undefined);
    await browser?.close();
    await server?.stop();
    rmSync(webDir, { recursive: true, force: true });
  });

  for (const scheme of ["light", "dark"] as const) {
    it(`${scheme}: every view, the profile card, the open compose box and the keyboard help`, async () => {
      await page.emulateMedia({ colorScheme: scheme });
      await open("#inbox");
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe(scheme === "light" ? "rgb(255, 255, 255)" : "rgb(29, 31, 35)");
      const found: string[] = [];
      for (const [name, hash] of views) {
        await open(hash);
        for (const v of await check()) found.push(`${name}: ${v}`);
      }
      // Compose open, in a topic, with its preview.
      await open(`#narrow/channel/${denmarkId}-Denmark/topic/castle`);
      await page.getByRole("textbox", { name: "Message" }).fill("A *draft* reply");
      await page.getByRole("textbox", { name: "Message" }).focus();
      for (const v of await check()) found.push(`compose: ${v}`);
      await page.getByRole("textbox", { name: "Message" }).fill("");
      // The profile card.
      await page.locator(".right-sidebar .person", { hasText: "Othello" }).getByRole("button").click();
      await page.getByRole("dialog", { name: /Othello/ }).getByText("othello@zulip.com").waitFor();
      for (const v of await check()) found.push(`profile-card: ${v}`);
      await page.keyboard.press("Escape");
      await expect.poll(() => page.getByRole("dialog").count()).toBe(0);
      // The keyboard help (the ? key).
      await open("#inbox");
      await page.locator("body").press("?");
      await page.getByRole("dialog").getByLabel("Shortcut list").waitFor();
      for (const v of await check()) found.push(`keyboard-help: ${v}`);
      await page.keyboard.press("Escape");
      await expect.poll(() => page.getByRole("dialog").count()).toBe(0);
      expect(found).toEqual([]);
    }, 120000);
  }

  it("left no console errors", () => {
    expect(errors).toEqual([]);
  });
});
