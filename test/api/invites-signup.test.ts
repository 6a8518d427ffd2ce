import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, type Json } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { startSmtp, type TestSmtp } from "../harness/smtp.js";
import { checkAction } from "../events/check-action.js";

let server: TestServer;
let smtp: TestSmtp;
let verona: number;
let denmark: number;
beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({ smtpUrl: smtp.url });
  await server.as("iago").post("/users/me/subscriptions", { subscriptions: [{ name: "Verona" }, { name: "Denmark" }, { name: "Elsinore" }] });
  verona = (await server.as("iago").get("/get_stream_id", { stream: "Verona" })).body.stream_id;
  denmark = (await server.as("iago").get("/get_stream_id", { stream: "Denmark" })).body.stream_id;
  await server.as("iago").post("/default_streams", { stream_id: denmark });
});
afterAll(async () => {
  await server.stop();
  await smtp.stop();
});

/** The /join/<key>/ path in the last mail to `email` (quoted-printable soft breaks undone). */
function linkPathFor(email: string): string {
  const mail = [...smtp.mails].reverse().find((m) => m.to.includes(email));
  if (!mail) throw new Error(`no mail to ${email}`);
  const text = mail.raw.replace(/=\r?\n/g, "");
  const match = /https?:\/\/[^\s/]+(\/join\/[A-Za-z0-9]+\/)/.exec(text);
  if (!match?.[1]) throw new Error(`no link in mail: ${text}`);
  return match[1];
}

async function page(path: string, init: RequestInit = {}): Promise<{ status: number; text: string; type: string }> {
  // Not followed: a completed signup redirects into the app, signed in.
  const res = await fetch(server.url + path, { redirect: "manual", ...init });
  return { status: res.status, text: await res.text(), type: res.headers.get("content-type") ?? "" };
}

function form(fields: Record<string, string>, accept = "text/html"): RequestInit {
  return { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", accept }, body: new URLSearchParams(fields).toString() };
}

describe("invitation by email, end to end over SMTP", () => {
  it("mails a link whose page creates the account, which can then log in", async () => {
    const res = await server.as("hamlet").post("/invites", {
      invitee_emails: "newcomer@example.com",
      stream_ids: [verona],
      include_realm_default_subscriptions: true,
    });
    expect(res.status).toBe(200);
    const mail = smtp.mails.find((m) => m.to.includes("newcomer@example.com"));
    expect(mail?.raw).toContain("Subject: King Hamlet invited you to join Zulip Dev");
    const path = linkPathFor("newcomer@example.com");

    const shown = await page(path);
    expect(shown.status).toBe(200);
    expect(shown.type).toContain("text/html");
    expect(shown.text).toContain("newcomer@example.com");
    expect(shown.text).toContain('name="full_name"');

    // The browser is signed in and sent into the app (test/web/server/password-reset.test.ts follows it there).
    const done = await fetch(server.url + path, { ...form({ full_name: "New Comer", password: "correct horse battery" }), redirect: "manual" });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/");
    expect(done.headers.getSetCookie()[0]).toMatch(/^rookery_session=[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=1209600$/);

    const login = await server.anonymous().post("/fetch_api_key", { username: "newcomer@example.com", password: "correct horse battery" });
    expect(login.status).toBe(200);
    const me = new Client(server.url, { email: "newcomer@example.com", apiKey: login.body.api_key });
    const own = await me.get("/users/me");
    expect(own.body).toMatchObject({ full_name: "New Comer", role: 400, email: "newcomer@example.com" });
    const subs = await me.get("/users/me/subscriptions");
    expect(subs.body.subscriptions.map((s: Json) => s.name)).toEqual(["Denmark", "Verona"]);
    const invites = await server.as("hamlet").get("/invites");
    expect(invites.body.invites.map((i: Json) => i.email)).not.toContain("newcomer@example.com");

    const again = await page(path);
    expect(again.status).toBe(404);
    expect(again.text).toContain("This invitation has already been used.");
  });

  it("gives the invited role, only the listed channels, and revokes the address's other invitations", async () => {
    await server.as("iago").post("/invites", { invitee_emails: "mod@example.com", stream_ids: [], invite_as: 300 });
    const first = linkPathFor("mod@example.com");
    await server.as("hamlet").post("/invites", { invitee_emails: "mod@example.com", stream_ids: [verona] });
    const second = linkPathFor("mod@example.com");
    const created = await page(first, form({ full_name: "Moderator To Be", password: "secret-pw" }, "application/json"));
    expect(created.status).toBe(200);
    const body = JSON.parse(created.text);
    expect(body).toEqual({ result: "success", msg: "", user_id: expect.any(Number), email: "mod@example.com", api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
    const me = new Client(server.url, { email: "mod@example.com", apiKey: body.api_key });
    expect((await me.get("/users/me")).body.role).toBe(300);
    expect((await me.get("/users/me/subscriptions")).body.subscriptions).toEqual([]);
    expect((await page(second)).status).toBe(404);
  });

  it("sends realm_user add, system group membership and invites_changed", async () => {
    await server.as("hamlet").post("/invites", { invitee_emails: "watched@example.com", stream_ids: [] });
    const path = linkPathFor("watched@example.com");
    const events = await checkAction(server, "iago", () => page(path, form({ full_name: "Watched", password: "secret-pw" })), {
      eventTypes: ["realm_user", "user_group", "realm_user_groups", "invites_changed"],
    });
    expect(events.map((e) => `${e.type}${e.op ? `:${e.op}` : ""}`)).toEqual([
      "realm_user:add",
      "user_group:add_members",
      "user_group:add_members",
      "invites_changed",
    ]);
    expect(events[0].person).toMatchObject({ email: "watched@example.com", full_name: "Watched", role: 400 });
  });
});

describe("Notification Bot tells the inviter", () => {
  /** The inviter's direct messages with Notification Bot, newest last. */
  async function botMessages(who: "hamlet" | "iago"): Promise<Json[]> {
    const narrow = [{ operator: "dm", operand: "notification-bot@zulip.com" }];
    const res = await server.as(who).get("/messages", { anchor: "newest", num_before: 20, num_after: 0, narrow: JSON.stringify(narrow) });
    expect(res.status).toBe(200);
    return res.body.messages;
  }

  it("sends the inviter a direct message when the invitee joins (notify_referrer_on_join default true)", async () => {
    const before = await botMessages("hamlet");
    await server.as("hamlet").post("/invites", { invitee_emails: "friend@example.com", stream_ids: [] });
    const res = await page(linkPathFor("friend@example.com"), form({ full_name: "Good Friend", password: "secret-pw" }, "application/json"));
    const friendId = JSON.parse(res.text).user_id;
    const after = await botMessages("hamlet");
    expect(after.length).toBe(before.length + 1);
    const dm = after[after.length - 1];
    expect(dm).toMatchObject({
      type: "private",
      sender_email: "notification-bot@zulip.com",
      sender_full_name: "Notification Bot",
      content: `<p><span class="user-mention silent" data-user-id="${friendId}">Good Friend</span> accepted your invitation to join Zulip!</p>`,
      display_recipient: [
        expect.objectContaining({ email: "notification-bot@zulip.com", full_name: "Notification Bot" }),
        expect.objectContaining({ id: server.users.hamlet.id, full_name: "King Hamlet" }),
      ],
    });
    expect(dm.flags).toEqual([]);
    const raw = await server.as("hamlet").get(`/messages/${dm.id}`, { apply_markdown: false });
    expect(raw.body.message.content).toBe(`@_**Good Friend|${friendId}** accepted your invitation to join Zulip!`);
  });

  it("delivers it to the inviter's queue before invites_changed, consistently with a fresh /register", async () => {
    await server.as("hamlet").post("/invites", { invitee_emails: "queued@example.com", stream_ids: [] });
    const path = linkPathFor("queued@example.com");
    const events = await checkAction(server, "hamlet", () => page(path, form({ full_name: "Queued", password: "secret-pw" })), {
      eventTypes: ["message", "invites_changed"],
      expectEvents: ["message", "invites_changed"],
    });
    expect(events[0].message).toMatchObject({ sender_full_name: "Notification Bot", type: "private" });
    expect(events[0].flags).toEqual([]);
  });

  it("sends nothing when the invitation said notify_referrer_on_join: false, nor for reusable links", async () => {
    const before = await botMessages("iago");
    await server.as("iago").post("/invites", { invitee_emails: "quiet@example.com", stream_ids: [], notify_referrer_on_join: false });
    expect((await page(linkPathFor("quiet@example.com"), form({ full_name: "Quiet", password: "secret-pw" }))).status).toBe(302);
    const link = await server.as("iago").post("/invites/multiuse", { stream_ids: [] });
    expect((await page(new URL(link.body.invite_link).pathname, form({ email: "linked@example.com" }))).status).toBe(200);
    const joined = await page(linkPathFor("linked@example.com"), form({ full_name: "Linked", password: "secret-pw" }));
    expect(joined.status).toBe(302);
    expect(await botMessages("iago")).toEqual(before);
  });
});

describe("the signup page", () => {
  it("shows clear pages for unknown, expired and revoked links", async () => {
    const unknown = await page("/join/nosuchkey/");
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain("Whoops. We couldn&#39;t find your confirmation ID!");
    await server.as("hamlet").post("/invites", { invitee_emails: "late@example.com", stream_ids: [], invite_expires_in_minutes: 5 });
    const late = linkPathFor("late@example.com");
    server.clock.advance(301);
    const expired = await page(late);
    expect(expired.status).toBe(404);
    expect(expired.text).toContain("The confirmation link has expired or been deactivated.");
    expect((await page(late, form({ full_name: "Late", password: "secret-pw" }))).status).toBe(404);
    const json = await page(late, { headers: { accept: "application/json" } });
    expect(JSON.parse(json.text)).toEqual({ result: "error", msg: "The confirmation link has expired or been deactivated.", code: "BAD_REQUEST" });
  });

  it("re-shows the form with the problem, escaping what was typed", async () => {
    await server.as("hamlet").post("/invites", { invitee_emails: "typo@example.com", stream_ids: [] });
    const path = linkPathFor("typo@example.com");
    const weak = await page(path, form({ full_name: "Typo", password: "abc" }));
    expect(weak.status).toBe(400);
    expect(weak.text).toContain("The password is too weak.");
    const bad = await page(path, form({ full_name: "Bad <b>name</b>", password: "secret-pw" }));
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("Invalid characters in name!");
    expect(bad.text).toContain("Bad &lt;b&gt;name&lt;/b&gt;");
    expect(bad.text).not.toContain("<b>name</b>");
  });
});

describe("an invited user is welcomed as Zulip 9.0 welcomes new users", () => {
  it("gets the Welcome Bot's message; the signup announcements channel hears of it after the inviter does", async () => {
    await server.as("iago").post("/users/me/subscriptions", { subscriptions: [{ name: "Signups here" }], invite_only: true });
    const signups = (await server.as("iago").get("/get_stream_id", { stream: "Signups here" })).body.stream_id;
    const set = await server.as("desdemona").patch("/realm", { signup_announcements_stream_id: signups });
    expect(set.body).toEqual({ result: "success", msg: "", signup_announcements_stream_id: signups });
    await server.as("hamlet").post("/invites", { invitee_emails: "greeted@example.com", stream_ids: [] });
    const res = await page(linkPathFor("greeted@example.com"), form({ full_name: "Greeted", password: "secret-pw" }, "application/json"));
    const { user_id: id, api_key: apiKey } = JSON.parse(res.text);
    const me = new Client(server.url, { email: "greeted@example.com", apiKey });
    const dms = (await me.get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: JSON.stringify([{ operator: "is", operand: "dm" }]), apply_markdown: false })).body.messages;
    expect(dms.map((m: Json) => ({ sender: m.sender_email, content: m.content }))).toEqual([
      {
        sender: "welcome-bot@zulip.com",
        content:
          "Hello, and welcome to Zulip!👋 This is a direct message from me, Welcome Bot.\n\n" +
          `If you are new to Zulip, check out our [Getting started guide](${server.app.ctx.config.externalUrl}/help/getting-started-with-zulip)!\n\n` +
          "I can also help you get set up! Just click anywhere on this message or press `r` to reply.\n\n" +
          "Here are a few messages I understand: `apps`, `profile`, `theme`, `channels`, `topics`, `message formatting`, `keyboard shortcuts`, `help`.",
      },
    ]);
    const narrow = JSON.stringify([{ operator: "channel", operand: "Signups here" }, { operator: "topic", operand: "signups" }]);
    const notices = (await server.as("iago").get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow, apply_markdown: false })).body.messages;
    expect(notices.map((m: Json) => ({ sender: m.sender_email, content: m.content }))).toEqual([{ sender: "notification-bot@zulip.com", content: `@_**Greeted|${id}** joined this organization.` }]);
    const inviterNotice = (await server.as("hamlet").get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: JSON.stringify([{ operator: "dm", operand: "notification-bot@zulip.com" }]) })).body.messages[0];
    // Zulip's order (process_new_human_user): the inviter's message, the signup notice, the welcome.
    expect(inviterNotice.id).toBeLessThan(notices[0].id);
    expect(notices[0].id).toBeLessThan(dms[0].id);
  });
});
