import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../harness/client.js";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { checkAction } from "../events/check-action.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

async function inviteOne(who: "hamlet" | "iago" | "desdemona", email: string, inviteAs = 400): Promise<number> {
  const res = await server.as(who).post("/invites", { invitee_emails: email, stream_ids: [], invite_as: inviteAs });
  expect(res.body).toEqual(success());
  const list = await server.as("desdemona").get("/invites");
  return list.body.invites.find((i: Json) => i.email === email).id;
}

/** The mails to `email` in the outbox folder, quoted-printable soft line breaks undone. */
function mailsTo(email: string): string[] {
  const dir = path.join(server.dataDir, "outbox");
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .map((f) => fs.readFileSync(path.join(dir, f), "utf8").replace(/=\n/g, ""))
    .filter((m) => m.includes(`To: ${email}`));
}

describe("GET /invites", () => {
  it("administrators see every pending invitation and link; others only their own email invitations", async () => {
    await inviteOne("hamlet", "h1@example.com");
    await inviteOne("iago", "i1@example.com");
    const link = await server.as("iago").post("/invites/multiuse", { invite_as: 600 });
    expect(link.body).toEqual(success({ invite_link: expect.stringMatching(/^http:\/\/127\.0\.0\.1:9991\/join\/[A-Za-z0-9]{24}\/$/) }));
    const admin = await server.as("desdemona").get("/invites");
    expect(admin.body.invites.map((i: Json) => i.email ?? i.link_url)).toEqual(["h1@example.com", "i1@example.com", link.body.invite_link]);
    const now = Math.floor(server.clock.now() / 1000);
    expect(admin.body.invites[2]).toEqual({
      invited_by_user_id: server.users.iago.id,
      invited: now,
      expiry_date: now + 14400 * 60,
      id: expect.any(Number),
      link_url: link.body.invite_link,
      invited_as: 600,
      is_multiuse: true,
    });
    const member = await server.as("hamlet").get("/invites");
    expect(member.body.invites.map((i: Json) => i.email)).toEqual(["h1@example.com"]);
    expect((await server.as("polonius").get("/invites")).body).toEqual(error("Not allowed for guest users"));
  });

  it("leaves out expired invitations", async () => {
    await server.as("hamlet").post("/invites", { invitee_emails: "short@example.com", stream_ids: [], invite_expires_in_minutes: 1 });
    server.clock.advance(61);
    const list = await server.as("hamlet").get("/invites");
    expect(list.body.invites.map((i: Json) => i.email)).not.toContain("short@example.com");
  });
});

describe("DELETE /invites/{id}", () => {
  it("lets the inviter revoke; invites_changed to administrators and the inviter", async () => {
    const id = await inviteOne("hamlet", "revoke-me@example.com");
    const events = await checkAction(server, "iago", () => server.as("hamlet").delete(`/invites/${id}`), {
      eventTypes: ["invites_changed"],
      expectEvents: ["invites_changed"],
      changesState: false,
    });
    expect(events).toHaveLength(1);
    expect((await server.as("hamlet").get("/invites")).body.invites.map((i: Json) => i.id)).not.toContain(id);
    expect((await server.as("hamlet").delete(`/invites/${id}`)).body).toEqual(error("No such invitation"));
  });

  it("needs an administrator for others' invitations, and an owner for owner invitations", async () => {
    const id = await inviteOne("iago", "not-yours@example.com");
    expect((await server.as("hamlet").delete(`/invites/${id}`)).body).toEqual(error("Must be an organization administrator"));
    const owner = await inviteOne("desdemona", "future-owner@example.com", 100);
    expect((await server.as("iago").delete(`/invites/${owner}`)).body).toEqual(error("Must be an organization owner", "UNAUTHORIZED_PRINCIPAL"));
    expect((await server.as("desdemona").delete(`/invites/${owner}`)).body).toEqual(success());
    expect((await server.as("iago").delete(`/invites/${id}`)).body).toEqual(success());
    expect((await server.as("iago").delete("/invites/9999")).body).toEqual(error("No such invitation"));
  });
});

describe("POST /invites/{id}/resend", () => {
  it("emails a fresh link with the same expiry date", async () => {
    const id = await inviteOne("hamlet", "again@example.com");
    const before = (await server.as("hamlet").get("/invites")).body.invites.find((i: Json) => i.id === id);
    const firstLink = /\/join\/([A-Za-z0-9]+)\//.exec(mailsTo("again@example.com")[0] ?? "")?.[1];
    server.clock.advance(3600);
    const res = await server.as("hamlet").post(`/invites/${id}/resend`);
    expect(res.body).toEqual(success());
    const mails = mailsTo("again@example.com");
    expect(mails).toHaveLength(2);
    const links = mails.map((m) => /\/join\/([A-Za-z0-9]+)\//.exec(m)?.[1]);
    expect(links).toContain(firstLink);
    expect(new Set(links).size).toBe(2);
    const after = (await server.as("hamlet").get("/invites")).body.invites.find((i: Json) => i.id === id);
    expect(after).toEqual({ ...before, invited: before.invited + 3600 });
    expect((await server.as("othello").post(`/invites/${id}/resend`)).body).toEqual(error("Must be an organization administrator"));
    expect((await server.as("hamlet").post("/invites/9999/resend")).body).toEqual(error("No such invitation"));
  });
});

describe("reusable links", () => {
  it("POST /invites/multiuse needs create_multiuse_invite_group (administrators by default)", async () => {
    expect((await server.as("hamlet").post("/invites/multiuse", {})).body).toEqual(error("Insufficient permission"));
    expect((await server.as("shiva").post("/invites/multiuse", {})).body).toEqual(error("Insufficient permission"));
    expect((await server.as("iago").post("/invites/multiuse", { invite_as: 100 })).body).toEqual(error("Must be an organization owner", "UNAUTHORIZED_PRINCIPAL"));
    expect((await server.as("iago").post("/invites/multiuse", { stream_ids: [9999] })).body).toEqual(error("Invalid channel ID 9999. No invites were sent."));
    const never = await server.as("iago").post("/invites/multiuse", { invite_expires_in_minutes: null });
    expect(never.status).toBe(200);
    const list = (await server.as("iago").get("/invites")).body.invites;
    expect(list.find((i: Json) => i.link_url === never.body.invite_link).expiry_date).toBeNull();
  });

  it("DELETE /invites/multiuse/{id} revokes once", async () => {
    const link = await server.as("iago").post("/invites/multiuse", {});
    const id = (await server.as("iago").get("/invites")).body.invites.find((i: Json) => i.link_url === link.body.invite_link).id;
    expect((await server.as("hamlet").delete(`/invites/multiuse/${id}`)).body).toEqual(error("Must be an organization administrator"));
    expect((await server.as("iago").delete(`/invites/multiuse/${id}`)).body).toEqual(success());
    expect((await server.as("iago").delete(`/invites/multiuse/${id}`)).body).toEqual(error("Invitation has already been revoked"));
    expect((await server.as("iago").delete("/invites/multiuse/9999")).body).toEqual(error("No such invitation"));
    expect((await server.as("iago").get("/invites")).body.invites.map((i: Json) => i.id)).not.toContain(id);
  });
});
