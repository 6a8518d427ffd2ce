import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { createChannels, type Channels } from "../api/messages-fixtures.js";
import { groupIdsByName } from "../api/user-groups-helpers.js";
import { checkAction } from "./check-action.js";

let server: TestServer;
let channels: Channels;
let groups: Record<string, number>;
beforeAll(async () => {
  server = await startServer();
  channels = await createChannels(server);
  groups = await groupIdsByName(server);
});
afterAll(() => server.stop());

const patchRealm = (params: Record<string, Json>, who: "desdemona" | "iago" = "desdemona") => async () => {
  const res = await server.as(who).patch("/realm", params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
};

/** The event as the client reads it, without its queue id. */
const bare = (event: Json): Json => {
  const { id: _id, ...rest } = event;
  return rest;
};

describe("consistency of /register state and events: PATCH /realm", () => {
  it("a boolean, an integer with choices and a text setting send realm update", async () => {
    const flags = await checkAction(server, "hamlet", patchRealm({ mandatory_topics: true, delete_own_message_policy: 2, name: "Rookery Dev" }), {
      expectEvents: ["realm:update", "realm:update", "realm:update"],
    });
    expect(flags.map(bare)).toEqual([
      { type: "realm", op: "update", property: "name", value: "Rookery Dev" },
      { type: "realm", op: "update", property: "delete_own_message_policy", value: 2 },
      { type: "realm", op: "update", property: "mandatory_topics", value: true },
    ]);
    const guest = await checkAction(server, "polonius", patchRealm({ description: "A **test** organisation" }, "iago"), { expectEvents: ["realm:update"] });
    expect(bare(guest[0])).toEqual({ type: "realm", op: "update", property: "description", value: "A **test** organisation" });
  });

  it("message editing settings send realm update_dict, a removed limit as null", async () => {
    const events = await checkAction(
      server,
      "othello",
      patchRealm({ allow_message_editing: false, edit_topic_policy: 4, message_content_edit_limit_seconds: JSON.stringify("unlimited") }),
      { expectEvents: ["realm:update_dict", "realm:update_dict", "realm:update_dict"] },
    );
    expect(events.map(bare)).toEqual([
      { type: "realm", op: "update_dict", property: "default", data: { message_content_edit_limit_seconds: null } },
      { type: "realm", op: "update_dict", property: "default", data: { allow_message_editing: false } },
      { type: "realm", op: "update_dict", property: "default", data: { edit_topic_policy: 4 } },
    ]);
    const limit = await checkAction(server, "othello", patchRealm({ message_content_edit_limit_seconds: 3600, allow_message_editing: true }), { expectEvents: 2 });
    expect(limit.map((e: Json) => e.data)).toEqual([{ allow_message_editing: true }, { message_content_edit_limit_seconds: 3600 }]);
  });

  it("the other time limits and the retention period send realm update, null for unlimited", async () => {
    const events = await checkAction(
      server,
      "hamlet",
      patchRealm({ message_content_delete_limit_seconds: JSON.stringify("unlimited"), move_messages_between_streams_limit_seconds: 86400, message_retention_days: 30 }),
      { expectEvents: 3 },
    );
    expect(events.map(bare)).toEqual([
      { type: "realm", op: "update", property: "message_content_delete_limit_seconds", value: null },
      { type: "realm", op: "update", property: "message_retention_days", value: 30 },
      { type: "realm", op: "update", property: "move_messages_between_streams_limit_seconds", value: 86400 },
    ]);
    const back = await checkAction(server, "hamlet", patchRealm({ message_retention_days: JSON.stringify("unlimited") }), { expectEvents: 1 });
    expect(bare(back[0])).toEqual({ type: "realm", op: "update", property: "message_retention_days", value: -1 });
  });

  it("a group setting sends realm update_dict with the group id; the deprecated policy follows", async () => {
    const events = await checkAction(server, "hamlet", patchRealm({ can_create_public_channel_group: groups["role:moderators"] ?? 0 }, "iago"), {
      expectEvents: ["realm:update_dict"],
    });
    expect(bare(events[0])).toEqual({ type: "realm", op: "update_dict", property: "default", data: { can_create_public_channel_group: groups["role:moderators"] } });
    const state = (await server.as("hamlet").post("/register", { fetch_event_types: ["realm"] })).body;
    expect([state.realm_can_create_public_channel_group, state.realm_create_public_stream_policy]).toEqual([groups["role:moderators"], 4]);
    const owner = await checkAction(server, "cordelia", patchRealm({ create_multiuse_invite_group: groups["role:nobody"] ?? 0, direct_message_permission_group: groups["role:members"] ?? 0 }), {
      expectEvents: 2,
    });
    expect(owner.map((e: Json) => e.data)).toEqual([{ create_multiuse_invite_group: groups["role:nobody"] }, { direct_message_permission_group: groups["role:members"] }]);
  });

  it("the Jitsi server: a URL, then back to the server's", async () => {
    const set = await checkAction(server, "hamlet", patchRealm({ jitsi_server_url: JSON.stringify("https://jitsi.example.com") }), { expectEvents: 1 });
    expect(bare(set[0])).toEqual({ type: "realm", op: "update", property: "jitsi_server_url", value: "https://jitsi.example.com" });
    const reset = await checkAction(server, "hamlet", patchRealm({ jitsi_server_url: JSON.stringify("default") }), { expectEvents: 1 });
    expect(bare(reset[0])).toEqual({ type: "realm", op: "update", property: "jitsi_server_url", value: null });
  });

  it("announcement channels and the organisation type", async () => {
    const events = await checkAction(server, "othello", patchRealm({ new_stream_announcements_stream_id: channels.verona, org_type: 20 }), { expectEvents: 2 });
    expect(events.map(bare)).toEqual([
      { type: "realm", op: "update", property: "new_stream_announcements_stream_id", value: channels.verona },
      { type: "realm", op: "update", property: "org_type", value: 20 },
    ]);
    const off = await checkAction(server, "othello", patchRealm({ new_stream_announcements_stream_id: -1 }), { expectEvents: 1 });
    expect(off[0].value).toBe(-1);
  });

  it("a longer waiting period moves members out of role:fullmembers, a shorter one back", async () => {
    const full = groups["role:fullmembers"] ?? 0;
    const longer = await checkAction(server, "hamlet", patchRealm({ waiting_period_threshold: "3" }), { expectEvents: ["realm:update", "user_group:remove_members"] });
    const members = [server.users.hamlet.id, server.users.othello.id, server.users.cordelia.id, server.users.bot.id].sort((a, b) => a - b);
    expect(longer.map(bare)).toEqual([
      { type: "realm", op: "update", property: "waiting_period_threshold", value: 3 },
      { type: "user_group", op: "remove_members", group_id: full, user_ids: members },
    ]);
    const shorter = await checkAction(server, "hamlet", patchRealm({ waiting_period_threshold: "0" }), { expectEvents: ["realm:update", "user_group:add_members"] });
    expect(bare(shorter[1])).toEqual({ type: "user_group", op: "add_members", group_id: full, user_ids: members });
  });
});

describe("consistency of /register state and events: realm domains", () => {
  it("add, change and remove send realm_domains to everyone", async () => {
    const add = await checkAction(server, "polonius", () => server.as("desdemona").post("/realm/domains", { domain: "Zulip.ORG ", allow_subdomains: false }), {
      expectEvents: ["realm_domains:add"],
    });
    expect(bare(add[0])).toEqual({ type: "realm_domains", op: "add", realm_domain: { domain: "zulip.org", allow_subdomains: false } });
    const change = await checkAction(server, "hamlet", () => server.as("desdemona").patch("/realm/domains/zulip.org", { allow_subdomains: true }), {
      expectEvents: ["realm_domains:change"],
    });
    expect(bare(change[0])).toEqual({ type: "realm_domains", op: "change", realm_domain: { domain: "zulip.org", allow_subdomains: true } });
    const remove = await checkAction(server, "hamlet", () => server.as("desdemona").delete("/realm/domains/zulip.org"), { expectEvents: ["realm_domains:remove"] });
    expect(bare(remove[0])).toEqual({ type: "realm_domains", op: "remove", domain: "zulip.org" });
  });

  it("removing the last domain lifts the restriction to domains first", async () => {
    await server.as("desdemona").post("/realm/domains", { domain: "example.com", allow_subdomains: true });
    await patchRealm({ emails_restricted_to_domains: true })();
    const events = await checkAction(server, "iago", () => server.as("desdemona").delete("/realm/domains/example.com"), {
      expectEvents: ["realm:update", "realm_domains:remove"],
    });
    expect(bare(events[0])).toEqual({ type: "realm", op: "update", property: "emails_restricted_to_domains", value: false });
  });
});
