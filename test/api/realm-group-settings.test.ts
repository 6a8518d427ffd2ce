import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../harness/client.js";
import { error, success } from "../harness/client.js";
import { startServer, type FixtureName, type TestServer } from "../harness/server.js";
import { setRealmProps } from "./streams-helpers.js";
import { groupIdOf, groupIdsByName } from "./user-groups-helpers.js";

let server: TestServer;
let groups: Record<string, number>;
beforeAll(async () => {
  server = await startServer();
  groups = await groupIdsByName(server);
});
afterAll(() => server.stop());

const GROUP_SETTINGS = [
  "create_multiuse_invite_group",
  "can_access_all_users_group",
  "can_create_public_channel_group",
  "can_create_private_channel_group",
  "direct_message_initiator_group",
  "direct_message_permission_group",
];

async function realmState(who: FixtureName = "hamlet"): Promise<Json> {
  const res = await server.as(who).post("/register", { fetch_event_types: ["realm"] });
  expect(res.status).toBe(200);
  return res.body;
}

/** A user-defined group holding `members` and, as a subgroup, another group holding `nested`. */
async function nestedGroup(name: string, members: FixtureName[], nested: FixtureName[]): Promise<number> {
  const ids = (names: FixtureName[]) => names.map((n) => server.users[n].id);
  const opts = { validate: false };
  await server.as("iago").post("/user_groups/create", { name: `${name} inner`, description: "", members: ids(nested) }, opts);
  await server.as("iago").post("/user_groups/create", { name, description: "", members: ids(members) }, opts);
  const outer = await groupIdOf(server, name);
  await server.as("iago").post(`/user_groups/${outer}/subgroups`, { add: [await groupIdOf(server, `${name} inner`)] });
  return outer;
}

describe("POST /register: group-valued realm settings (feature level 275)", () => {
  it("sends each as the id of the realm's default system group, and the deprecated policies as members", async () => {
    const state = await realmState();
    const sent = Object.fromEntries(Object.entries(state).filter(([k]) => GROUP_SETTINGS.some((s) => k === `realm_${s}`) || /^realm_create_(public|private)_stream_policy$/.test(k)));
    expect(sent).toEqual({
      realm_create_multiuse_invite_group: groups["role:administrators"],
      realm_can_access_all_users_group: groups["role:everyone"],
      realm_can_create_public_channel_group: groups["role:members"],
      realm_can_create_private_channel_group: groups["role:members"],
      realm_direct_message_initiator_group: groups["role:everyone"],
      realm_direct_message_permission_group: groups["role:everyone"],
      realm_create_public_stream_policy: 1,
      realm_create_private_stream_policy: 1,
    });
    for (const setting of GROUP_SETTINGS) expect(Number.isInteger(state[`realm_${setting}`])).toBe(true);
    expect(state.realm_private_message_policy).toBeUndefined();
  });

  it("sends a stored group, and maps role groups to the deprecated policy values (others read as members)", async () => {
    const cases: [string, number][] = [["role:administrators", 2], ["role:moderators", 4], ["role:fullmembers", 3], ["role:owners", 1], ["role:nobody", 1]];
    for (const [name, policy] of cases) {
      await setRealmProps(server, { can_create_public_channel_group: groups[name] ?? 0, can_create_private_channel_group: groups[name] ?? 0 });
      const state = await realmState("othello");
      expect(state.realm_can_create_public_channel_group).toBe(groups[name]);
      expect(state.realm_can_create_private_channel_group).toBe(groups[name]);
      expect([state.realm_create_public_stream_policy, state.realm_create_private_stream_policy]).toEqual([policy, policy]);
    }
    const custom = await nestedGroup("Policy holders", ["hamlet"], []);
    await setRealmProps(server, { can_create_public_channel_group: custom, direct_message_permission_group: custom });
    const state = await realmState();
    expect([state.realm_can_create_public_channel_group, state.realm_direct_message_permission_group]).toEqual([custom, custom]);
    expect(state.realm_create_public_stream_policy).toBe(1);
    await setRealmProps(server, { can_create_public_channel_group: null, can_create_private_channel_group: null, direct_message_permission_group: null });
    expect((await realmState()).realm_can_create_public_channel_group).toBe(groups["role:members"]);
  });
});

describe("POST /users/me/subscriptions: can_create_*_channel_group", () => {
  const create = (who: FixtureName, name: string, inviteOnly = false) =>
    server.as(who).post("/users/me/subscriptions", { subscriptions: [{ name }], invite_only: inviteOnly });

  it("by default lets members create channels, and guests none", async () => {
    expect((await create("hamlet", "Members public")).status).toBe(200);
    expect((await create("cordelia", "Members private", true)).status).toBe(200);
    expect((await create("polonius", "Guest public")).body).toEqual(error("Not allowed for guest users"));
  });

  it("needs membership, direct or through subgroups, of the group for the channel's privacy", async () => {
    const builders = await nestedGroup("Builders", ["othello"], ["cordelia"]);
    await setRealmProps(server, { can_create_public_channel_group: builders });
    expect((await create("othello", "Built directly")).status).toBe(200);
    expect((await create("cordelia", "Built through subgroup")).status).toBe(200);
    for (const who of ["hamlet", "iago", "desdemona"] as const) {
      expect((await create(who, `Not built by ${who}`)).body).toEqual(error("Insufficient permission"));
    }
    // Private channels follow their own setting, still role:members.
    expect((await create("hamlet", "Private still allowed", true)).status).toBe(200);
    // Joining an existing channel needs no creation permission.
    expect((await create("hamlet", "Built directly")).body).toEqual(success({ subscribed: { "hamlet@zulip.com": ["Built directly"] }, already_subscribed: {} }));
    await setRealmProps(server, { can_create_public_channel_group: null });
  });

  it("refuses everyone when the group is role:nobody, owners included", async () => {
    await setRealmProps(server, { can_create_private_channel_group: groups["role:nobody"] ?? 0 });
    for (const who of ["desdemona", "iago", "hamlet"] as const) {
      expect((await create(who, `Nobody's ${who}`, true)).body).toEqual(error("Insufficient permission"));
    }
    expect((await create("hamlet", "Public while private is closed")).status).toBe(200);
    await setRealmProps(server, { can_create_private_channel_group: null });
  });
});

describe("POST /invites/multiuse: create_multiuse_invite_group", () => {
  it("follows a stored group, through its subgroups", async () => {
    const linkers = await nestedGroup("Linkers", [], ["hamlet"]);
    await setRealmProps(server, { create_multiuse_invite_group: linkers });
    const res = await server.as("hamlet").post("/invites/multiuse", {});
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success({ invite_link: expect.stringMatching(/\/join\/[A-Za-z0-9]+\/$/) }));
    expect((await server.as("iago").post("/invites/multiuse", {})).body).toEqual(error("Insufficient permission"));
    await setRealmProps(server, { create_multiuse_invite_group: null });
    expect((await server.as("iago").post("/invites/multiuse", {})).status).toBe(200);
    expect((await server.as("hamlet").post("/invites/multiuse", {})).body).toEqual(error("Insufficient permission"));
  });
});
