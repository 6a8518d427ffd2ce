import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const statusOf = async (id: number) => (await server.as("othello").get(`/users/${id}/status`)).body;

describe("POST /users/me/status", () => {
  it.each([
    [{}, "Client did not pass any new values."],
    [{ emoji_code: "1f697" }, "Client did not pass any new values."],
    [{ status_text: "x", emoji_code: "1f697" }, "Client must pass emoji_name if they pass either emoji_code or reaction_type."],
    [{ away: false, reaction_type: "unicode_emoji" }, "Client must pass emoji_name if they pass either emoji_code or reaction_type."],
    [{ status_text: "x".repeat(61) }, "status_text is too long (limit: 60 characters)"],
    [{ emoji_name: "no_such_emoji" }, "Emoji 'no_such_emoji' does not exist"],
    [{ emoji_name: "car", emoji_code: "1f697", reaction_type: "realm_emoji" }, "Invalid custom emoji."],
    [{ emoji_name: "car", emoji_code: "1f600", reaction_type: "unicode_emoji" }, "Invalid emoji name."],
    [{ emoji_name: "car", emoji_code: "zzzz", reaction_type: "unicode_emoji" }, "Invalid emoji code."],
    [{ emoji_name: "car", emoji_code: "1f697", reaction_type: "other" }, "Invalid emoji type."],
    [{ away: "yes" }, "away is not valid JSON"],
  ])("refuses %j", async (params, msg) => {
    const res = await server.as("hamlet").post("/users/me/status", params);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg));
  });

  it("refuses bots", async () => {
    const res = await server.as("bot").post("/users/me/status", { status_text: "busy" });
    expect(res.body).toEqual(error("This endpoint does not accept bot requests."));
  });

  it("sets text and emoji, looking up the code from the name", async () => {
    const res = await server.as("hamlet").post("/users/me/status", { status_text: "  In a meeting  ", emoji_name: "car" });
    expect(res.body).toEqual(success());
    expect(await statusOf(server.users.hamlet.id)).toEqual(
      success({ status: { status_text: "In a meeting", emoji_name: "car", emoji_code: "1f697", reaction_type: "unicode_emoji" } }),
    );
  });

  it("changes only what was passed, and clears with empty strings", async () => {
    await server.as("hamlet").post("/users/me/status", { status_text: "Lunch" });
    expect((await statusOf(server.users.hamlet.id)).status).toEqual({ status_text: "Lunch", emoji_name: "car", emoji_code: "1f697", reaction_type: "unicode_emoji" });
    await server.as("hamlet").post("/users/me/status", { emoji_name: "" });
    expect((await statusOf(server.users.hamlet.id)).status).toEqual({ status_text: "Lunch" });
    await server.as("hamlet").post("/users/me/status", { status_text: "" });
    expect((await statusOf(server.users.hamlet.id)).status).toEqual({});
  });

  it("accepts the zulip extra emoji", async () => {
    const res = await server.as("cordelia").post("/users/me/status", { emoji_name: "zulip", emoji_code: "zulip", reaction_type: "zulip_extra_emoji" });
    expect(res.body).toEqual(success());
    expect((await statusOf(server.users.cordelia.id)).status).toEqual({ emoji_name: "zulip", emoji_code: "zulip", reaction_type: "zulip_extra_emoji" });
  });

  it("maps the deprecated away onto presence_enabled", async () => {
    await server.as("othello").post("/users/me/status", { away: true });
    expect((await statusOf(server.users.othello.id)).status).toEqual({ away: true });
    const me = await server.as("othello").post("/register", {
      fetch_event_types: ["user_settings"],
      client_capabilities: { notification_settings_null: true, user_settings_object: true },
    });
    expect(me.body.user_settings.presence_enabled).toBe(false);
    await server.as("othello").post("/users/me/status", { away: false });
    expect((await statusOf(server.users.othello.id)).status).toEqual({});
  });
});

describe("GET /users/{user_id}/status", () => {
  it("is an empty object when nothing is set", async () => {
    expect(await statusOf(server.users.iago.id)).toEqual(success({ status: {} }));
  });

  it("refuses unknown users, bots and deactivated users", async () => {
    expect(await statusOf(99999)).toEqual(error("No such user"));
    expect(await statusOf(server.users.bot.id)).toEqual(error("No such user"));
    await server.as("iago").delete(`/users/${server.users.shiva.id}`);
    expect(await statusOf(server.users.shiva.id)).toEqual(error("User is deactivated"));
    await server.as("iago").post(`/users/${server.users.shiva.id}/reactivate`);
  });
});
