import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../harness/client.js";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { createChannels, sendStream } from "./messages-fixtures.js";
import { groupIdsByName } from "./user-groups-helpers.js";

let server: TestServer;
let groups: Record<string, number>;
beforeAll(async () => {
  server = await startServer();
  await createChannels(server);
  groups = await groupIdsByName(server);
});
afterAll(() => server.stop());

const setRealm = async (params: Record<string, Json>) => {
  const res = await server.as("desdemona").patch("/realm", params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};
const realmState = async (): Promise<Json> => (await server.as("hamlet").post("/register", { fetch_event_types: ["realm"] })).body;

describe("POST /register: realm keys of a level-277 server", () => {
  it("sends the settings Zulip 9 has and later versions removed, at Zulip's defaults", async () => {
    const state = await realmState();
    expect([state.realm_delete_own_message_policy, state.realm_bot_creation_policy, state.realm_edit_topic_policy]).toEqual([5, 1, 5]);
    expect([state.realm_message_content_delete_limit_seconds, state.realm_message_content_edit_limit_seconds]).toEqual([600, 600]);
    expect(state.realm_default_external_accounts).toEqual({
      twitter: { text: "Twitter", url_pattern: "https://twitter.com/%(username)s", name: "Twitter username", hint: "" },
      github: { text: "GitHub", url_pattern: "https://github.com/%(username)s", name: "GitHub username", hint: "" },
    });
    expect(state.realm_bot_domain).toBe(new URL(server.app.ctx.config.externalUrl).hostname);
    expect([state.realm_jitsi_server_url, state.jitsi_server_url, state.server_jitsi_server_url]).toEqual([null, "https://meet.jit.si", "https://meet.jit.si"]);
    expect(state.realm_domains).toBeUndefined();
  });

  it("describes which groups each group setting may name", async () => {
    const settings = (await realmState()).server_supported_permission_settings;
    expect(Object.keys(settings.realm)).toEqual([
      "create_multiuse_invite_group",
      "can_access_all_users_group",
      "can_create_public_channel_group",
      "can_create_private_channel_group",
      "direct_message_initiator_group",
      "direct_message_permission_group",
    ]);
    expect(settings.realm.can_access_all_users_group).toEqual({
      require_system_group: true,
      allow_internet_group: false,
      allow_owners_group: false,
      allow_nobody_group: false,
      allow_everyone_group: true,
      default_group_name: "role:everyone",
      id_field_name: "can_access_all_users_group_id",
      default_for_system_groups: null,
      allowed_system_groups: ["role:everyone", "role:members"],
    });
    expect(settings.stream.can_remove_subscribers_group.default_group_name).toBe("role:administrators");
    expect(settings.group.can_mention_group).toMatchObject({ default_group_name: "role:everyone", default_for_system_groups: "role:nobody", allow_nobody_group: true });
  });

  it("reports a deactivated announcement channel as none", async () => {
    const created = await server.as("iago").post("/users/me/subscriptions", { subscriptions: [{ name: "announce" }] });
    expect(created.status).toBe(200);
    const id = (await server.as("iago").get("/get_stream_id", { stream: "announce" })).body.stream_id as number;
    await setRealm({ new_stream_announcements_stream_id: id });
    expect((await realmState()).realm_new_stream_announcements_stream_id).toBe(id);
    await server.app.ctx.store.write((tx) => tx.updateTable("stream").set({ deactivated: 1 }).where("id", "=", id).execute());
    expect((await realmState()).realm_new_stream_announcements_stream_id).toBe(-1);
  });
});

describe("changed settings change what the server allows", () => {
  it("delete_own_message_policy and the delete time limit", async () => {
    const mine = await sendStream(server, "hamlet", "Verona", "effects", "one");
    await setRealm({ delete_own_message_policy: 4 });
    expect((await server.as("hamlet").delete(`/messages/${mine}`)).body).toEqual(error("You don't have permission to delete this message"));
    const shivas = await sendStream(server, "shiva", "Verona", "effects", "two");
    expect((await server.as("shiva").delete(`/messages/${shivas}`)).body).toEqual(success());
    await setRealm({ delete_own_message_policy: 5, message_content_delete_limit_seconds: 60 });
    server.clock.advance(61);
    expect((await server.as("hamlet").delete(`/messages/${mine}`)).body).toEqual(error("The time limit for deleting this message has passed"));
    await setRealm({ message_content_delete_limit_seconds: JSON.stringify("unlimited") });
    expect((await server.as("hamlet").delete(`/messages/${mine}`)).body).toEqual(success());
    await setRealm({ message_content_delete_limit_seconds: 600 });
  });

  it("message editing and its time limit", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "effects", "draft");
    await setRealm({ allow_message_editing: false });
    expect((await server.as("hamlet").patch(`/messages/${id}`, { content: "edited" })).body).toEqual(error("Your organization has turned off message editing"));
    await setRealm({ allow_message_editing: true, message_content_edit_limit_seconds: 30 });
    // Zulip grants 20 seconds past the limit to clients racing it.
    server.clock.advance(51);
    expect((await server.as("hamlet").patch(`/messages/${id}`, { content: "edited" })).body).toEqual(error("The time limit for editing this message has passed"));
    await setRealm({ message_content_edit_limit_seconds: 600 });
    expect((await server.as("hamlet").patch(`/messages/${id}`, { content: "edited" })).body).toEqual(success({ detached_uploads: [] }));
  });

  it("mandatory topics refuse messages sent without one", async () => {
    await setRealm({ mandatory_topics: true });
    const res = await server.as("hamlet").post("/messages", { type: "stream", to: "Verona", topic: "(no topic)", content: "hi" });
    expect(res.body).toEqual(error("Topics are required in this organization"));
    await setRealm({ mandatory_topics: false });
    expect((await server.as("hamlet").post("/messages", { type: "stream", to: "Verona", topic: "(no topic)", content: "hi" })).status).toBe(200);
  });

  it("the waiting period makes new members provisional for group-based permissions", async () => {
    const full = groups["role:fullmembers"] ?? 0;
    const members = async () => (await server.as("hamlet").get(`/user_groups/${full}/members`, { direct_member_only: true })).body.members as number[];
    expect(await members()).toContain(server.users.hamlet.id);
    // Everyone joined when the test server started: a period longer than the time since then.
    await setRealm({ waiting_period_threshold: "30" });
    expect(await members()).toEqual([]);
    await setRealm({ user_group_edit_policy: 3 });
    const create = await server.as("hamlet").post("/user_groups/create", { name: "Newcomers", description: "", members: [] }, { validate: false });
    expect(create.body).toEqual(error("Insufficient permission"));
    await setRealm({ waiting_period_threshold: "0", user_group_edit_policy: 1 });
    expect(await members()).toContain(server.users.hamlet.id);
  });

  it("unique names: no user may take another's name, compared without case or width", async () => {
    await setRealm({ require_unique_names: true });
    const taken = error("Unique names required in this organization.");
    expect((await server.as("hamlet").patch("/settings", { full_name: "IAGO" })).body).toEqual(taken);
    expect((await server.as("iago").patch(`/users/${server.users.hamlet.id}`, { full_name: "ｉａｇｏ" })).body).toEqual(taken);
    expect((await server.as("iago").post("/users", { email: "newcomer@zulip.com", password: "long-password-123", full_name: "othello, the moor of venice" })).body).toEqual(taken);
    expect((await server.as("hamlet").patch("/settings", { full_name: "Prince Hamlet" })).status).toBe(200);
    // Their own name, in another case, is not another's.
    expect((await server.as("iago").patch(`/users/${server.users.hamlet.id}`, { full_name: "PRINCE HAMLET" })).body).toEqual(success());
    await setRealm({ require_unique_names: false });
    expect((await server.as("hamlet").patch("/settings", { full_name: "Iago" })).status).toBe(200);
    expect((await server.as("hamlet").patch("/settings", { full_name: "King Hamlet" })).status).toBe(200);
  });

  it("the organisation's name and description reach /register", async () => {
    await setRealm({ name: "Verona Council", description: "Where **decisions** are made." });
    const state = await realmState();
    expect([state.realm_name, state.realm_description]).toEqual(["Verona Council", "Where **decisions** are made."]);
  });
});
