import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { startSmtp, type TestSmtp } from "../harness/smtp.js";

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

describe("POST /users", () => {
  it("lets an administrator create a member who can then log in", async () => {
    const res = await server.as("iago").post("/users", { email: "newbie@zulip.com", password: "s3cret-pass", full_name: "New Bie" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success({ user_id: expect.any(Number) }));
    const login = await server.anonymous().post("/fetch_api_key", { username: "newbie@zulip.com", password: "s3cret-pass" });
    expect(login.body.user_id).toBe(res.body.user_id);
    const user = await server.as("hamlet").get(`/users/${res.body.user_id}`);
    expect(user.body.user).toMatchObject({ full_name: "New Bie", role: 400, is_active: true, email: "newbie@zulip.com" });
  });

  it("refuses non-administrators", async () => {
    const res = await server.as("hamlet").post("/users", { email: "x@zulip.com", password: "s3cret-pass", full_name: "X" });
    expect(res.body).toEqual(error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"));
  });

  it("refuses an address in use, a bad address and a bad name", async () => {
    const iago = server.as("iago");
    expect((await iago.post("/users", { email: "HAMLET@zulip.com", password: "pw-123456", full_name: "H" })).body).toEqual(
      error("Email 'HAMLET@zulip.com' already in use"),
    );
    expect((await iago.post("/users", { email: "not-an-email", password: "pw-123456", full_name: "H" })).body).toEqual(
      error("Bad name or username"),
    );
    expect((await iago.post("/users", { email: "a@zulip.com", password: "pw-123456", full_name: "   " })).body).toEqual(
      error("Name must not be empty!"),
    );
    expect((await iago.post("/users", { email: "a@zulip.com", password: "pw-123456", full_name: "a*b" })).body).toEqual(
      error("Invalid characters in name!"),
    );
    expect((await iago.post("/users", { email: "a@zulip.com", password: "pw-123456", full_name: "x".repeat(101) })).body).toEqual(
      error("Name too long!"),
    );
  });
});

describe("PATCH /users/{user_id}", () => {
  it("changes role and full name", async () => {
    const target = server.users.othello.id;
    expect((await server.as("iago").patch(`/users/${target}`, { role: 300, full_name: "Othello" })).body).toEqual(success());
    const res = await server.as("hamlet").get(`/users/${target}`);
    expect(res.body.user).toMatchObject({ role: 300, full_name: "Othello", is_admin: false });
    await server.as("iago").patch(`/users/${target}`, { role: 400, full_name: "Othello, the Moor of Venice" });
  });

  it("keeps owner changes to owners", async () => {
    const res = await server.as("iago").patch(`/users/${server.users.hamlet.id}`, { role: 100 });
    expect(res.body).toEqual(error("Must be an organization owner", "UNAUTHORIZED_PRINCIPAL"));
    const demote = await server.as("iago").patch(`/users/${server.users.desdemona.id}`, { role: 400 });
    expect(demote.body).toEqual(error("Must be an organization owner", "UNAUTHORIZED_PRINCIPAL"));
  });

  it("refuses to demote the only owner", async () => {
    const res = await server.as("desdemona").patch(`/users/${server.users.desdemona.id}`, { role: 200 });
    expect(res.body).toEqual(error("The owner permission cannot be removed from the only organization owner."));
  });

  it("refuses members and unknown users", async () => {
    expect((await server.as("hamlet").patch(`/users/${server.users.othello.id}`, { full_name: "X" })).body).toEqual(
      error("Insufficient permission"),
    );
    expect((await server.as("iago").patch("/users/9999", { full_name: "X" })).body).toEqual(error("No such user"));
  });

  it("lets a bot's owner rename it", async () => {
    const res = await server.as("hamlet").patch(`/users/${server.users.bot.id}`, { full_name: "Hamlet's helper" });
    expect(res.body).toEqual(success());
  });
});

describe("DELETE /users/{user_id} and reactivation", () => {
  it("deactivates a user and mails them when a comment is given", async () => {
    const created = await server.as("iago").post("/users", { email: "leaving@zulip.com", password: "pw-123456", full_name: "Leaving" });
    const id = created.body.user_id;
    const res = await server.as("iago").delete(`/users/${id}`, { deactivation_notification_comment: "Thanks for everything!" });
    expect(res.body).toEqual(success());
    const user = await server.as("hamlet").get(`/users/${id}`);
    expect(user.body.user.is_active).toBe(false);
    const mail = smtp.mails.find((m) => m.to.includes("leaving@zulip.com"));
    expect(mail?.raw).toContain("Subject: Notification of account deactivation on Zulip Dev");
    expect(mail?.raw).toContain("Thanks for everything!");
    const login = await server.anonymous().post("/fetch_api_key", { username: "leaving@zulip.com", password: "pw-123456" });
    expect(login.status).toBe(401);
    expect(login.body).toEqual(error("Account is deactivated", "USER_DEACTIVATED"));

    const again = await server.as("iago").delete(`/users/${id}`);
    expect(again.body).toEqual(error("User is deactivated"));

    expect((await server.as("iago").post(`/users/${id}/reactivate`)).body).toEqual(success());
    expect((await server.as("hamlet").get(`/users/${id}`)).body.user.is_active).toBe(true);
  });

  it("sends no mail without a comment", async () => {
    const created = await server.as("iago").post("/users", { email: "quiet@zulip.com", password: "pw-123456", full_name: "Quiet" });
    await server.as("iago").delete(`/users/${created.body.user_id}`);
    expect(smtp.mails.some((m) => m.to.includes("quiet@zulip.com"))).toBe(false);
  });

  it("answers a deactivated user's API calls with 401", async () => {
    const created = await server.as("iago").post("/users", { email: "gone@zulip.com", password: "pw-123456", full_name: "Gone" });
    const key = (await server.anonymous().post("/fetch_api_key", { username: "gone@zulip.com", password: "pw-123456" })).body.api_key;
    await server.as("iago").delete(`/users/${created.body.user_id}`);
    const res = await server.as({ ...server.users.hamlet, delivery_email: "gone@zulip.com", api_key: key }).get("/users/me");
    expect(res.status).toBe(401);
    expect(res.body).toEqual(error("Account is deactivated", "UNAUTHORIZED"));
  });

  it("refuses to deactivate the only owner, bots, and for non-administrators", async () => {
    expect((await server.as("desdemona").delete(`/users/${server.users.desdemona.id}`)).body).toEqual(
      error("Cannot deactivate the only organization owner"),
    );
    expect((await server.as("iago").delete(`/users/${server.users.desdemona.id}`)).body).toEqual(
      error("Must be an organization owner", "UNAUTHORIZED_PRINCIPAL"),
    );
    expect((await server.as("iago").delete(`/users/${server.users.bot.id}`)).body).toEqual(error("No such user"));
    expect((await server.as("hamlet").delete(`/users/${server.users.othello.id}`)).body).toEqual(error("Insufficient permission"));
    expect((await server.as("iago").delete("/users/9999")).body).toEqual(error("No such user"));
  });

  it("limits the comment to 2000 characters", async () => {
    const res = await server.as("iago").delete(`/users/${server.users.cordelia.id}`, { deactivation_notification_comment: "x".repeat(2001) });
    expect(res.body).toEqual(error("deactivation_notification_comment is too long (limit: 2000 characters)"));
    expect((await server.as("hamlet").get(`/users/${server.users.cordelia.id}`)).body.user.is_active).toBe(true);
  });

  it("deactivates the bots a user owns along with the user", async () => {
    const owner = await server.as("iago").post("/users", { email: "botowner@zulip.com", password: "pw-123456", full_name: "Bot Owner" });
    const { checkCreateUser } = await import("../../src/actions/users.js");
    const bot = await checkCreateUser(server.app.ctx, {
      realmId: server.users.hamlet.realm_id,
      email: "owned-bot@zulip.com",
      fullName: "Owned bot",
      password: null,
      role: 400,
      bot: { type: 1, ownerId: owner.body.user_id },
    });
    await server.as("iago").delete(`/users/${owner.body.user_id}`);
    expect((await server.as("hamlet").get(`/users/${bot.id}`)).body.user.is_active).toBe(false);
  });
});

describe("DELETE /users/me", () => {
  it("refuses the only owner, with the trailing period", async () => {
    const res = await server.as("desdemona").delete("/users/me");
    expect(res.body).toEqual(
      error("Cannot deactivate the only organization owner.", "CANNOT_DEACTIVATE_LAST_USER", { is_last_owner: true, entity: "organization owner" }),
    );
  });

  it("deactivates the caller", async () => {
    const created = await server.as("iago").post("/users", { email: "selfleave@zulip.com", password: "pw-123456", full_name: "Self" });
    const key = (await server.anonymous().post("/fetch_api_key", { username: "selfleave@zulip.com", password: "pw-123456" })).body.api_key;
    const self = server.as({ ...server.users.hamlet, delivery_email: "selfleave@zulip.com", api_key: key });
    expect((await self.delete("/users/me")).body).toEqual(success());
    expect((await server.as("hamlet").get(`/users/${created.body.user_id}`)).body.user.is_active).toBe(false);
  });
});
