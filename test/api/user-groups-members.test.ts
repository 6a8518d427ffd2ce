import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../harness/client.js";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { groupIdOf, groupIdsByName } from "./user-groups-helpers.js";

let server: TestServer;
let sys: Json;
beforeAll(async () => {
  server = await startServer();
  sys = await groupIdsByName(server);
});
afterAll(() => server.stop());

async function create(name: string, members: number[]): Promise<number> {
  await server.as("iago").post("/user_groups/create", { name, description: "", members }, { validate: false });
  return groupIdOf(server, name);
}

const members = async (id: number, direct = true) =>
  (await server.as("hamlet").get(`/user_groups/${id}/members`, { direct_member_only: direct })).body.members;

describe("POST /user_groups/{id}/members", () => {
  it("adds and removes members in one call", async () => {
    const { hamlet, othello, cordelia } = server.users;
    const id = await create("Team", [hamlet.id, othello.id]);
    const res = await server.as("hamlet").post(`/user_groups/${id}/members`, { add: [cordelia.id], delete: [othello.id] });
    expect(res.body).toEqual(success());
    expect(await members(id)).toEqual([hamlet.id, cordelia.id]);
  });

  it("needs add or delete", async () => {
    const id = await create("Idle", [server.users.hamlet.id]);
    const res = await server.as("hamlet").post(`/user_groups/${id}/members`, {});
    expect(res.body).toEqual(error('Nothing to do. Specify at least one of "add" or "delete".'));
  });

  it("reports existing members, non-members and unknown users exactly, writing nothing", async () => {
    const { hamlet, othello, cordelia } = server.users;
    const id = await create("Exact", [hamlet.id]);
    expect((await server.as("hamlet").post(`/user_groups/${id}/members`, { add: [othello.id, hamlet.id] })).body).toEqual(
      error(`User ${hamlet.id} is already a member of this group`),
    );
    expect((await server.as("hamlet").post(`/user_groups/${id}/members`, { add: [4242] })).body).toEqual(error("Invalid user ID: 4242"));
    expect((await server.as("hamlet").post(`/user_groups/${id}/members`, { add: [othello.id], delete: [cordelia.id] })).body).toEqual(
      error(`There is no member '${cordelia.id}' in this user group`),
    );
    expect(await members(id)).toEqual([hamlet.id]);
  });

  it("follows group access: system groups never, other groups by membership or role", async () => {
    const { hamlet, othello } = server.users;
    const id = await create("Access", [othello.id]);
    expect((await server.as("hamlet").post(`/user_groups/${id}/members`, { add: [hamlet.id] })).body).toEqual(error("Insufficient permission"));
    expect((await server.as("shiva").post(`/user_groups/${id}/members`, { add: [hamlet.id] })).body).toEqual(success());
    expect((await server.as("desdemona").post(`/user_groups/${sys["role:members"]}/members`, { add: [server.users.polonius.id] })).body).toEqual(
      error("Insufficient permission"),
    );
    expect((await server.as("hamlet").post("/user_groups/777/members", { add: [hamlet.id] })).body).toEqual(error("Invalid user group"));
  });
});

describe("GET /user_groups/{id}/members and /members/{user_id}", () => {
  it("answers membership, direct or through subgroups", async () => {
    const { hamlet, iago } = server.users;
    const id = await create("Check", [hamlet.id]);
    await server.as("iago").post(`/user_groups/${id}/subgroups`, { add: [sys["role:administrators"]] });
    const through = await server.as("othello").get(`/user_groups/${id}/members/${iago.id}`);
    expect(through.body).toEqual(success({ is_user_group_member: true }));
    const direct = await server.as("othello").get(`/user_groups/${id}/members/${iago.id}`, { direct_member_only: true });
    expect(direct.body).toEqual(success({ is_user_group_member: false }));
    expect(await members(id, false)).toEqual([server.users.desdemona.id, iago.id, hamlet.id]);
    expect((await server.as("othello").get(`/user_groups/${id}/members/9999`)).body).toEqual(error("No such user"));
    expect((await server.as("othello").get(`/user_groups/9999/members`)).body).toEqual(error("Invalid user group"));
  });
});

describe("subgroups", () => {
  it("adds, lists and removes subgroups", async () => {
    const a = await create("A", [server.users.hamlet.id]);
    const b = await create("B", [server.users.othello.id]);
    const c = await create("C", [server.users.cordelia.id]);
    expect((await server.as("iago").post(`/user_groups/${a}/subgroups`, { add: [b] })).body).toEqual(success());
    expect((await server.as("iago").post(`/user_groups/${b}/subgroups`, { add: [c] })).body).toEqual(success());
    expect((await server.as("hamlet").get(`/user_groups/${a}/subgroups`)).body).toEqual(success({ subgroups: [b, c] }));
    expect((await server.as("hamlet").get(`/user_groups/${a}/subgroups`, { direct_subgroup_only: true })).body).toEqual(success({ subgroups: [b] }));
    expect(await members(a, false)).toEqual([server.users.hamlet.id, server.users.othello.id, server.users.cordelia.id]);
    expect((await server.as("iago").post(`/user_groups/${a}/subgroups`, { add: [b] })).body).toEqual(error(`User group ${b} is already a subgroup of this group.`));
    expect((await server.as("iago").post(`/user_groups/${c}/subgroups`, { add: [a] })).body).toEqual(
      error(`User group ${c} is already a subgroup of one of the passed subgroups.`),
    );
    expect((await server.as("iago").post(`/user_groups/${a}/subgroups`, { add: [a] })).body).toEqual(
      error(`User group ${a} is already a subgroup of one of the passed subgroups.`),
    );
    expect((await server.as("iago").post(`/user_groups/${a}/subgroups`, { add: [9999] })).body).toEqual(error("Invalid user group ID: 9999"));
    expect((await server.as("iago").post(`/user_groups/${a}/subgroups`, { delete: [c] })).body).toEqual(error(`User group ${c} is not a subgroup of this group.`));
    expect((await server.as("iago").post(`/user_groups/${a}/subgroups`, { delete: [b] })).body).toEqual(success());
    expect((await server.as("hamlet").get(`/user_groups/${a}/subgroups`)).body).toEqual(success({ subgroups: [] }));
    expect((await server.as("iago").post(`/user_groups/${a}/subgroups`, {})).body).toEqual(error('Nothing to do. Specify at least one of "add" or "delete".'));
  });

  it("system groups get no new subgroups but may be subgroups", async () => {
    const d = await create("D", [server.users.hamlet.id]);
    expect((await server.as("iago").post(`/user_groups/${sys["role:members"]}/subgroups`, { add: [d] })).body).toEqual(error("Insufficient permission"));
  });
});

describe("system group membership follows roles", () => {
  it("moves a user between role groups, including role:fullmembers", async () => {
    const { othello } = server.users;
    await server.as("desdemona").patch(`/users/${othello.id}`, { role: 300 });
    expect(await members(sys["role:moderators"])).toContain(othello.id);
    expect(await members(sys["role:members"])).not.toContain(othello.id);
    expect(await members(sys["role:fullmembers"])).not.toContain(othello.id);
    await server.as("desdemona").patch(`/users/${othello.id}`, { role: 400 });
    expect(await members(sys["role:members"])).toContain(othello.id);
    expect(await members(sys["role:fullmembers"])).toContain(othello.id);
    expect(await members(sys["role:moderators"])).not.toContain(othello.id);
    await server.as("desdemona").patch(`/users/${othello.id}`, { role: 600 });
    expect(await members(sys["role:everyone"])).toContain(othello.id);
    expect(await members(sys["role:fullmembers"])).not.toContain(othello.id);
    await server.as("desdemona").patch(`/users/${othello.id}`, { role: 400 });
  });

  it("new users join their role's group", async () => {
    const res = await server.as("iago").post("/users", { email: "fresh@zulip.com", password: "pw-123456", full_name: "Fresh" });
    expect(await members(sys["role:members"])).toContain(res.body.user_id);
    expect(await members(sys["role:fullmembers"])).toContain(res.body.user_id);
  });
});
