import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { startSmtp, type TestSmtp } from "../harness/smtp.js";
import { setRealmProps } from "./streams-helpers.js";

let server: TestServer;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({ smtpUrl: smtp.url });
});
afterAll(async () => {
  await server.stop();
  await smtp.stop();
});

const login = (username: string, password: string) => server.anonymous().post("/fetch_api_key", { username, password });

/** The confirmation path in the last mail to `email` (quoted-printable soft breaks undone). */
function confirmPathFor(email: string): string {
  const mail = [...smtp.mails].reverse().find((m) => m.to.includes(email));
  if (!mail) throw new Error(`no mail to ${email}`);
  const text = mail.raw.replace(/=\r?\n/g, "");
  const match = /https?:\/\/[^\s/]+(\/accounts\/confirm_new_email\/[A-Za-z0-9]+\/)/.exec(text);
  if (!match?.[1]) throw new Error(`no link in mail: ${text}`);
  return match[1];
}

async function open(path: string, accept = "text/html"): Promise<{ status: number; text: string; type: string }> {
  const res = await fetch(server.url + path, { headers: { accept } });
  return { status: res.status, text: await res.text(), type: res.headers.get("content-type") ?? "" };
}

describe("PATCH /settings: password", () => {
  it("changes the password: the new one logs in, the old one no longer does", async () => {
    const res = await server.as("hamlet").patch("/settings", { old_password: server.password, new_password: "f657gdGGk9" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success());
    expect((await login("hamlet@zulip.com", "f657gdGGk9")).body.api_key).toBe(server.users.hamlet.api_key);
    const old = await login("hamlet@zulip.com", server.password);
    expect(old.status).toBe(401);
    expect(old.body).toEqual(error("Your username or password is incorrect", "AUTHENTICATION_FAILED"));
    // The API key is unchanged: the client that changed it keeps working.
    expect((await server.as("hamlet").get("/users/me")).status).toBe(200);
  });

  it.each([
    [{ old_password: "bad_password", new_password: "ignored" }, "Wrong password!"],
    [{ new_password: "f657gdGGk9" }, "Wrong password!"],
    [{ old_password: "", new_password: "f657gdGGk9" }, "Wrong password!"],
  ])("refuses %j", async (params, msg) => {
    const res = await server.as("othello").patch("/settings", params);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg));
  });

  it.each(["easy", "", "abc12", "password1", "Password", "aaaaaaaa", "abababab", "abcdefgh", "987654321", "qwertyuiop", "asdfgh", "monkey123"])(
    "refuses the weak new password %j",
    async (weak) => {
      const res = await server.as("iago").patch("/settings", { old_password: server.password, new_password: weak });
      expect(res.body).toEqual(error("New password is too weak!"));
      expect((await login("iago@zulip.com", server.password)).status).toBe(200);
    },
  );

  it("limits wrong attempts to 5 in 30 minutes, then refuses even the right password until the window passes", async () => {
    const wrong = { old_password: "nope", new_password: "f657gdGGk9" };
    for (let i = 0; i < 5; i++) expect((await server.as("shiva").patch("/settings", wrong)).body).toEqual(error("Wrong password!"));
    server.clock.advance(600);
    const right = { old_password: server.password, new_password: "f657gdGGk9" };
    expect((await server.as("shiva").patch("/settings", right)).body).toEqual(error("You're making too many attempts! Try again in 1200 seconds."));
    // Logging in is the same kind of attempt on the same address.
    const blocked = await login("shiva@zulip.com", server.password);
    expect(blocked.status).toBe(429);
    expect(blocked.body).toEqual(error("API usage exceeded rate limit", "RATE_LIMIT_HIT", { "retry-after": 1200 }));
    expect(blocked.headers.get("retry-after")).toBe("1200");
    server.clock.advance(1201);
    expect((await server.as("shiva").patch("/settings", right)).body).toEqual(success());
    expect((await login("shiva@zulip.com", "f657gdGGk9")).status).toBe(200);
  });

  it("a right password clears the earlier wrong attempts", async () => {
    const wrong = { old_password: "nope", new_password: "f657gdGGk9" };
    for (let i = 0; i < 4; i++) await server.as("cordelia").patch("/settings", wrong);
    expect((await server.as("cordelia").patch("/settings", { old_password: server.password, new_password: "x" })).body).toEqual(error("New password is too weak!"));
    for (let i = 0; i < 4; i++) expect((await server.as("cordelia").patch("/settings", wrong)).body).toEqual(error("Wrong password!"));
  });

  it("refuses bots", async () => {
    const res = await server.as("bot").patch("/settings", { old_password: "x", new_password: "f657gdGGk9" });
    expect(res.body).toEqual(error("This endpoint does not accept bot requests."));
  });
});

describe("PATCH /settings: email", () => {
  it("mails a link to the new address and changes nothing until it is opened", async () => {
    const polonius = server.users.polonius;
    const res = await server.as("polonius").patch("/settings", { email: "  polonius@elsinore.example.com " });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success());
    const mail = smtp.mails.find((m) => m.to.includes("polonius@elsinore.example.com"));
    expect(mail?.raw).toContain("Subject: Confirm your new email address for Zulip Dev");
    expect((await server.as("polonius").get("/users/me")).body.delivery_email).toBe("polonius@zulip.com");

    const path = confirmPathFor("polonius@elsinore.example.com");
    const shown = await open(path);
    expect(shown.status).toBe(200);
    expect(shown.type).toContain("text/html");
    expect(shown.text).toContain("Email address changed");
    expect(shown.text).toContain("polonius@elsinore.example.com");

    const logged = await login("polonius@elsinore.example.com", server.password);
    expect(logged.status).toBe(200);
    expect(logged.body).toEqual(success({ api_key: polonius.api_key, email: "polonius@elsinore.example.com", user_id: polonius.id }));
    expect((await login("polonius@zulip.com", server.password)).status).toBe(401);
    const me = new Client(server.url, { email: "polonius@elsinore.example.com", apiKey: polonius.api_key });
    expect((await me.get("/users/me")).body).toMatchObject({ email: "polonius@elsinore.example.com", delivery_email: "polonius@elsinore.example.com" });
    const seen = await server.as("othello").get(`/users/${polonius.id}`);
    expect(seen.body.user.email).toBe("polonius@elsinore.example.com");
    const notice = smtp.mails.find((m) => m.to.includes("polonius@zulip.com"));
    expect(notice?.raw).toContain("Subject: Email address changed for Zulip Dev");

    const again = await open(path);
    expect(again.status).toBe(404);
    expect(again.text).toContain("The confirmation link has expired or been deactivated.");
  });

  it("keeps the API email of a user whose address is hidden", async () => {
    await server.as("desdemona").patch("/settings", { email_address_visibility: 4 });
    await server.as("desdemona").patch("/settings", { email: "owner@elsinore.example.com" });
    expect((await open(confirmPathFor("owner@elsinore.example.com"))).status).toBe(200);
    const seen = await server.as("othello").get(`/users/${server.users.desdemona.id}`);
    const dummy = `user${server.users.desdemona.id}@${new URL(server.app.ctx.config.externalUrl).hostname}`;
    expect(seen.body.user).toMatchObject({ email: dummy, delivery_email: null });
    const admin = await server.as("iago").get(`/users/${server.users.desdemona.id}`);
    expect(admin.body.user).toMatchObject({ email: dummy, delivery_email: null });
  });

  it("answers JSON to clients that ask for it, and explains unknown, revoked and expired links", async () => {
    expect(JSON.parse((await open("/accounts/confirm_new_email/nosuchkey/", "application/json")).text)).toEqual({
      result: "error",
      msg: "Whoops. We couldn't find your confirmation ID!",
      code: "BAD_REQUEST",
    });
    await server.as("othello").patch("/settings", { email: "first@elsinore.example.com" });
    const first = confirmPathFor("first@elsinore.example.com");
    await server.as("othello").patch("/settings", { email: "second@elsinore.example.com" });
    const revoked = await open(first);
    expect(revoked.status).toBe(404);
    expect(revoked.text).toContain("The confirmation link has expired or been deactivated.");
    const second = confirmPathFor("second@elsinore.example.com");
    server.clock.advance(86_400);
    const expired = await open(second, "application/json");
    expect(expired.status).toBe(404);
    expect(JSON.parse(expired.text)).toEqual({ result: "error", msg: "The confirmation link has expired or been deactivated.", code: "BAD_REQUEST" });
    expect((await server.as("othello").get("/users/me")).body.delivery_email).toBe("othello@zulip.com");
  });

  it("refuses invalid, taken and reserved addresses", async () => {
    const created = await server.as("iago").post("/users", { email: "gone@zulip.com", password: "pw-123456", full_name: "Gone" });
    await server.as("iago").delete(`/users/${created.body.user_id}`);
    const cases: [string, string][] = [
      ["not-an-email", "Invalid address."],
      ["cordelia@zulip.com", "Already has an account."],
      ["CORDELIA@zulip.com", "Already has an account."],
      ["gone@zulip.com", "Account has been deactivated."],
      ["notification-bot@zulip.com", "Reserved for system bots."],
    ];
    for (const [email, msg] of cases) {
      const res = await server.as("iago").patch("/settings", { email });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(error(msg));
    }
  });

  it("is a no-op for the current address", async () => {
    const before = smtp.mails.length;
    expect((await server.as("iago").patch("/settings", { email: "iago@zulip.com" })).body).toEqual(success());
    expect(smtp.mails.length).toBe(before);
  });

  it("refuses non-administrators when the organisation disables address changes", async () => {
    await setRealmProps(server, { email_changes_disabled: true });
    try {
      for (const who of ["hamlet", "shiva", "othello"] as const) {
        expect((await server.as(who).patch("/settings", { email: "new@elsinore.example.com" })).body).toEqual(
          error("Email address changes are disabled in this organization."),
        );
      }
      expect((await server.as("iago").patch("/settings", { email: "iago@elsinore.example.com" })).body).toEqual(success());
    } finally {
      await setRealmProps(server, { email_changes_disabled: false });
    }
  });

  it("limits requests to 2 an hour per user", async () => {
    const ask = (email: string) => server.as("cordelia").patch("/settings", { email });
    expect((await ask("c1@elsinore.example.com")).body).toEqual(success());
    expect((await ask("c2@elsinore.example.com")).body).toEqual(success());
    const third = await ask("c3@elsinore.example.com");
    expect(third.status).toBe(429);
    expect(third.body).toEqual(error("API usage exceeded rate limit", "RATE_LIMIT_HIT", { "retry-after": 3600 }));
    server.clock.advance(3600);
    expect((await ask("c3@elsinore.example.com")).body).toEqual(success());
  });
});
