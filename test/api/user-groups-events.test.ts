import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { groupIdOf, groupIdsByName } from "./user-groups-helpers.js";
import { checkAction } from "../events/check-action.js";

let server: TestServer;
let sys: Json;
beforeAll(async () => {
  server = await startServer();
  sys = await groupIdsByName(server);
});
afterAll(() => server.stop());

const noGroupId = { validate: false };
// user_group events change the state fetched by the realm_user_groups entry.
const groupEvents = ["user_group", "realm_user_groups"];

async function idOf(name: string): Promise<number> {
  return groupIdOf(server, name);
}

describe("user_group events keep /register's realm_user_groups consistent", () => {
  it("create sends add with the whole group", async () => {
    const { hamlet } = server.users;
    const events = await checkAction(
      server,
      "othello",
      () => server.as("hamlet").post("/user_groups/create", { name: "Evt", description: "d", members: [hamlet.id] }, noGroupId),
      { expectEvents: ["user_group:add"] },
    );
    expect(events[0].group).toEqual({
      id: await idOf("Evt"),
      name: "Evt",
      description: "d",
      members: [hamlet.id],
      direct_subgroup_ids: [],
      is_system_group: false,
      can_mention_group: sys["role:everyone"],
    });
  });

  it("edits send one update per changed property", async () => {
    const id = await idOf("Evt");
    const events = await checkAction(
      server,
      "othello",
      () => server.as("hamlet").patch(`/user_groups/${id}`, { name: "Evt2", description: "d", can_mention_group: { new: { direct_members: [server.users.iago.id], direct_subgroups: [] } } }),
      { expectEvents: ["user_group:update", "user_group:update"] },
    );
    expect(events.map((e) => e.data)).toEqual([{ name: "Evt2" }, { can_mention_group: { direct_members: [server.users.iago.id], direct_subgroups: [] } }]);
    expect(events[0].group_id).toBe(id);
  });

  it("members and subgroups send add/remove events", async () => {
    const id = await idOf("Evt2");
    const { othello, hamlet } = server.users;
    const members = await checkAction(server, "cordelia", () => server.as("hamlet").post(`/user_groups/${id}/members`, { add: [othello.id], delete: [hamlet.id] }), {
      expectEvents: ["user_group:add_members", "user_group:remove_members"],
      eventTypes: groupEvents,
    });
    expect(members.map((e) => [e.group_id, e.user_ids])).toEqual([
      [id, [othello.id]],
      [id, [hamlet.id]],
    ]);
    const sub = await checkAction(server, "cordelia", () => server.as("iago").post(`/user_groups/${id}/subgroups`, { add: [sys["role:moderators"]] }), {
      expectEvents: ["user_group:add_subgroups"],
    });
    expect(sub[0]).toMatchObject({ group_id: id, direct_subgroup_ids: [sys["role:moderators"]] });
    await checkAction(server, "cordelia", () => server.as("iago").post(`/user_groups/${id}/subgroups`, { delete: [sys["role:moderators"]] }), {
      expectEvents: ["user_group:remove_subgroups"],
    });
  });

  it("delete sends remove", async () => {
    const id = await idOf("Evt2");
    const events = await checkAction(server, "cordelia", () => server.as("iago").delete(`/user_groups/${id}`, {}, { validate: false }), {
      expectEvents: ["user_group:remove"],
    });
    expect(events[0]).toMatchObject({ type: "user_group", op: "remove", group_id: id });
  });

  it("a role change moves the user between system groups", async () => {
    const { cordelia } = server.users;
    const events = await checkAction(server, "hamlet", () => server.as("desdemona").patch(`/users/${cordelia.id}`, { role: 300 }), {
      expectEvents: ["realm_user:update", "user_group:remove_members", "user_group:add_members", "user_group:remove_members"],
    });
    expect(events.slice(1).map((e) => [e.op, e.group_id, e.user_ids])).toEqual([
      ["remove_members", sys["role:members"], [cordelia.id]],
      ["add_members", sys["role:moderators"], [cordelia.id]],
      ["remove_members", sys["role:fullmembers"], [cordelia.id]],
    ]);
  });

  it("a new user joins their system groups", async () => {
    const events = await checkAction(server, "hamlet", () => server.as("iago").post("/users", { email: "evt@zulip.com", password: "pw-123456", full_name: "Evt User" }), {
      eventTypes: ["realm_user", "user_group", "realm_user_groups"],
    });
    const added = events.filter((e) => e.type === "user_group");
    expect(added.map((e) => [e.op, e.group_id])).toEqual([
      ["add_members", sys["role:members"]],
      ["add_members", sys["role:fullmembers"]],
    ]);
  });
});
