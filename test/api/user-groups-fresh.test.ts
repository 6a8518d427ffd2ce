import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRealm } from "../../src/actions/realms.js";
import { Client, error, success, type Json } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { groupIdOf, groupIdsByName } from "./user-groups-helpers.js";

/**
 * The group reads (GET /user_groups, members, subgroups, /register, the mention check) answer
 * from memory; each change below must show in the very next read, and a change that fails must
 * never show.
 */
let server: TestServer;
let sys: Json;
beforeAll(async () => {
  server = await startServer();
  sys = await groupIdsByName(server);
});
afterAll(() => server.stop());

/** Direct members of every group, by name, as GET /user_groups shows them now. */
async function membersByName(): Promise<Record<string, number[]>> {
  const res = await server.as("hamlet").get("/user_groups");
  expect(res.status).toBe(200);
  return Object.fromEntries(res.body.user_groups.map((g: Json) => [g.name, g.members]));
}

async function registeredGroups(): Promise<Json[]> {
  const res = await server.as("hamlet").post("/register", { fetch_event_types: JSON.stringify(["realm_user_groups"]) });
  expect(res.status).toBe(200);
  return res.body.realm_user_groups;
}

describe("group reads follow every change at once", () => {
  it("a role change moves the user between system groups in GET /user_groups, members and /register", async () => {
    const othello = server.users.othello.id;
    await membersByName(); // the realm's groups are in memory before the change
    expect((await server.as("iago").patch(`/users/${othello}`, { role: 300 })).body).toEqual(success());
    const after = await membersByName();
    expect(after["role:moderators"]).toContain(othello);
    expect(after["role:members"]).not.toContain(othello);
    expect(after["role:fullmembers"]).not.toContain(othello);
    const recursive = await server.as("hamlet").get(`/user_groups/${sys["role:moderators"]}/members`);
    expect(recursive.body.members).toContain(othello);
    const check = await server.as("hamlet").get(`/user_groups/${sys["role:fullmembers"]}/members/${othello}`, { direct_member_only: true });
    expect(check.body).toEqual({ result: "success", msg: "", is_user_group_member: false });
    const registered = await registeredGroups();
    expect(registered.find((g) => g.name === "role:moderators").members).toContain(othello);

    expect((await server.as("iago").patch(`/users/${othello}`, { role: 400 })).body).toEqual(success());
    const back = await membersByName();
    expect(back["role:moderators"]).not.toContain(othello);
    expect(back["role:members"]).toContain(othello);
    expect(back["role:fullmembers"]).toContain(othello);
  });

  it("deactivation and reactivation keep the user's memberships, as Zulip does before feature level 303", async () => {
    const cordelia = server.users.cordelia.id;
    const id = await server.as("iago").post("/user_groups/create", { name: "Kept", description: "", members: [cordelia] }, { validate: false });
    expect(id.body).toEqual(success());
    const kept = await groupIdOf(server, "Kept");
    const before = await membersByName();
    expect((await server.as("iago").delete(`/users/${cordelia}`)).body).toEqual(success());
    expect(await membersByName()).toEqual(before);
    expect((await server.as("hamlet").get(`/user_groups/${kept}/members`)).body.members).toEqual([cordelia]);
    expect((await server.as("hamlet").get(`/user_groups/${kept}/members/${cordelia}`)).body).toEqual(error("User is deactivated"));
    expect((await server.as("iago").post(`/users/${cordelia}/reactivate`)).body).toEqual(success());
    expect(await membersByName()).toEqual(before);
    expect((await server.as("hamlet").get(`/user_groups/${kept}/members/${cordelia}`)).body.is_user_group_member).toBe(true);
  });

  it("a new user joins the system groups, and a new group, subgroup or rename shows at once", async () => {
    await membersByName();
    const created = await server.as("iago").post("/users", { email: "fresh@zulip.com", password: "secret-pw", full_name: "Fresh" });
    expect(created.status).toBe(200);
    const after = await membersByName();
    expect(after["role:members"]).toContain(created.body.user_id);
    expect(after["role:everyone"]).not.toContain(created.body.user_id);

    const made = await server.as("iago").post("/user_groups/create", { name: "Outer", description: "", members: [] }, { validate: false });
    expect(made.body).toEqual(success());
    const outer = await groupIdOf(server, "Outer");
    expect((await server.as("iago").post(`/user_groups/${outer}/subgroups`, { add: [sys["role:moderators"]] })).body).toEqual(success());
    const nested = await server.as("hamlet").get(`/user_groups/${outer}/subgroups`);
    expect(nested.body.subgroups).toEqual([sys["role:owners"], sys["role:administrators"], sys["role:moderators"]].sort((a: number, b: number) => a - b));
    expect((await server.as("hamlet").get(`/user_groups/${outer}/members`)).body.members).toContain(server.users.shiva.id);
    expect((await server.as("iago").patch(`/user_groups/${outer}`, { name: "Outermost" })).body).toEqual(success());
    expect(Object.keys(await membersByName())).toContain("Outermost");
    // Zulip 10 replaced DELETE by deactivation, so its OpenAPI document lacks it.
    expect((await server.as("iago").delete(`/user_groups/${outer}`, {}, { validate: false })).body).toEqual(success());
    expect(Object.keys(await membersByName())).not.toContain("Outermost");
    expect((await server.as("hamlet").get(`/user_groups/${outer}/members`)).body).toEqual(error("Invalid user group"));
  });

  it("a change rolled back (add succeeded, delete refused in the same call) never shows", async () => {
    const { hamlet, othello, cordelia } = server.users;
    await server.as("iago").post("/user_groups/create", { name: "Atomic", description: "", members: [hamlet.id] }, { validate: false });
    const id = await groupIdOf(server, "Atomic");
    const res = await server.as("iago").post(`/user_groups/${id}/members`, { add: [othello.id], delete: [cordelia.id] });
    expect(res.body).toEqual(error(`There is no member '${cordelia.id}' in this user group`));
    expect((await membersByName())["Atomic"]).toEqual([hamlet.id]);
    expect((await registeredGroups()).find((g) => g.id === id).members).toEqual([hamlet.id]);
  });

  it("a promotion lets the user mention a moderators-only group in the next message", async () => {
    const { hamlet, othello } = server.users;
    await server.as("iago").post("/user_groups/create", { name: "Wardens", description: "", members: [], can_mention_group: sys["role:moderators"] }, { validate: false });
    const send = () => server.as("hamlet").post("/messages", { type: "direct", to: JSON.stringify([othello.id]), content: "@*Wardens* hello" });
    expect((await send()).body).toEqual(error("You are not allowed to mention user group 'Wardens'."));
    await server.as("iago").patch(`/users/${hamlet.id}`, { role: 300 });
    expect((await send()).status).toBe(200);
    await server.as("iago").patch(`/users/${hamlet.id}`, { role: 400 });
    expect((await send()).body).toEqual(error("You are not allowed to mention user group 'Wardens'."));
  });

  it("keeps no load that a committed change overtook (white-box: the event lands while the load runs)", async () => {
    const { ctx } = server.app;
    const realmId = server.users.hamlet.realm_id;
    const polonius = server.users.polonius.id;
    const touched = () =>
      ctx.groups.observe([{ event: { type: "user_group", op: "update", group_id: sys["role:nobody"], data: { description: "Nobody" } }, userIds: [polonius] }]);
    touched();
    const loading = ctx.groups.of(realmId);
    touched();
    await loading;
    // Written behind the cache's back: only a fresh load can see it.
    await ctx.store.write((tx) => tx.insertInto("user_group_member").values({ group_id: sys["role:nobody"], user_id: polonius }).execute());
    expect((await ctx.groups.of(realmId)).get(sys["role:nobody"])?.members).toEqual([polonius]);
    await ctx.store.write((tx) => tx.deleteFrom("user_group_member").where("group_id", "=", sys["role:nobody"]).execute());
    touched();
    expect((await ctx.groups.of(realmId)).get(sys["role:nobody"])?.members).toEqual([]);
  });

  it("answers the groups serialised once with the usual envelope, unknown parameters reported", async () => {
    const plain = await server.as("hamlet").get("/user_groups");
    const extra = await server.as("hamlet").get("/user_groups", { colour: "blue" });
    expect(extra.body).toEqual({ ...plain.body, ignored_parameters_unsupported: ["colour"] });
    expect(Object.keys(plain.body)).toEqual(["result", "msg", "user_groups"]);
    expect(plain.body.user_groups.length).toBeGreaterThan(8);
  });

  it("a realm created while the server runs has its own system groups, its owner in role:owners", async () => {
    const { owner } = await createRealm(server.app.ctx, { name: "Elsewhere", stringId: "elsewhere", ownerEmail: "boss@elsewhere.example", ownerName: "Boss", password: "secret-pw" });
    const boss = new Client(server.url, { email: owner.delivery_email, apiKey: owner.api_key });
    const groups: Json[] = (await boss.get("/user_groups")).body.user_groups;
    expect(groups.map((g) => g.name)).toEqual(Object.keys(sys).filter((name) => name.startsWith("role:")));
    expect(groups.every((g) => !Object.values(sys).includes(g.id))).toBe(true);
    expect(groups.find((g) => g.name === "role:owners").members).toEqual([owner.id]);
    expect((await membersByName())["role:owners"]).not.toContain(owner.id);
  });
});
