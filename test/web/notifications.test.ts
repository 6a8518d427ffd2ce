/**
 * Notifications in the browser (Debian's Chromium, notifications permission granted to the
 * context): a DM from Othello makes King Hamlet's page show a desktop notification and play the
 * notification sound; a message in a topic he muted does not, nor does his own message; the
 * unread count follows live in the page title and on the favicon; the browser's permission is
 * asked for only from a click. The server is the real one; only the page's Notification and
 * AudioContext are wrapped to record what the app does with them.
 */
import type { BrowserContext, Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { createStreams } from "../api/streams-helpers.js";
import type { TestServer } from "../harness/server.js";
import { NO_CHROMIUM, hasChromium, jsonCall, logIn, openPage } from "./browser.js";
import { twoPeople } from "./two-people.js";

if (!hasChromium) console.log(NO_CHROMIUM);

type Note = { title: string; body: string };
declare global {
  interface Window {
    notes: Note[];
    tones: number;
    permissionAsked: number;
  }
}

/** Runs in the page before the app: records notifications shown, tones played, permission requests. */
function recorder(): void {
  window.notes = [];
  window.tones = 0;
  window.permissionAsked = 0;
  const Real = window.Notification;
  class Recorded extends Real {
    constructor(title: string, options?: NotificationOptions) {
      super(title, options);
      window.notes.push({ title, body: options?.body ?? "" });
    }
  }
  Object.defineProperty(Recorded, "permission", { get: () => Real.permission });
  Recorded.requestPermission = (...args: Parameters<typeof Real.requestPermission>) => {
    window.permissionAsked++;
    return Real.requestPermission(...args);
  };
  window.Notification = Recorded;
  const make = AudioContext.prototype.createOscillator;
  AudioContext.prototype.createOscillator = function (this: AudioContext) {
    window.tones++;
    return make.call(this);
  };
}

describe.skipIf(!hasChromium)("notifications, the title and the favicon", () => {
  let denmarkId = 0;
  const people = twoPeople({
    context: { permissions: ["notifications"] },
    async prepare(server) {
      const created = await createStreams(server, "hamlet", ["Denmark"], { principals: [server.users.hamlet.id, server.users.othello.id] });
      denmarkId = created.Denmark ?? 0;
      const muted = await server.as("hamlet").post("/user_topics", { stream_id: denmarkId, topic: "quiet", visibility_policy: 1 });
      expect(muted.body).toEqual({ result: "success", msg: "" });
    },
  });
  let server: TestServer;
  let hamlet: Page;
  let othello: Page;
  let realmName = "";
  let plainIcon = "";

  const send = async (page: Page, params: Record<string, unknown>) => {
    const answer = await jsonCall(page, "POST", "messages", params);
    expect(answer.result).toBe("success");
    return Number(answer.id);
  };
  const notes = () => hamlet.evaluate(() => window.notes);
  const icon = () => hamlet.evaluate(() => document.querySelector<HTMLLinkElement>('link[rel="icon"]')?.href ?? "");

  beforeAll(async () => {
    ({ server, hamlet, othello } = people);
    realmName = String((await server.as("hamlet").post("/register", { fetch_event_types: ["realm"] })).body.realm_name);
    await people.contexts[0]!.addInitScript(recorder);
    await hamlet.reload();
    await hamlet.locator("nav.left").waitFor();
    plainIcon = await icon();
  });

  it("starts with the realm's name as the title, the plain favicon and no banner (permission granted)", async () => {
    await expect.poll(() => hamlet.title()).toBe(`Inbox - ${realmName}`);
    expect(plainIcon).toMatch(/\/static\/favicon-[0-9a-z]+\.svg$/);
    expect(await hamlet.evaluate(() => Notification.permission)).toBe("granted");
    expect(await hamlet.getByRole("region", { name: "Desktop notifications", exact: true }).count()).toBe(0);
    expect(await hamlet.evaluate(() => window.permissionAsked)).toBe(0);
  });

  it("a DM from the second person shows a notification, plays the sound and counts in the title and on the favicon", async () => {
    await send(othello, { type: "private", to: JSON.stringify([server.users.hamlet.id]), content: "Are you **there**, my lord?" });
    await expect.poll(notes).toEqual([{ title: "Othello, the Moor of Venice", body: "Are you there, my lord?" }]);
    expect(await hamlet.evaluate(() => window.tones)).toBe(2);
    await expect.poll(() => hamlet.title()).toBe(`(1) Inbox - ${realmName}`);
    await expect.poll(icon).toMatch(/^data:image\/png;base64,/);
    await people.shot(hamlet, "notifications-one-unread");
    // Another view is another title, and the same count: the badge is not drawn again.
    const badge = await icon();
    await hamlet.evaluate(() => {
      const scope = window as unknown as { drawn: number };
      scope.drawn = 0;
      const encode = HTMLCanvasElement.prototype.toDataURL;
      HTMLCanvasElement.prototype.toDataURL = function (this: HTMLCanvasElement, ...args: Parameters<typeof encode>) {
        scope.drawn++;
        return encode.apply(this, args);
      };
    });
    await hamlet.evaluate((hash) => (location.hash = hash), `#narrow/channel/${denmarkId}-Denmark`);
    await expect.poll(() => hamlet.title()).toBe(`(1) #Denmark - ${realmName}`);
    await hamlet.evaluate(() => (location.hash = "#inbox"));
    await expect.poll(() => hamlet.title()).toBe(`(1) Inbox - ${realmName}`);
    expect(await hamlet.evaluate(() => (window as unknown as { drawn: number }).drawn)).toBe(0);
    expect(await icon()).toBe(badge);
  });

  it("a message in a muted topic neither notifies nor counts; a channel mention does both", async () => {
    await send(othello, { type: "stream", to: denmarkId, topic: "quiet", content: "Nothing to see." });
    await send(othello, { type: "stream", to: denmarkId, topic: "castle", content: "@**King Hamlet** the ghost walks." });
    await expect.poll(notes).toHaveLength(2);
    expect((await notes())[1]).toEqual({ title: "Othello, the Moor of Venice (#Denmark > castle)", body: "@King Hamlet the ghost walks." });
    await expect.poll(() => hamlet.title()).toBe(`(2) Inbox - ${realmName}`);
  });

  it("one's own message does not notify; the count follows desktop_icon_count_display live", async () => {
    await send(hamlet, { type: "stream", to: denmarkId, topic: "castle", content: "I will watch tonight." });
    await send(othello, { type: "stream", to: denmarkId, topic: "walls", content: "A plain message." });
    await expect.poll(() => hamlet.title()).toBe(`(3) Inbox - ${realmName}`);
    expect(await notes()).toHaveLength(2);
    // DMs and mentions only: the plain channel message no longer counts.
    expect((await server.as("hamlet").patch("/settings", { desktop_icon_count_display: 3 })).body).toMatchObject({ result: "success" });
    await expect.poll(() => hamlet.title()).toBe(`(2) Inbox - ${realmName}`);
    expect((await server.as("hamlet").patch("/settings", { desktop_icon_count_display: 4 })).body).toMatchObject({ result: "success" });
    await expect.poll(() => hamlet.title()).toBe(`Inbox - ${realmName}`);
    await expect.poll(icon).toBe(plainIcon);
    expect((await server.as("hamlet").patch("/settings", { desktop_icon_count_display: 1 })).body).toMatchObject({ result: "success" });
    await expect.poll(() => hamlet.title()).toBe(`(3) Inbox - ${realmName}`);
  });

  it("desktop notifications and sounds off: no notification, no sound; reading everything clears the title and the favicon", async () => {
    expect((await server.as("hamlet").patch("/settings", { enable_desktop_notifications: false, enable_sounds: false })).body).toMatchObject({ result: "success" });
    await expect.poll(() => hamlet.evaluate(() => document.querySelector(".app") !== null)).toBe(true);
    const tones = await hamlet.evaluate(() => window.tones);
    await send(othello, { type: "private", to: JSON.stringify([server.users.hamlet.id]), content: "Quietly now." });
    await expect.poll(() => hamlet.title()).toBe(`(4) Inbox - ${realmName}`);
    expect(await notes()).toHaveLength(2);
    expect(await hamlet.evaluate(() => window.tones)).toBe(tones);
    expect((await server.as("hamlet").post("/mark_all_as_read")).body).toMatchObject({ result: "success" });
    await expect.poll(() => hamlet.title()).toBe(`Inbox - ${realmName}`);
    await expect.poll(icon).toBe(plainIcon);
  });

  it("notification settings: the sound is chosen and played, the count display chosen, both reach the API", async () => {
    await hamlet.evaluate(() => (location.hash = "#settings/notifications"));
    await hamlet.getByText("This browser shows desktop notifications.").waitFor();
    await hamlet.getByLabel("Notification sound").selectOption("ding");
    await expect.poll(async () => (await server.as("hamlet").post("/register", { fetch_event_types: ["user_settings"] })).body.user_settings?.notification_sound).toBe("ding");
    const tones = await hamlet.evaluate(() => window.tones);
    await hamlet.getByRole("button", { name: "Play the notification sound" }).click();
    await expect.poll(() => hamlet.evaluate(() => window.tones)).toBe(tones + 1);
    await hamlet.getByLabel("Unread count in the title and icon").selectOption("2");
    await expect.poll(async () => (await server.as("hamlet").post("/register", { fetch_event_types: ["user_settings"] })).body.user_settings?.desktop_icon_count_display).toBe(2);
    await people.shot(hamlet, "notifications-settings");
  });

  it("without permission, a dismissible banner offers notifications and the browser is asked only on a click", async () => {
    const context: BrowserContext = await people.browser.newContext({ viewport: { width: 1400, height: 1024 } });
    people.contexts.push(context);
    await context.addInitScript(recorder);
    const page = await openPage(context, people.errors);
    await logIn(page, server.url, server.users.othello.delivery_email, server.password);
    const banner = page.getByRole("region", { name: "Desktop notifications", exact: true });
    await banner.waitFor();
    expect(await page.evaluate(() => [Notification.permission, window.permissionAsked])).toEqual(["default", 0]);
    await page.evaluate(() => (location.hash = "#settings/notifications"));
    await page.getByRole("button", { name: "Allow desktop notifications in this browser" }).click();
    await expect.poll(() => page.evaluate(() => window.permissionAsked)).toBe(1);
    await banner.getByRole("button", { name: "Not now" }).click();
    await expect.poll(() => banner.count()).toBe(0);
    await page.evaluate(() => (location.hash = "#inbox"));
    await page.reload();
    await page.locator("nav.left").waitFor();
    expect(await banner.count()).toBe(0);
  });

  it("left no console errors", () => {
    expect(people.errors).toEqual([]);
  });
});
