import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { Browser } from "../../harness/browser.js";
import { serveFakeWebApp } from "../../harness/web-server.js";

const INVALID_LINK = "Sorry, the link you provided is invalid or has already been used.";

const site = serveFakeWebApp();

/** The mails in the outbox folder (no SMTP configured) to `email`, oldest first, quoted-printable soft breaks undone. */
function mailsTo(email: string): string[] {
  const outbox = path.join(site.server.dataDir, "outbox");
  if (!fs.existsSync(outbox)) return [];
  return fs
    .readdirSync(outbox)
    .sort()
    .map((file) => fs.readFileSync(path.join(outbox, file), "utf8").replace(/=\r?\n/g, "").replace(/=3D/g, "="))
    .filter((mail) => new RegExp(`^To: ${email.replace(/[.+]/g, "\\$&")}$`, "m").test(mail));
}

/** The reset link's path in the last mail to `email`. */
function resetPath(email: string): string {
  const mail = mailsTo(email).at(-1) ?? "";
  const match = /https?:\/\/[^\s/]+(\/accounts\/password\/reset\/[A-Za-z0-9]+\/)/.exec(mail);
  if (!match?.[1]) throw new Error(`no reset link in: ${mail}`);
  return match[1];
}

function formError(html: string): string | undefined {
  return /<p class="error" role="alert">([^<]*)<\/p>/.exec(html)?.[1]?.replace(/&#39;/g, "'");
}

async function requestReset(email: string, headers: Record<string, string> = {}) {
  return new Browser(site.server.url).fetch("POST", "/accounts/password/reset/", { form: { email }, headers });
}

describe("password reset by email, end to end through the outbox", () => {
  it("mails a one-time link whose page sets a new password; the old one stops working, as do the user's sessions", async () => {
    const form = await new Browser(site.server.url).get("/accounts/password/reset/");
    expect(form.status).toBe(200);
    expect(form.text).toContain("<title>Reset your password</title>");
    expect(form.text).toContain("Forgot your password? No problem, we'll send a link to reset your password to the email you signed up with.");
    expect(form.text).toContain("Send reset link");
    const signedIn = new Browser(site.server.url);
    await signedIn.signIn("hamlet@zulip.com", site.server.password);

    const sent = await requestReset("Hamlet@zulip.com");
    expect(sent.status).toBe(302);
    expect(sent.headers.get("location")).toBe("/accounts/password/reset/done/");
    const done = await new Browser(site.server.url).get("/accounts/password/reset/done/");
    expect(done.text).toContain("<title>Password reset sent!</title>");
    expect(done.text).toContain("Check your email in a few minutes to finish the process.");
    const link = resetPath("hamlet@zulip.com");

    const page = await new Browser(site.server.url).get(link);
    expect(page.status).toBe(200);
    expect(page.text).toContain("<title>Set a new password.</title>");
    expect(page.text).toContain("hamlet@zulip.com");
    expect(page.text).toContain('name="new_password1"');
    const set = await new Browser(site.server.url).fetch("POST", link, { form: { new_password1: "a-fresh-password-1", new_password2: "a-fresh-password-1" } });
    expect(set.status).toBe(302);
    expect(set.headers.get("location")).toBe("/accounts/password/done/");
    const finished = await new Browser(site.server.url).get("/accounts/password/done/");
    expect(finished.text).toContain("<title>You&#39;ve set a new password!</title>");
    expect(finished.text).toContain('Please <a href="/login/">log in</a> with your new password.');

    expect((await signedIn.json("GET", "/users/me")).status).toBe(401);
    expect((await new Browser(site.server.url).login("hamlet@zulip.com", site.server.password)).status).toBe(200);
    const fresh = new Browser(site.server.url);
    await fresh.signIn("hamlet@zulip.com", "a-fresh-password-1");
    expect((await fresh.json("GET", "/users/me")).status).toBe(200);
    // The link is used up.
    expect((await new Browser(site.server.url).get(link)).text).toContain(INVALID_LINK);
    // Back to the fixture password for the other tests.
    await site.server.as("hamlet").patch("/settings", { old_password: "a-fresh-password-1", new_password: site.server.password });
  });

  it("keeps the form with Django's messages for mismatched, weak and missing passwords", async () => {
    await requestReset("cordelia@zulip.com");
    const link = resetPath("cordelia@zulip.com");
    const post = (fields: Record<string, string>) => new Browser(site.server.url).fetch("POST", link, { form: fields });
    expect(formError((await post({ new_password1: "one-password-1", new_password2: "another-password-2" })).text)).toBe("The two password fields didn\u2019t match.");
    expect(formError((await post({ new_password1: "abc", new_password2: "abc" })).text)).toBe("The password is too weak.");
    expect(formError((await post({ new_password1: "", new_password2: "" })).text)).toBe("This field is required.");
    // Still usable after those.
    expect((await post({ new_password1: site.server.password, new_password2: site.server.password })).status).toBe(302);
  });

  it("says the same for an unknown or deactivated address, and mails a note instead of a link", async () => {
    const unknown = await requestReset("nobody@example.com");
    expect(unknown.status).toBe(302);
    expect(unknown.headers.get("location")).toBe("/accounts/password/reset/done/");
    const note = mailsTo("nobody@example.com").at(-1) ?? "";
    expect(note).toContain("Somebody (possibly you) requested a new password");
    expect(note).toContain("You do not have an account in that organization.");
    expect(note).not.toContain("/accounts/password/reset/");

    const target = site.server.users.polonius;
    await site.server.as("iago").delete(`/users/${target.id}`);
    try {
      const res = await requestReset(target.delivery_email);
      expect(res.headers.get("location")).toBe("/accounts/password/reset/done/");
      const mail = mailsTo(target.delivery_email).at(-1) ?? "";
      expect(mail).toContain("has been deactivated");
      expect(mail).not.toContain("/accounts/password/reset/");
    } finally {
      await site.server.as("iago").post(`/users/${target.id}/reactivate`);
    }
  });

  it("refuses an empty or malformed address with the form again", async () => {
    expect(formError((await requestReset("")).text)).toBe("This field is required.");
    const bad = await requestReset("not-an-address");
    expect(bad.status).toBe(200);
    expect(formError(bad.text)).toBe("Enter a valid email address.");
    expect(bad.text).toContain('value="not-an-address"');
  });

  it("sends an address at most 2 reset mails an hour (Zulip's password_reset_form_by_email)", async () => {
    const email = "shiva@zulip.com";
    const before = mailsTo(email).length;
    expect((await requestReset(email)).status).toBe(302);
    expect((await requestReset(email)).status).toBe(302);
    const limited = await requestReset(email);
    expect(limited.status).toBe(429);
    expect(limited.text).toContain("Please try again in 3600 seconds.");
    expect(mailsTo(email).length).toBe(before + 2);
    // Another address is not affected; the limit passes with time.
    expect((await requestReset("iago@zulip.com")).status).toBe(302);
    site.server.clock.advance(3601);
    expect((await requestReset(email)).status).toBe(302);
    // Only the newest link works.
    const links = mailsTo(email).map((mail) => /\/accounts\/password\/reset\/[A-Za-z0-9]+\//.exec(mail)?.[0] ?? "");
    expect((await new Browser(site.server.url).get(links.at(-2) ?? "")).text).toContain(INVALID_LINK);
    expect((await new Browser(site.server.url).get(links.at(-1) ?? "")).text).toContain('name="new_password1"');
  });

  it("refuses unknown, malformed and expired links", async () => {
    for (const link of ["/accounts/password/reset/" + "a".repeat(32) + "/", "/accounts/password/reset/x/"]) {
      const res = await new Browser(site.server.url).get(link);
      expect(res.status, link).toBe(200);
      expect(res.text).toContain(INVALID_LINK);
      const post = await new Browser(site.server.url).fetch("POST", link, { form: { new_password1: "abc-def-123", new_password2: "abc-def-123" } });
      expect(post.text).toContain(INVALID_LINK);
    }
    await requestReset("othello@zulip.com");
    const link = resetPath("othello@zulip.com");
    site.server.clock.advance(86_401);
    expect((await new Browser(site.server.url).get(link)).text).toContain(INVALID_LINK);
  });

  it("refuses forms posted from another site", async () => {
    const res = await requestReset("hamlet@zulip.com", { origin: "https://evil.example" });
    expect(res.status).toBe(403);
    expect(res.text).toContain("CSRF error: Origin checking failed - https://evil.example does not match any trusted origins.");
  });
});

describe("signing up through an invitation", () => {
  it("ends signed in, in the app", async () => {
    const invite = await site.server.as("iago").post("/invites", { invitee_emails: "web-newcomer@example.com", stream_ids: [] });
    expect(invite.status).toBe(200);
    const mail = mailsTo("web-newcomer@example.com").at(-1) ?? "";
    const join = /https?:\/\/[^\s/]+(\/join\/[A-Za-z0-9]+\/)/.exec(mail)?.[1] ?? "";
    const browser = new Browser(site.server.url);
    const res = await browser.fetch("POST", join, { form: { full_name: "Web Newcomer", password: "a-good-password-7" } });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/");
    expect(browser.session).toBeDefined();
    const app = await browser.loadApp();
    expect(app.status).toBe(200);
    expect(app.text).toContain('<div id="app"></div>');
    const me = await browser.json("GET", "/users/me");
    expect(me.body).toMatchObject({ email: "web-newcomer@example.com", full_name: "Web Newcomer" });
  });
});
