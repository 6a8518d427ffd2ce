import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { startSmtp, type TestSmtp } from "../harness/smtp.js";

/** emails_restricted_to_domains and the realm's domains decide who may be invited and who may sign up. */
let server: TestServer;
let smtp: TestSmtp;
beforeAll(async () => {
  smtp = await startSmtp();
  server = await startServer({ smtpUrl: smtp.url });
  await server.as("desdemona").post("/realm/domains", { domain: "zulip.com", allow_subdomains: false });
  await server.as("desdemona").post("/realm/domains", { domain: "acme.example", allow_subdomains: true });
});
afterAll(async () => {
  await server.stop();
  await smtp.stop();
});

const restrict = async (on: boolean) => {
  expect((await server.as("desdemona").patch("/realm", { emails_restricted_to_domains: on })).status).toBe(200);
};
const invite = (emails: string) => server.as("iago").post("/invites", { invitee_emails: emails, stream_ids: [] });

describe("POST /invites with addresses restricted to the realm's domains", () => {
  it("refuses addresses outside the domains, or with + in them, and invites nobody", async () => {
    await restrict(true);
    const res = await invite("ok@zulip.com, someone@elsewhere.org, a+b@zulip.com, deep@x.y.acme.example, no@sub.zulip.com");
    expect(res.body).toEqual(
      error("Some emails did not validate, so we didn't send any invitations.", "INVITATION_FAILED", {
        errors: [
          ["someone@elsewhere.org", "Outside your domain.", false],
          ["a+b@zulip.com", "Email addresses containing + are not allowed.", false],
          ["no@sub.zulip.com", "Outside your domain.", false],
        ],
        sent_invitations: false,
        license_limit_reached: false,
        daily_limit_reached: false,
      }),
    );
    expect((await server.as("iago").get("/invites")).body.invites).toEqual([]);
  });

  it("invites addresses in a domain, or below one that allows subdomains", async () => {
    expect((await invite("ok@zulip.com, deep@x.y.ACME.example")).status).toBe(200);
    const emails = (await server.as("iago").get("/invites")).body.invites.map((i: { email: string }) => i.email);
    expect(emails.sort()).toEqual(["deep@x.y.ACME.example", "ok@zulip.com"]);
  });

  it("accepts any address once the restriction is off", async () => {
    await restrict(false);
    expect((await invite("someone@elsewhere.org, a+b@zulip.com")).status).toBe(200);
  });
});

describe("signing up through a reusable link with addresses restricted to the realm's domains", () => {
  it("refuses an address outside the domains before mailing anything", async () => {
    await restrict(true);
    const link = await server.as("iago").post("/invites/multiuse", { stream_ids: [] });
    expect(link.status).toBe(200);
    const path = new URL(link.body.invite_link).pathname;
    const submit = async (email: string) => {
      const res = await fetch(server.url + path, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
        body: new URLSearchParams({ email }).toString(),
      });
      return { status: res.status, body: (await res.json()) as unknown };
    };
    const before = smtp.mails.length;
    expect(await submit("stranger@elsewhere.org")).toEqual({
      status: 400,
      body: error("Your email address, stranger@elsewhere.org, is not in one of the domains that are allowed to register for accounts in this organization."),
    });
    expect(await submit("a+b@acme.example")).toEqual({ status: 400, body: error("Email addresses containing + are not allowed in this organization.") });
    expect(smtp.mails.length).toBe(before);
    expect((await submit("newcomer@acme.example")).status).toBe(200);
    await restrict(false);
  });
});
