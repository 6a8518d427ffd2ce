import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, type Json } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { startSmtp, type TestSmtp } from "../harness/smtp.js";
import { checkAction } from "../events/check-action.js";

/**
 * Signup through a reusable link, end to end over SMTP: the link's page asks for an address, the
 * server mails that address a confirmation link, and only that link's page creates the account.
 */
let server: TestServer;
let smtp: TestSmtp;
let verona: number;
let denmark: number;
beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({ smtpUrl: smtp.url });
  await server.as("iago").post("/users/me/subscriptions", { subscriptions: [{ name: "Verona" }, { name: "Denmark" }] });
  verona = (await server.as("iago").get("/get_stream_id", { stream: "Verona" })).body.stream_id;
  denmark = (await server.as("iago").get("/get_stream_id", { stream: "Denmark" })).body.stream_id;
  await server.as("iago").post("/default_streams", { stream_id: denmark });
});
afterAll(async () => {
  await server.stop();
  await smtp.stop();
});

async function page(path: string, init: RequestInit = {}): Promise<{ status: number; text: string }> {
  // Not followed: a completed signup redirects into the app, signed in.
  const res = await fetch(server.url + path, { redirect: "manual", ...init });
  return { status: res.status, text: await res.text() };
}

function form(fields: Record<string, string>, accept = "text/html"): RequestInit {
  return { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded", accept }, body: new URLSearchParams(fields).toString() };
}

async function newLink(params: Record<string, unknown>): Promise<string> {
  const res = await server.as("iago").post("/invites/multiuse", params as Record<string, never>);
  expect(res.status).toBe(200);
  return new URL(res.body.invite_link).pathname;
}

/** The last mail to `email`, with its /join/<key>/ path (quoted-printable soft breaks undone). */
function lastMailTo(email: string): { raw: string; path: string } {
  const mail = [...smtp.mails].reverse().find((m) => m.to.includes(email));
  if (!mail) throw new Error(`no mail to ${email}`);
  const raw = mail.raw.replace(/=\r?\n/g, "");
  const match = /https?:\/\/[^\s/]+(\/join\/[A-Za-z0-9]+\/)/.exec(raw);
  if (!match?.[1]) throw new Error(`no link in mail: ${raw}`);
  return { raw, path: match[1] };
}

/** Submits an address on a reusable link and returns the path of the confirmation link mailed to it. */
async function confirmationFor(link: string, email: string): Promise<string> {
  const sent = await page(link, form({ email }));
  expect(sent.status).toBe(200);
  return lastMailTo(email).path;
}

describe("reusable link → email → confirmation → account", () => {
  it("creates the account only after the mailed link is followed, with the link's role and channels", async () => {
    const link = await newLink({ invite_as: 300, stream_ids: JSON.stringify([verona]), include_realm_default_subscriptions: true });
    const asked = await page(link);
    expect(asked.status).toBe(200);
    expect(asked.text).toContain('name="email"');
    expect(asked.text).not.toContain('name="password"');

    const mailsBefore = smtp.mails.length;
    const sent = await page(link, form({ email: "linked@example.com" }));
    expect(sent.status).toBe(200);
    expect(sent.text).toContain("Check your email");
    expect(sent.text).toContain("linked@example.com");
    expect(smtp.mails.length).toBe(mailsBefore + 1);
    const mail = lastMailTo("linked@example.com");
    expect(mail.raw).toContain("Subject: Activate your account on Zulip Dev");
    expect(mail.path).not.toBe(link);
    // Nothing exists until the address is confirmed.
    const early = await server.anonymous().post("/fetch_api_key", { username: "linked@example.com", password: "secret-pw" });
    expect(early.status).toBe(401);

    const shown = await page(mail.path);
    expect(shown.status).toBe(200);
    expect(shown.text).toContain("linked@example.com");
    expect(shown.text).toContain('name="full_name"');
    expect(shown.text).toContain('name="password"');
    expect(shown.text).not.toContain('name="email"');
    // The browser is signed in and sent into the app.
    const done = await fetch(server.url + mail.path, { ...form({ full_name: "Linked Person", password: "secret-pw" }), redirect: "manual" });
    expect(done.status).toBe(302);
    expect(done.headers.get("location")).toBe("/");
    expect(done.headers.getSetCookie()[0]).toMatch(/^rookery_session=[A-Za-z0-9_-]{43}; /);

    const login = await server.anonymous().post("/fetch_api_key", { username: "linked@example.com", password: "secret-pw" });
    expect(login.status).toBe(200);
    expect(login.body).toMatchObject({ result: "success", msg: "", email: "linked@example.com" });
    const me = new Client(server.url, { email: "linked@example.com", apiKey: login.body.api_key });
    expect((await me.get("/users/me")).body).toMatchObject({ full_name: "Linked Person", role: 300 });
    const subs = await me.get("/users/me/subscriptions");
    expect(subs.body.subscriptions.map((s: Json) => s.stream_id).sort()).toEqual([verona, denmark].sort());

    const again = await page(mail.path);
    expect(again.status).toBe(404);
    expect(again.text).toContain("This invitation has already been used.");
    // The link itself stays usable for other people.
    expect((await page(link)).status).toBe(200);
  });

  it("applies the organisation's defaults for new users", async () => {
    await server.as("iago").patch("/realm/user_settings_defaults", { twenty_four_hour_time: true });
    const path = await confirmationFor(await newLink({ stream_ids: "[]" }), "defaults@example.com");
    const res = await page(path, form({ full_name: "Defaults", password: "secret-pw" }, "application/json"));
    const me = new Client(server.url, { email: "defaults@example.com", apiKey: JSON.parse(res.text).api_key });
    const state = await me.post("/register", { fetch_event_types: JSON.stringify(["user_settings"]) });
    expect(state.body.user_settings.twenty_four_hour_time).toBe(true);
  });

  it("sends realm_user add and the system-group memberships when the account is created, nothing before", async () => {
    const link = await newLink({ invite_as: 600, stream_ids: "[]" });
    await checkAction(server, "iago", () => page(link, form({ email: "watched-link@example.com" })), {
      eventTypes: ["realm_user", "user_group", "realm_user_groups", "invites_changed"],
      expectEvents: [],
      changesState: false,
    });
    const path = lastMailTo("watched-link@example.com").path;
    const events = await checkAction(server, "iago", () => page(path, form({ full_name: "Watched Link", password: "secret-pw" })), {
      eventTypes: ["realm_user", "user_group", "realm_user_groups", "invites_changed"],
    });
    expect(events.map((e) => `${e.type}:${e.op}`)).toEqual(["realm_user:add", "user_group:add_members"]);
    expect(events[0].person).toMatchObject({ email: "watched-link@example.com", full_name: "Watched Link", role: 600 });
  });

  it("revokes the address's pending email invitations and tells the administrators", async () => {
    await server.as("hamlet").post("/invites", { invitee_emails: "both@example.com", stream_ids: "[]" });
    const path = await confirmationFor(await newLink({ stream_ids: "[]" }), "both@example.com");
    const events = await checkAction(server, "iago", () => page(path, form({ full_name: "Both", password: "secret-pw" })), {
      eventTypes: ["invites_changed"],
      changesState: false,
    });
    expect(events.map((e) => e.type)).toEqual(["invites_changed"]);
    expect((await server.as("iago").get("/invites")).body.invites.map((i: Json) => i.email)).not.toContain("both@example.com");
  });

  it("answers JSON at each step for clients that ask for it", async () => {
    const link = await newLink({ invite_as: 400, stream_ids: "[]" });
    const json = { accept: "application/json" };
    expect(JSON.parse((await page(link, { headers: json })).text)).toEqual({ result: "success", msg: "", realm_name: "Zulip Dev", email: null, invited_as: 400 });
    const sent = await page(link, form({ email: " api@example.com " }, "application/json"));
    expect(JSON.parse(sent.text)).toEqual({ result: "success", msg: "", email: "api@example.com" });
    const path = lastMailTo("api@example.com").path;
    expect(JSON.parse((await page(path, { headers: json })).text)).toEqual({
      result: "success",
      msg: "",
      realm_name: "Zulip Dev",
      email: "api@example.com",
      invited_as: 400,
    });
    const created = JSON.parse((await page(path, form({ full_name: "Api", password: "secret-pw" }, "application/json"))).text);
    expect(created).toEqual({ result: "success", msg: "", user_id: expect.any(Number), email: "api@example.com", api_key: expect.stringMatching(/^[A-Za-z0-9]{32}$/) });
    // A name and password on the reusable link itself create nothing.
    const direct = await page(link, form({ email: "direct@example.com", full_name: "Direct", password: "secret-pw" }, "application/json"));
    expect(JSON.parse(direct.text)).toEqual({ result: "success", msg: "", email: "direct@example.com" });
    expect((await server.anonymous().post("/fetch_api_key", { username: "direct@example.com", password: "secret-pw" })).status).toBe(401);
  });
});

describe("reusable-link pages for unusable links and bad input", () => {
  it("refuses a bad or taken address on the link's page, re-showing it escaped, and sends no mail", async () => {
    const link = await newLink({ stream_ids: "[]" });
    const before = smtp.mails.length;
    const bad = await page(link, form({ email: '"><script>x</script>' }));
    expect(bad.status).toBe(400);
    expect(bad.text).toContain("Please enter a valid email address.");
    expect(bad.text).toContain('name="email"');
    expect(bad.text).not.toContain("<script>");
    const taken = await page(link, form({ email: server.users.hamlet.delivery_email }, "application/json"));
    expect(JSON.parse(taken.text)).toEqual({ result: "error", msg: `${server.users.hamlet.delivery_email} already has an account in this organization.`, code: "BAD_REQUEST" });
    expect(smtp.mails.length).toBe(before);
  });

  it("shows the expired page for an expired link and a confirmation older than a day", async () => {
    const short = await newLink({ stream_ids: "[]", invite_expires_in_minutes: 5 });
    const path = await confirmationFor(await newLink({ stream_ids: "[]" }), "slow@example.com");
    server.clock.advance(301);
    const expiredLink = await page(short);
    expect(expiredLink.status).toBe(404);
    expect(expiredLink.text).toContain("The confirmation link has expired or been deactivated.");
    expect((await page(short, form({ email: "late@example.com" }))).status).toBe(404);
    expect((await page(path)).status).toBe(200);
    server.clock.advance(86_400);
    const expired = await page(path, form({ full_name: "Slow", password: "secret-pw" }));
    expect(expired.status).toBe(404);
    expect(expired.text).toContain("The confirmation link has expired or been deactivated.");
  });

  it("shows the revoked page for a revoked link; a confirmation already mailed still works, as in Zulip", async () => {
    const link = await newLink({ stream_ids: "[]" });
    const path = await confirmationFor(link, "early@example.com");
    const id = (await server.as("iago").get("/invites")).body.invites.find((i: Json) => i.link_url?.endsWith(link)).id;
    await server.as("iago").delete(`/invites/multiuse/${id}`);
    const revoked = await page(link);
    expect(revoked.status).toBe(404);
    expect(revoked.text).toContain("The confirmation link has expired or been deactivated.");
    expect((await page(link, form({ email: "later@example.com" }))).status).toBe(404);
    expect((await page(path, form({ full_name: "Early", password: "secret-pw" }))).status).toBe(302);
  });

  it("shows the invalid page for an unknown key, and the form again for a weak password", async () => {
    const unknown = await page("/join/doesnotexist/", form({ email: "x@example.com" }));
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain("Whoops. We couldn&#39;t find your confirmation ID!");
    const path = await confirmationFor(await newLink({ stream_ids: "[]" }), "weak@example.com");
    const weak = await page(path, form({ full_name: "Weak", password: "abc" }));
    expect(weak.status).toBe(400);
    expect(weak.text).toContain("The password is too weak.");
    expect(weak.text).toContain('name="password"');
  });
});
