/**
 * Settings in the browser (Debian's Chromium): King Hamlet changes his settings in one browser
 * context and sees each change reported by the API and drawn in his second context without a
 * reload; Iago (an administrator) runs the organisation; a member is refused the same actions in
 * the page and by the server. Screenshots at 1400x1024 and 360x740; no console errors.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { deflateSync } from "node:zlib";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildWeb } from "../../web/build.js";
import { createStreams } from "../api/streams-helpers.js";
import { startServer, type TestServer } from "../harness/server.js";
import { NO_CHROMIUM, hasChromium, jsonCall, launch, logIn, openPage, screenshotDir } from "./browser.js";

if (!hasChromium) console.log(NO_CHROMIUM);

/** A one-colour 8x8 PNG, built here (no file brought from elsewhere). */
function png(r: number, g: number, b: number): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const byte of buf) c = (crcTable[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([len, body, sum]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(8, 0);
  ihdr.writeUInt32BE(8, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.concat(Array.from({ length: 8 }, () => Buffer.from([0, ...Array.from({ length: 8 }, () => [r, g, b]).flat()])));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk("IHDR", ihdr), chunk("IDAT", deflateSync(rows)), chunk("IEND", Buffer.alloc(0))]);
}

describe.skipIf(!hasChromium)("settings and administration in the browser", () => {
  let server: TestServer;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  let a: Page; // King Hamlet, where he changes things
  let b: Page; // King Hamlet's second browser, which must follow
  let iago: Page;
  const errors: string[] = [];
  /** Refusals the tests cause on purpose (the page records every HTTP error). */
  const expected: string[] = [];
  const webDir = mkdtempSync(path.join(tmpdir(), "rookery-web-settings-"));
  const shots = screenshotDir();
  let denmarkId = 0;

  const go = async (page: Page, hash: string) => {
    await page.evaluate((h) => (location.hash = h), hash);
    await page.locator(".settings-main").waitFor();
  };
  const register = async (page: Page, types: string[]) => jsonCall(page, "POST", "register", { fetch_event_types: types });
  const get = (page: Page, url: string) => page.evaluate(async (u) => (await (await fetch(`/json/${u}`)).json()) as Record<string, unknown>, url);
  const both = (page: Page, name: string) => async () => {
    await page.screenshot({ path: path.join(shots, `settings-${name}.png`) });
    await page.setViewportSize({ width: 360, height: 740 });
    await page.screenshot({ path: path.join(shots, `settings-${name}-phone.png`) });
    await page.setViewportSize({ width: 1400, height: 1024 });
  };

  beforeAll(async () => {
    await buildWeb(webDir);
    server = await startServer({ webDir });
    const created = await createStreams(server, "iago", ["Denmark"], { description: "The royal channel", principals: [server.users.hamlet.id, server.users.iago.id] });
    denmarkId = created.Denmark ?? 0;
    browser = await launch();
    for (let i = 0; i < 3; i++) contexts.push(await browser.newContext({ viewport: { width: 1400, height: 1024 }, timezoneId: "Europe/Copenhagen" }));
    a = await openPage(contexts[0]!, errors);
    b = await openPage(contexts[1]!, errors);
    iago = await openPage(contexts[2]!, errors);
    await logIn(a, server.url, server.users.hamlet.delivery_email, server.password);
    await logIn(b, server.url, server.users.hamlet.delivery_email, server.password);
    await logIn(iago, server.url, server.users.iago.delivery_email, server.password);
  }, 90000);

  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await server?.stop();
    rmSync(webDir, { recursive: true, force: true });
    console.log(`screenshots of the settings: ${shots}`);
  });

  it("opens from the gear, lazily", async () => {
    await a.getByRole("link", { name: "Settings" }).click();
    await a.getByRole("heading", { name: "Profile", level: 2 }).waitFor();
    expect(a.url()).toContain("#settings/profile");
    // A member sees no organisation menu.
    expect(await a.getByRole("navigation", { name: "Settings sections" }).getByText("Organization settings").count()).toBe(0);
    // Escape goes back to the messages; the gear is reachable again from the keyboard.
    await a.keyboard.press("Escape");
    await expect.poll(() => a.url()).toContain("#inbox");
    await a.getByRole("link", { name: "Settings" }).focus();
    await a.keyboard.press("Enter");
    await a.getByRole("heading", { name: "Profile", level: 2 }).waitFor();
  });

  it("preferences: theme, Enter-to-send, time zone and emoji set reach the API and the other browser", async () => {
    await go(a, "#settings/preferences");
    await go(b, "#settings/preferences");
    await a.getByLabel("Color scheme").selectOption({ label: "Dark" });
    await a.getByText("Saved").first().waitFor();
    expect((await register(a, ["user_settings"])).user_settings).toMatchObject({ color_scheme: 2 });
    await expect.poll(() => b.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(true);
    await expect.poll(() => b.getByLabel("Color scheme").inputValue()).toBe("2");
    await both(a, "preferences-dark")();

    await a.getByLabel("Enter sends the message").check();
    await expect.poll(async () => ((await register(a, ["user_settings"])).user_settings as Record<string, unknown>).enter_sends).toBe(true);
    await expect.poll(() => b.getByLabel("Enter sends the message").isChecked()).toBe(true);

    await a.getByLabel("Time zone").selectOption("Asia/Tokyo");
    await expect.poll(async () => ((await register(a, ["user_settings"])).user_settings as Record<string, unknown>).timezone).toBe("Asia/Tokyo");
    await expect.poll(() => b.getByLabel("Time zone").inputValue()).toBe("Asia/Tokyo");

    await a.getByLabel("Emoji set").selectOption("twitter");
    await expect.poll(async () => ((await register(a, ["user_settings"])).user_settings as Record<string, unknown>).emojiset).toBe("twitter");
    await expect.poll(() => b.getByLabel("Emoji set").inputValue()).toBe("twitter");

    await a.getByLabel("Color scheme").selectOption({ label: "Light" });
    await expect.poll(() => b.evaluate(() => document.documentElement.classList.contains("light"))).toBe(true);
  });

  it("notifications: each toggle is saved and followed", async () => {
    await go(a, "#settings/notifications");
    await go(b, "#settings/notifications");
    const dm = a.getByRole("region", { name: "Direct messages, mentions and alert words" });
    await dm.getByLabel("Audible desktop notifications").uncheck();
    await expect.poll(async () => ((await register(a, ["user_settings"])).user_settings as Record<string, unknown>).enable_sounds).toBe(false);
    await expect.poll(() => b.getByRole("region", { name: "Direct messages, mentions and alert words" }).getByLabel("Audible desktop notifications").isChecked()).toBe(false);
    await a.getByRole("region", { name: "Followed topics" }).getByLabel("Email notifications").check();
    await expect.poll(async () => ((await register(a, ["user_settings"])).user_settings as Record<string, unknown>).enable_followed_topic_email_notifications).toBe(true);
    await expect.poll(() => b.getByRole("region", { name: "Followed topics" }).getByLabel("Email notifications").isChecked()).toBe(true);
  });

  it("profile: name, avatar upload and removal, custom profile fields", async () => {
    const field = await jsonCall(iago, "POST", "realm/profile_fields", { name: "Castle", field_type: 1, hint: "" });
    expect(field.result).toBe("success");
    await go(a, "#settings/profile");
    await go(b, "#settings/profile");
    await a.getByLabel("Castle").waitFor();

    await a.getByLabel("Name", { exact: true }).fill("Prince Hamlet");
    await a.getByRole("region", { name: "Your name" }).getByRole("button", { name: "Save" }).click();
    await expect.poll(async () => ((await get(a, "users/me")) as { full_name: string }).full_name).toBe("Prince Hamlet");
    await expect.poll(() => b.getByLabel("Name", { exact: true }).inputValue()).toBe("Prince Hamlet");

    await a.getByLabel("Name", { exact: true }).fill("");
    await a.getByRole("region", { name: "Your name" }).getByRole("button", { name: "Save" }).click();
    await a.getByRole("alert").filter({ hasText: "Name must not be empty!" }).waitFor();
    expected.push("PATCH /json/settings: 400");

    await a.getByLabel("Castle").fill("Elsinore");
    await a.locator(`section.settings-section[aria-label="Profile"]`).getByRole("button", { name: "Save" }).click();
    await expect.poll(async () => ((await get(a, "users/me?include_custom_profile_fields=true")) as { profile_data?: Record<string, { value: string }> }).profile_data?.[String(field.id)]?.value).toBe("Elsinore");
    await expect.poll(() => b.getByLabel("Castle").inputValue()).toBe("Elsinore");

    await a.getByLabel("Upload new avatar").setInputFiles({ name: "me.png", mimeType: "image/png", buffer: png(200, 40, 40) });
    await a.getByText("Avatar updated").waitFor();
    const uploaded = String(((await get(a, "users/me")) as { avatar_url: string }).avatar_url);
    expect(uploaded).toContain("/user_avatars/");
    await expect.poll(() => b.locator(".avatar-row img.avatar").getAttribute("src")).toBe(uploaded);
    await both(a, "profile")();

    await a.getByRole("button", { name: "Remove avatar" }).click();
    await a.getByText("Avatar removed").waitFor();
    expect(String(((await get(a, "users/me")) as { avatar_url: string }).avatar_url)).not.toContain("/user_avatars/");
    await expect.poll(() => b.locator(".avatar-row img.avatar").count()).toBe(0);
  }, 60000);

  it("account: a wrong current password is refused with the server's message", async () => {
    await go(a, "#settings/account-and-privacy");
    await a.getByLabel("Current password").fill("not the password");
    await a.getByLabel("New password", { exact: true }).fill("a brand new password 42");
    await a.getByRole("button", { name: "Change password" }).click();
    await a.getByRole("alert").filter({ hasText: "Wrong password!" }).waitFor();
    expected.push("PATCH /json/settings: 400");
  });

  it("alert words, muted users and status", async () => {
    await go(a, "#settings/alert-words");
    await go(b, "#settings/alert-words");
    await a.getByLabel("New alert word").fill("ghost");
    await a.getByRole("button", { name: "Add alert word" }).click();
    await expect.poll(async () => (await get(a, "users/me/alert_words")).alert_words).toEqual(["ghost"]);
    await b.getByRole("button", { name: "Remove ghost" }).waitFor();
    await a.getByRole("button", { name: "Remove ghost" }).click();
    await expect.poll(async () => (await get(a, "users/me/alert_words")).alert_words).toEqual([]);
    await expect.poll(() => b.getByRole("button", { name: "Remove ghost" }).count()).toBe(0);

    await go(a, "#settings/muted-users");
    await go(b, "#settings/muted-users");
    await a.getByLabel("Mute a user").selectOption({ label: "Othello, the Moor of Venice" });
    await expect.poll(async () => ((await register(a, ["muted_users"])).muted_users as { id: number }[]).map((m) => m.id)).toEqual([server.users.othello.id]);
    await b.getByRole("button", { name: "Unmute Othello, the Moor of Venice" }).click();
    await expect.poll(async () => (await register(a, ["muted_users"])).muted_users).toEqual([]);
    await expect.poll(() => a.getByText("You have not muted anyone.").count()).toBe(1);

    await go(a, "#settings/status");
    await go(b, "#settings/status");
    await a.getByLabel("Status message").fill("Thinking");
    await a.getByRole("region", { name: "Status" }).getByRole("button", { name: "Save" }).first().click();
    await expect.poll(async () => ((await get(a, `users/${server.users.hamlet.id}/status`)).status as Record<string, unknown>)?.status_text).toBe("Thinking");
    await expect.poll(() => b.getByLabel("Status message").inputValue()).toBe("Thinking");
    await a.getByLabel("Status emoji name").fill("octopus");
    await a.getByRole("region", { name: "Status" }).getByRole("button", { name: "Save" }).nth(1).click();
    await expect.poll(async () => ((await get(a, `users/${server.users.hamlet.id}/status`)).status as Record<string, unknown>)?.emoji_name).toBe("octopus");
    await expect.poll(() => b.getByLabel("Status emoji name").inputValue()).toBe("octopus");
    await a.getByLabel("Status emoji name").fill("no_such_emoji");
    await a.getByRole("region", { name: "Status" }).getByRole("button", { name: "Save" }).nth(1).click();
    await a.getByRole("alert").filter({ hasText: "Emoji 'no_such_emoji' does not exist" }).waitFor();
    expected.push("POST /json/users/me/status: 400");
    await a.getByLabel("Set yourself as away").check();
    await expect.poll(() => b.getByLabel("Set yourself as away").isChecked()).toBe(true);
  });

  it("channel settings: color, pin, mute, notifications; the channel's own settings only for administrators", async () => {
    await go(a, `#settings/channels/${denmarkId}`);
    await go(b, `#settings/channels/${denmarkId}`);
    await a.getByLabel("Channel color").fill("#aa3355");
    await a.getByLabel("Channel color").dispatchEvent("change");
    const subOf = async () => ((await get(a, "users/me/subscriptions")).subscriptions as Record<string, unknown>[]).find((s) => s.stream_id === denmarkId) ?? {};
    await expect.poll(async () => (await subOf()).color).toBe("#aa3355");
    await expect.poll(() => b.getByLabel("Channel color").inputValue()).toBe("#aa3355");
    await a.getByLabel("Pin channel to top").check();
    await expect.poll(async () => (await subOf()).pin_to_top).toBe(true);
    await expect.poll(() => b.getByLabel("Pin channel to top").isChecked()).toBe(true);
    await a.getByLabel("Mute channel").check();
    await expect.poll(async () => (await subOf()).is_muted).toBe(true);
    await expect.poll(() => b.getByLabel("Mute channel").isChecked()).toBe(true);
    await a.getByRole("region", { name: "Personal settings" }).getByLabel("Email notifications").check();
    await expect.poll(async () => (await subOf()).email_notifications).toBe(true);

    // A member has no channel-settings form, and the server refuses him.
    expect(await a.getByRole("region", { name: "Channel settings" }).count()).toBe(0);
    const refused = await jsonCall(a, "PATCH", `streams/${denmarkId}`, { description: "Mine now" });
    expect(refused).toEqual({ result: "error", code: "UNAUTHORIZED_PRINCIPAL", msg: "Must be an organization administrator" });
    expected.push(`PATCH /json/streams/${denmarkId}: 400`);

    // The administrator renames it and rewrites its description; Hamlet's page follows.
    await go(iago, `#settings/channels/${denmarkId}`);
    await iago.getByLabel("Channel name").fill("Elsinore");
    await iago.getByRole("region", { name: "Channel settings" }).getByRole("button", { name: "Save" }).first().click();
    await expect.poll(() => a.locator(".channel-title").textContent()).toContain("Elsinore");
    await iago.getByLabel("Who can post to the channel").selectOption({ label: "Administrators only" });
    await expect.poll(async () => ((await get(iago, `streams/${denmarkId}`)).stream as Record<string, unknown>).stream_post_policy).toBe(2);
    await both(iago, "channel")();

    await a.getByRole("button", { name: "Leave channel" }).click();
    await expect.poll(async () => (await subOf()).stream_id).toBeUndefined();
    await b.getByText("You are not subscribed to this channel.").waitFor();
  }, 60000);

  it("organisation: users, roles, deactivation, invitations, profile, settings, linkifiers; refused to a member", async () => {
    await go(a, "#organization/users");
    await a.getByRole("alert").filter({ hasText: "Only organization administrators can change these settings." }).waitFor();
    expect(await a.locator(".settings-table").count()).toBe(0);

    await go(iago, "#organization/users");
    await iago.getByLabel("Search users").fill("othel");
    await expect.poll(() => iago.locator(".settings-table tbody tr").count()).toBe(1);
    await iago.getByLabel("Role of Othello, the Moor of Venice").selectOption({ label: "Moderator" });
    await expect.poll(async () => ((await get(iago, `users/${server.users.othello.id}`)).user as Record<string, unknown>).role).toBe(300);
    // Only an owner makes owners: the administrator sees the server's refusal, and the role stays.
    await iago.getByLabel("Role of Othello, the Moor of Venice").selectOption({ label: "Owner" });
    await iago.getByRole("alert").filter({ hasText: "Must be an organization owner" }).waitFor();
    expected.push(`PATCH /json/users/${server.users.othello.id}: 400`);
    expect(await iago.getByLabel("Role of Othello, the Moor of Venice").inputValue()).toBe("300");
    await iago.getByLabel("Search users").fill("");
    await both(iago, "users")();

    const othelloId = server.users.othello.id;
    const roleRefused = await jsonCall(a, "PATCH", `users/${othelloId}`, { role: 400 });
    expect(roleRefused).toMatchObject({ result: "error", msg: "Insufficient permission" });
    expected.push(`PATCH /json/users/${othelloId}: 400`);
    const deactivateRefused = await jsonCall(a, "DELETE", `users/${server.users.cordelia.id}`, {});
    expect(deactivateRefused).toMatchObject({ result: "error", msg: "Insufficient permission" });
    expected.push(`DELETE /json/users/${server.users.cordelia.id}: 400`);

    await iago.getByRole("button", { name: "Deactivate Cordelia, Lear's daughter" }).click();
    await expect.poll(async () => ((await get(iago, `users/${server.users.cordelia.id}`)).user as Record<string, unknown>).is_active).toBe(false);
    await go(iago, "#organization/deactivated");
    await iago.getByRole("button", { name: "Reactivate Cordelia, Lear's daughter" }).click();
    await expect.poll(async () => ((await get(iago, `users/${server.users.cordelia.id}`)).user as Record<string, unknown>).is_active).toBe(true);

    await go(iago, "#organization/invites");
    await iago.getByLabel("Emails (one per line or separated by commas)").fill("horatio@zulip.com");
    await iago.getByRole("button", { name: "Invite", exact: true }).click();
    await iago.getByRole("button", { name: "Revoke horatio@zulip.com" }).waitFor();
    expect(((await get(iago, "invites")).invites as Record<string, unknown>[]).map((i) => i.email)).toContain("horatio@zulip.com");
    await iago.getByRole("button", { name: "Generate invite link" }).click();
    expect(await iago.getByLabel("Invitation link").inputValue()).toContain("/join/");
    await both(iago, "invites")();

    await go(iago, "#organization/organization-profile");
    await iago.getByLabel("Organization name").fill("Elsinore Castle");
    await iago.getByRole("region", { name: "Organization profile" }).getByRole("button", { name: "Save" }).first().click();
    await expect.poll(() => b.locator(".brand").textContent()).toBe("Elsinore Castle");
    await iago.getByLabel("Upload icon").setInputFiles({ name: "icon.png", mimeType: "image/png", buffer: png(20, 90, 200) });
    await iago.getByRole("img", { name: "Organization icon" }).waitFor();
    expect((await register(a, ["realm"])).realm_icon_source).toBe("U");
    await iago.getByLabel("Upload logo").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: png(200, 90, 20) });
    await iago.getByRole("img", { name: "Organization logo" }).waitFor();
    expect(String((await register(a, ["realm"])).realm_logo_url)).toContain("/user_avatars/");
    const realmRefused = await jsonCall(a, "PATCH", "realm", { name: "Hamlet's" });
    expect(realmRefused).toMatchObject({ result: "error", msg: "Must be an organization administrator" });
    expected.push("PATCH /json/realm: 400");

    await go(iago, "#organization/organization-settings");
    await iago.getByLabel("Require topics in channel messages").check();
    await expect.poll(async () => ((await register(a, ["realm"])).realm_mandatory_topics)).toBe(true);
    await both(iago, "organization-settings")();

    await go(iago, "#organization/linkifier-settings");
    await iago.getByLabel("Pattern").fill("#(?P<id>[0-9]+)");
    await iago.getByLabel("URL template").fill("https://example.com/ticket/{id}");
    await iago.getByRole("button", { name: "Add linkifier" }).click();
    await iago.getByRole("button", { name: "Delete linkifier #(?P<id>[0-9]+)" }).waitFor();
    const linkRefused = await jsonCall(a, "POST", "realm/filters", { pattern: "x(?P<id>[0-9]+)", url_template: "https://example.com/{id}" });
    expect(linkRefused).toMatchObject({ result: "error", msg: "Must be an organization administrator" });
    expected.push("POST /json/realm/filters: 400");
  }, 90000);

  it("account: an email change waits for the confirmation link", async () => {
    await go(a, "#settings/account-and-privacy");
    await a.getByRole("textbox", { name: "Email", exact: true }).fill("prince@zulip.com");
    await a.getByRole("button", { name: "Change email" }).click();
    await a.getByText("Check your email (prince@zulip.com) to confirm the new address.").waitFor();
    expect(((await get(a, "users/me")) as { delivery_email?: string; email: string }).delivery_email ?? "").toBe(server.users.hamlet.delivery_email);
  });

  it("channel administration: privacy, subscribers and archiving, followed in a member's browser", async () => {
    const id = (await createStreams(server, "iago", ["Wittenberg"], { principals: [server.users.hamlet.id, server.users.iago.id] })).Wittenberg ?? 0;
    await go(b, "#settings/channels");
    await b.locator(".settings-main").getByRole("link", { name: "Wittenberg" }).waitFor();
    await go(iago, `#settings/channels/${id}`);
    await iago.getByLabel("Who can access the channel").selectOption({ label: "Private, shared history" });
    await expect.poll(async () => (await get(iago, `streams/${id}`)).stream).toMatchObject({ invite_only: true, history_public_to_subscribers: true });
    await expect.poll(() => b.locator(".settings-main").getByRole("listitem").filter({ hasText: "Wittenberg" }).textContent()).toContain("Private");

    await iago.getByLabel("Add subscriber").selectOption({ label: "Othello, the Moor of Venice" });
    await expect.poll(async () => (await get(iago, `streams/${id}/members`)).subscribers).toContain(server.users.othello.id);
    await iago.getByRole("button", { name: "Unsubscribe Othello, the Moor of Venice" }).click();
    await expect.poll(async () => (await get(iago, `streams/${id}/members`)).subscribers).not.toContain(server.users.othello.id);

    iago.once("dialog", (d) => void d.accept());
    await iago.getByRole("button", { name: "Archive channel" }).click();
    await expect.poll(async () => (await get(iago, `streams/${id}`)).result).toBe("error");
    expected.push(`GET /json/streams/${id}: 400`);
    await expect.poll(() => b.locator(".settings-main").getByRole("link", { name: "Wittenberg" }).count()).toBe(0);
  });

  it("organisation lists: user groups, custom emoji, code playgrounds, default channels, permissions", async () => {
    await go(iago, "#organization/user-groups");
    const players = async () => ((await get(iago, "user_groups")).user_groups as { name: string; description: string; members: number[] }[]).find((g) => g.name === "players");
    await iago.getByLabel("Group name").fill("players");
    await iago.getByLabel("Group description").fill("The travelling players");
    await iago.getByRole("button", { name: "Create user group" }).click();
    await iago.getByRole("heading", { name: "players" }).waitFor();
    const description = iago.locator("form", { has: iago.getByLabel("Description of players") });
    await description.getByLabel("Description of players").fill("The tragedians of the city");
    await expect.poll(() => description.getByLabel("Description of players").inputValue()).toBe("The tragedians of the city");
    await description.getByRole("button", { name: "Save" }).click();
    await description.getByRole("status").filter({ hasText: "Saved" }).waitFor();
    await expect.poll(async () => (await players())?.description).toBe("The tragedians of the city");
    await iago.getByLabel("Add a member to players").selectOption({ label: "Othello, the Moor of Venice" });
    await expect.poll(async () => (await players())?.members.sort()).toEqual([server.users.iago.id, server.users.othello.id].sort());

    await go(iago, "#organization/emoji-settings");
    await iago.getByLabel("Emoji name").fill("crown");
    await iago.getByLabel("Emoji image").setInputFiles({ name: "crown.png", mimeType: "image/png", buffer: png(230, 190, 20) });
    await iago.getByRole("button", { name: "Add emoji" }).click();
    await iago.getByRole("button", { name: "Delete :crown:" }).waitFor();
    expect(Object.values((await get(iago, "realm/emoji")).emoji as Record<string, { name: string }>).map((e) => e.name)).toContain("crown");

    await go(iago, "#organization/playground-settings");
    await iago.getByLabel("Language").fill("Python");
    await iago.getByLabel("Name").fill("Python online");
    await iago.getByLabel("URL template").fill("https://python.example.com/?code={code}");
    await iago.getByRole("button", { name: "Add code playground" }).click();
    await iago.getByRole("button", { name: "Delete playground Python online" }).waitFor();
    expect((await register(a, ["realm_playgrounds"])).realm_playgrounds).toMatchObject([{ name: "Python online", pygments_language: "Python", url_template: "https://python.example.com/?code={code}" }]);
    const playgroundRefused = await jsonCall(a, "POST", "realm/playgrounds", { name: "Mine", pygments_language: "Python", url_template: "https://x.example.com/{code}" });
    expect(playgroundRefused).toMatchObject({ result: "error", msg: "Must be an organization administrator" });
    expected.push("POST /json/realm/playgrounds: 400");

    await go(iago, "#organization/default-channels-list");
    await iago.getByLabel("Add a default channel").selectOption({ label: "Elsinore" });
    await iago.getByRole("button", { name: "Remove Elsinore" }).waitFor();
    expect(((await register(a, ["default_streams"])).realm_default_streams as { stream_id: number }[]).map((d) => d.stream_id)).toEqual([denmarkId]);
    const defaultRefused = await jsonCall(a, "POST", "default_streams", { stream_id: denmarkId });
    expect(defaultRefused).toMatchObject({ result: "error", msg: "Must be an organization administrator" });
    expected.push("POST /json/default_streams: 400");

    await go(iago, "#organization/organization-permissions");
    // Only owners choose who may invite: the administrator is told so, as the server says it.
    await iago.getByLabel("Who can invite users to this organization").selectOption({ label: "Administrators" });
    await iago.getByRole("alert").filter({ hasText: "Must be an organization owner" }).waitFor();
    expected.push("PATCH /json/realm: 400");
    expect(await iago.getByLabel("Who can invite users to this organization").inputValue()).toBe("1");
    await iago.getByLabel("Who can add users to channels").selectOption({ label: "Administrators" });
    await expect.poll(async () => (await register(a, ["realm"])).realm_invite_to_stream_policy).toBe(2);
    const subscribeRefused = await jsonCall(a, "POST", "users/me/subscriptions", { subscriptions: [{ name: "Elsinore" }], principals: [server.users.othello.id] });
    expect(subscribeRefused).toMatchObject({ result: "error", msg: "Insufficient permission" });
    expected.push("POST /json/users/me/subscriptions: 400");
    await both(iago, "permissions")();
  }, 60000);

  it("drew no console errors beyond the refusals made on purpose", () => {
    const left = [...errors];
    for (const e of expected) {
      const i = left.indexOf(e);
      if (i >= 0) left.splice(i, 1);
    }
    // Chromium reports each refused fetch a second time as a console error naming the status.
    expect(left.filter((e) => !/Failed to load resource: the server responded with a status of 400/.test(e))).toEqual([]);
  });
});
