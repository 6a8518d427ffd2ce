import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe("GET /users/me", () => {
  it("returns the caller's own user at top level", async () => {
    const res = await server.as("hamlet").get("/users/me");
    expect(res.status).toBe(200);
    const hamlet = server.users.hamlet;
    expect(res.body).toEqual(
      success({
        avatar_url: expect.stringMatching(/^https:\/\/secure\.gravatar\.com\/avatar\/[0-9a-f]{32}\?d=identicon&version=1$/),
        avatar_version: 1,
        email: "hamlet@zulip.com",
        full_name: "King Hamlet",
        is_admin: false,
        is_owner: false,
        is_billing_admin: false,
        role: 400,
        is_guest: false,
        is_bot: false,
        is_active: true,
        timezone: "",
        date_joined: "2024-05-01T12:00:00.000000+00:00",
        max_message_id: -1,
        user_id: hamlet.id,
        delivery_email: "hamlet@zulip.com",
        profile_data: {},
      }),
    );
  });

  it("reports the owner's derived booleans", async () => {
    const res = await server.as("desdemona").get("/users/me");
    expect(res.body).toMatchObject({ role: 100, is_owner: true, is_admin: true, is_guest: false });
  });

  it("lists unsupported parameters", async () => {
    const plain = await server.as("hamlet").get("/users/me");
    const res = await server.as("hamlet").get("/users/me", { foo: "1", bar: "2" });
    expect(res.body).toEqual({ ...plain.body, ignored_parameters_unsupported: ["bar", "foo"] });
  });

  it("answers each change at once: name, role, profile data and max_message_id", async () => {
    const shiva = server.users.shiva.id;
    const me = () => server.as("shiva").get("/users/me");
    const before = (await me()).body;
    expect((await me()).body).toEqual(before);
    expect((await server.as("iago").patch(`/users/${shiva}`, { full_name: "Shiva the Mod" })).status).toBe(200);
    expect((await me()).body).toMatchObject({ full_name: "Shiva the Mod", role: 300 });
    expect((await server.as("iago").patch(`/users/${shiva}`, { role: 400 })).status).toBe(200);
    expect((await me()).body).toMatchObject({ full_name: "Shiva the Mod", role: 400 });
    const sent = await server.as("othello").post("/messages", { type: "direct", to: JSON.stringify([shiva]), content: "hello" });
    expect((await me()).body.max_message_id).toBe(sent.body.id);
    const field = await server.as("iago").post("/realm/profile_fields", { name: "Motto", field_type: 1 });
    // PATCH /users/me/profile_data is missing from Zulip's OpenAPI document.
    await server.as("shiva").patch("/users/me/profile_data", { data: JSON.stringify([{ id: field.body.id, value: "Nothing" }]) }, { validate: false });
    expect((await me()).body.profile_data).toEqual({ [field.body.id]: { value: "Nothing", rendered_value: "<p>Nothing</p>" } });
    await server.as("iago").patch(`/users/${shiva}`, { full_name: before.full_name, role: 300 });
    expect((await me()).body).toMatchObject({ full_name: before.full_name, role: 300 });
  });
});

describe("GET /users", () => {
  it("lists every user with client_gravatar nulling avatars by default", async () => {
    const res = await server.as("othello").get("/users");
    expect(res.status).toBe(200);
    const emails = res.body.members.map((m: { email: string }) => m.email);
    expect(emails).toContain("default-bot@zulip.com");
    expect(res.body.members).toHaveLength(8);
    const hamlet = res.body.members.find((m: { user_id: number }) => m.user_id === server.users.hamlet.id);
    expect(hamlet.avatar_url).toBeNull();
    expect(hamlet.profile_data).toBeUndefined();
  });

  it("sends avatar URLs when client_gravatar is false, and profile data when asked", async () => {
    const res = await server.as("othello").get("/users", { client_gravatar: false, include_custom_profile_fields: true });
    const hamlet = res.body.members.find((m: { user_id: number }) => m.user_id === server.users.hamlet.id);
    expect(hamlet.avatar_url).toMatch(/^https:\/\/secure\.gravatar\.com/);
    expect(hamlet.profile_data).toEqual({});
    const bot = res.body.members.find((m: { is_bot: boolean }) => m.is_bot);
    expect(bot).toMatchObject({ bot_type: 1, bot_owner_id: server.users.hamlet.id });
  });

  it("rejects a non-JSON boolean", async () => {
    const res = await server.as("othello").get("/users", { client_gravatar: "True" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("client_gravatar is not valid JSON"));
  });

  it("rejects a JSON value that is not a boolean", async () => {
    const res = await server.as("othello").get("/users", { client_gravatar: "1" });
    expect(res.body).toEqual(error("client_gravatar is not a boolean"));
  });
});

describe("GET /users/{user_id} and /users/{email}", () => {
  it("finds a user by id", async () => {
    const res = await server.as("hamlet").get(`/users/${server.users.iago.id}`);
    expect(res.body).toMatchObject({ result: "success", user: { user_id: server.users.iago.id, role: 200, is_admin: true, full_name: "Iago" } });
  });

  it("finds a user by email, case-insensitively", async () => {
    const res = await server.as("hamlet").get("/users/IAGO@zulip.com");
    expect(res.body.user.user_id).toBe(server.users.iago.id);
  });

  it("answers No such user for an unknown id or email", async () => {
    for (const key of ["9999", "nobody@zulip.com"]) {
      const res = await server.as("hamlet").get(`/users/${key}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(error("No such user"));
    }
  });
});

describe("max_message_id", () => {
  it("follows messages received and deleted", async () => {
    const iago = server.as("iago");
    expect((await iago.get("/users/me")).body.max_message_id).toBe(-1);
    const sent = await server.as("hamlet").post("/messages", { type: "direct", to: [server.users.iago.id], content: "hello" });
    expect((await iago.get("/users/me")).body.max_message_id).toBe(sent.body.id);
    expect((await server.as("hamlet").get("/users/me")).body.max_message_id).toBe(sent.body.id);
    expect((await server.as("cordelia").get("/users/me")).body.max_message_id).toBe(-1);
    expect((await iago.delete(`/messages/${sent.body.id}`)).body).toEqual(success());
    expect((await iago.get("/users/me")).body.max_message_id).toBe(-1);
    expect((await server.as("hamlet").get("/users/me")).body.max_message_id).toBe(-1);
  });
});
