import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FixtureName } from "../harness/server.js";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { checkAction } from "../events/check-action.js";

let server: TestServer;
let publicStream: number;
let privateStream: number;
beforeAll(async () => {
  server = await startServer();
  await server.as("iago").post("/users/me/subscriptions", { subscriptions: [{ name: "Verona" }] });
  await server.as("iago").post("/users/me/subscriptions", { subscriptions: [{ name: "Secret" }], invite_only: true });
  publicStream = (await server.as("iago").get("/get_stream_id", { stream: "Verona" })).body.stream_id;
  privateStream = (await server.as("iago").get("/get_stream_id", { stream: "Secret" })).body.stream_id;
});
afterAll(() => server.stop());

async function setRealmProps(props: Record<string, unknown>): Promise<void> {
  const realmId = server.users.hamlet.realm_id;
  await server.app.ctx.store.write((tx) => tx.updateTable("realm").set({ props: JSON.stringify(props) }).where("id", "=", realmId).execute());
  server.app.ctx.realms.forget(realmId);
}

/** The mails in the outbox folder, quoted-printable soft line breaks undone. */
function outboxMails(): string[] {
  const dir = path.join(server.dataDir, "outbox");
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).map((f) => fs.readFileSync(path.join(dir, f), "utf8").replace(/=\n/g, ""));
}

const invite = (who: FixtureName, params: Record<string, unknown>) =>
  server.as(who).post("/invites", { stream_ids: [], ...params } as Record<string, string | number | boolean | null | object>);

describe("POST /invites", () => {
  it("invites addresses separated by commas and newlines, one email each, and lists them", async () => {
    const before = outboxMails().length;
    const res = await invite("hamlet", { invitee_emails: "alice@example.com, Bob Smith <bob@example.com>\ncarol@example.com,,alice@example.com", stream_ids: [publicStream] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success());
    const mails = outboxMails().slice(before);
    expect(mails).toHaveLength(3);
    const alice = mails.find((m) => m.includes("To: alice@example.com"));
    expect(alice).toMatch(/\/join\/[A-Za-z0-9]{24}\//);
    const list = await server.as("hamlet").get("/invites");
    const invited = Math.floor(server.clock.now() / 1000);
    expect(list.body.invites.map((i: Record<string, unknown>) => i.email)).toEqual(["alice@example.com", "bob@example.com", "carol@example.com"]);
    expect(list.body.invites[0]).toEqual({
      email: "alice@example.com",
      invited_by_user_id: server.users.hamlet.id,
      invited,
      expiry_date: invited + 14400 * 60,
      id: expect.any(Number),
      invited_as: 400,
      is_multiuse: false,
      notify_referrer_on_join: true,
    });
  });

  it("honours invite_expires_in_minutes, null for never, invite_as and notify_referrer_on_join", async () => {
    await invite("iago", { invitee_emails: "never@example.com", invite_expires_in_minutes: null, invite_as: 300, notify_referrer_on_join: false });
    await invite("iago", { invitee_emails: "soon@example.com", invite_expires_in_minutes: 60 });
    const list = (await server.as("iago").get("/invites")).body.invites;
    const now = Math.floor(server.clock.now() / 1000);
    expect(list.find((i: Record<string, unknown>) => i.email === "never@example.com")).toMatchObject({ expiry_date: null, invited_as: 300, notify_referrer_on_join: false });
    expect(list.find((i: Record<string, unknown>) => i.email === "soon@example.com")).toMatchObject({ expiry_date: now + 3600 });
  });

  it("reports addresses that already have accounts, inviting the others (INVITATION_FAILED)", async () => {
    const res = await invite("hamlet", { invitee_emails: "othello@zulip.com, dora@example.com" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(
      error(
        "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
        "INVITATION_FAILED",
        { errors: [["othello@zulip.com", "Already has an account.", false]], sent_invitations: true, license_limit_reached: false, daily_limit_reached: false },
      ),
    );
    const list = (await server.as("hamlet").get("/invites")).body.invites;
    expect(list.map((i: Record<string, unknown>) => i.email)).toContain("dora@example.com");
  });

  it("sends nothing when every address has an account, flagging deactivated ones", async () => {
    const created = await server.as("iago").post("/users", { email: "left@zulip.com", password: "pw-123456", full_name: "Left" });
    await server.as("iago").delete(`/users/${created.body.user_id}`);
    const res = await invite("hamlet", { invitee_emails: "cordelia@zulip.com\nleft@zulip.com" });
    expect(res.body).toEqual(
      error("We weren't able to invite anyone.", "INVITATION_FAILED", {
        errors: [
          ["cordelia@zulip.com", "Already has an account.", false],
          ["left@zulip.com", "Account has been deactivated.", true],
        ],
        sent_invitations: false,
        license_limit_reached: false,
        daily_limit_reached: false,
      }),
    );
  });

  it("sends nothing when an address is invalid", async () => {
    const res = await invite("hamlet", { invitee_emails: "not-an-email, ok@example.com, hamlet@zulip.com" });
    expect(res.body).toEqual(
      error("Some emails did not validate, so we didn't send any invitations.", "INVITATION_FAILED", {
        errors: [
          ["not-an-email", "Invalid address.", false],
          ["hamlet@zulip.com", "Already has an account.", false],
        ],
        sent_invitations: false,
        license_limit_reached: false,
        daily_limit_reached: false,
      }),
    );
    const list = (await server.as("hamlet").get("/invites")).body.invites;
    expect(list.map((i: Record<string, unknown>) => i.email)).not.toContain("ok@example.com");
  });

  it("needs at least one address and stream_ids", async () => {
    expect((await invite("hamlet", { invitee_emails: "" })).body).toEqual(error("You must specify at least one email address."));
    expect((await invite("hamlet", { invitee_emails: " , \n" })).body).toEqual(error("You must specify at least one email address."));
    const missing = await server.as("hamlet").post("/invites", { invitee_emails: "x@example.com" });
    expect(missing.body).toEqual(error("Missing 'stream_ids' argument", "REQUEST_VARIABLE_MISSING", { var_name: "stream_ids" }));
    expect((await invite("hamlet", { invitee_emails: "x@example.com", invite_as: 500 })).body).toEqual(error("Invalid invite_as"));
  });

  it("checks channels: unknown, inaccessible private, and the permission to subscribe others", async () => {
    expect((await invite("hamlet", { invitee_emails: "y@example.com", stream_ids: [9999] })).body).toEqual(error("Invalid channel ID 9999. No invites were sent."));
    expect((await invite("hamlet", { invitee_emails: "y@example.com", stream_ids: [privateStream] })).body).toEqual(
      error(`Invalid channel ID ${privateStream}. No invites were sent.`),
    );
    await setRealmProps({ invite_to_stream_policy: 2 });
    try {
      expect((await invite("hamlet", { invitee_emails: "y@example.com", stream_ids: [publicStream] })).body).toEqual(
        error("You do not have permission to subscribe other users to channels."),
      );
      expect((await invite("hamlet", { invitee_emails: "y@example.com", include_realm_default_subscriptions: true })).body).toEqual(success());
    } finally {
      await setRealmProps({});
    }
  });

  it("limits invite_as by the inviter's role", async () => {
    expect((await invite("iago", { invitee_emails: "o@example.com", invite_as: 100 })).body).toEqual(
      error("Must be an organization owner", "UNAUTHORIZED_PRINCIPAL"),
    );
    expect((await invite("desdemona", { invitee_emails: "o@example.com", invite_as: 100 })).body).toEqual(success());
    expect((await invite("hamlet", { invitee_emails: "a@example.com", invite_as: 200 })).body).toEqual(error("Must be an organization administrator"));
    expect((await invite("shiva", { invitee_emails: "m@example.com", invite_as: 300 })).body).toEqual(error("Must be an organization administrator"));
    expect((await invite("shiva", { invitee_emails: "g@example.com", invite_as: 600 })).body).toEqual(success());
  });

  it("is refused to guests, bots and users the realm's invite_to_realm_policy excludes", async () => {
    expect((await invite("polonius", { invitee_emails: "p@example.com" })).body).toEqual(error("Not allowed for guest users"));
    expect((await invite("bot", { invitee_emails: "p@example.com" })).body).toEqual(error("This endpoint does not accept bot requests."));
    await setRealmProps({ invite_to_realm_policy: 2 });
    try {
      expect((await invite("hamlet", { invitee_emails: "p@example.com" })).body).toEqual(error("Insufficient permission"));
      expect((await invite("iago", { invitee_emails: "p@example.com" })).body).toEqual(success());
    } finally {
      await setRealmProps({});
    }
  });

  it("stops at the realm's daily limit", async () => {
    await setRealmProps({ max_invites: 30 });
    try {
      const res = await invite("iago", { invitee_emails: Array.from({ length: 30 }, (_, i) => `bulk${i}@example.com`).join(",") });
      expect(res.body).toEqual(
        error(
          "To protect users, Zulip limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.",
          "INVITATION_FAILED",
          { errors: [], sent_invitations: false, license_limit_reached: false, daily_limit_reached: true },
        ),
      );
      server.clock.advance(86_400);
      expect((await invite("iago", { invitee_emails: "tomorrow@example.com" })).body).toEqual(success());
    } finally {
      await setRealmProps({});
    }
  });

  it("refuses new accounts in open realms", async () => {
    await setRealmProps({ invite_required: false });
    try {
      const created = await server.as("iago").post("/users", { email: "newish@zulip.com", password: "pw-123456", full_name: "Newish" });
      const newbie = await server.app.ctx.users.get(created.body.user_id);
      if (!newbie) throw new Error("no user");
      const res = await server.as(newbie).post("/invites", { invitee_emails: "friend@example.com", stream_ids: [] });
      expect(res.body).toEqual(
        error("Your account is too new to send invites for this organization. Ask an organization admin, or a more experienced user.", "INVITATION_FAILED", {
          errors: [],
          sent_invitations: false,
          license_limit_reached: false,
          daily_limit_reached: false,
        }),
      );
    } finally {
      await setRealmProps({});
    }
  });

  it("sends invites_changed to administrators and the inviter", async () => {
    for (const who of ["iago", "hamlet"] as const) {
      const events = await checkAction(server, who, () => invite("hamlet", { invitee_emails: `evt-${who}@example.com` }), {
        expectEvents: ["invites_changed"],
        eventTypes: ["invites_changed"],
        changesState: false,
      });
      expect(events[0]).toEqual({ type: "invites_changed", id: expect.any(Number) });
    }
    const events = await checkAction(server, "othello", () => invite("hamlet", { invitee_emails: "evt-othello@example.com" }), {
      expectEvents: 0,
      eventTypes: ["invites_changed"],
      changesState: false,
    });
    expect(events).toEqual([]);
  });
});
