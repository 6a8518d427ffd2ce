import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Json } from "../harness/client.js";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";

let server: TestServer;
let groups: Json;
beforeAll(async () => {
  server = await startServer();
  const res = await server.as("hamlet").get("/user_groups");
  groups = Object.fromEntries(res.body.user_groups.map((g: Json) => [g.name, g.id]));
});
afterAll(() => server.stop());

/** Zulip ≥ 10.0 (level 317) documents group_id in this answer; at level 275 it is a plain success. */
const noGroupId = { validate: false };

async function groupNamed(name: string): Promise<Json> {
  const res = await server.as("hamlet").get("/user_groups");
  return res.body.user_groups.find((g: Json) => g.name === name);
}

describe("system groups", () => {
  it("every realm has the eight role groups, nested by subgroups, with members by role", async () => {
    const { desdemona, iago, shiva, hamlet, othello, cordelia, polonius, bot } = server.users;
    const res = await server.as("hamlet").get("/user_groups");
    expect(res.status).toBe(200);
    const system = res.body.user_groups.filter((g: Json) => g.is_system_group);
    const g = groups;
    expect(system).toEqual([
      { id: g["role:nobody"], name: "role:nobody", description: "Nobody", members: [], direct_subgroup_ids: [], is_system_group: true, can_mention_group: g["role:nobody"] },
      { id: g["role:owners"], name: "role:owners", description: "Owners of this organization", members: [desdemona.id], direct_subgroup_ids: [], is_system_group: true, can_mention_group: g["role:nobody"] },
      {
        id: g["role:administrators"],
        name: "role:administrators",
        description: "Administrators of this organization, including owners",
        members: [iago.id],
        direct_subgroup_ids: [g["role:owners"]],
        is_system_group: true,
        can_mention_group: g["role:nobody"],
      },
      {
        id: g["role:moderators"],
        name: "role:moderators",
        description: "Moderators of this organization, including administrators",
        members: [shiva.id],
        direct_subgroup_ids: [g["role:administrators"]],
        is_system_group: true,
        can_mention_group: g["role:nobody"],
      },
      {
        id: g["role:fullmembers"],
        name: "role:fullmembers",
        description: "Members of this organization, not including new accounts and guests",
        members: [hamlet.id, othello.id, cordelia.id, bot.id],
        direct_subgroup_ids: [g["role:moderators"]],
        is_system_group: true,
        can_mention_group: g["role:nobody"],
      },
      {
        id: g["role:members"],
        name: "role:members",
        description: "Members of this organization, not including guests",
        members: [hamlet.id, othello.id, cordelia.id, bot.id],
        direct_subgroup_ids: [g["role:fullmembers"]],
        is_system_group: true,
        can_mention_group: g["role:nobody"],
      },
      {
        id: g["role:everyone"],
        name: "role:everyone",
        description: "Everyone in this organization, including guests",
        members: [polonius.id],
        direct_subgroup_ids: [g["role:members"]],
        is_system_group: true,
        can_mention_group: g["role:nobody"],
      },
      { id: g["role:internet"], name: "role:internet", description: "Everyone on the Internet", members: [], direct_subgroup_ids: [g["role:everyone"]], is_system_group: true, can_mention_group: g["role:nobody"] },
    ]);
    expect(system.map((x: Json) => x.id)).toEqual([...system.map((x: Json) => x.id)].sort((a: number, b: number) => a - b));
  });

  it("recursive membership follows the nesting", async () => {
    const res = await server.as("hamlet").get(`/user_groups/${groups["role:members"]}/members`);
    const { desdemona, iago, shiva, hamlet, othello, cordelia, bot } = server.users;
    expect(res.body).toEqual(success({ members: [desdemona.id, iago.id, shiva.id, hamlet.id, othello.id, cordelia.id, bot.id] }));
    const direct = await server.as("hamlet").get(`/user_groups/${groups["role:members"]}/members`, { direct_member_only: true });
    expect(direct.body).toEqual(success({ members: [hamlet.id, othello.id, cordelia.id, bot.id] }));
  });

  it("GET /user_groups is refused to guests and bots", async () => {
    expect((await server.as("polonius").get("/user_groups")).body).toEqual(error("Not allowed for guest users"));
    expect((await server.as("bot").get("/user_groups")).body).toEqual(error("This endpoint does not accept bot requests."));
  });
});

describe("POST /user_groups/create", () => {
  it("creates a group with members; can_mention_group defaults to role:everyone", async () => {
    const { hamlet, othello } = server.users;
    const res = await server.as("hamlet").post("/user_groups/create", { name: "Backend", description: "The backend team", members: [othello.id, hamlet.id] }, noGroupId);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success());
    const group = await groupNamed("Backend");
    expect(group).toEqual({
      id: expect.any(Number),
      name: "Backend",
      description: "The backend team",
      members: [hamlet.id, othello.id],
      direct_subgroup_ids: [],
      is_system_group: false,
      can_mention_group: groups["role:everyone"],
    });
  });

  it("members defaults to none; can_mention_group takes a group id", async () => {
    const res = await server.as("iago").post("/user_groups/create", { name: "Empty", description: "", can_mention_group: groups["role:moderators"] }, noGroupId);
    expect(res.body).toEqual(success());
    expect(await groupNamed("Empty")).toMatchObject({ members: [], can_mention_group: groups["role:moderators"] });
  });

  it("can_mention_group as {direct_members, direct_subgroups}", async () => {
    const { cordelia } = server.users;
    const value = { direct_members: [cordelia.id], direct_subgroups: [groups["role:administrators"]] };
    await server.as("hamlet").post("/user_groups/create", { name: "Anon", description: "x", members: [], can_mention_group: value }, noGroupId);
    expect((await groupNamed("Anon")).can_mention_group).toEqual(value);
  });

  it("an object of one subgroup and no members is that group's id", async () => {
    const value = { direct_members: [], direct_subgroups: [groups["role:members"]] };
    await server.as("hamlet").post("/user_groups/create", { name: "Canon", description: "x", can_mention_group: value }, noGroupId);
    expect((await groupNamed("Canon")).can_mention_group).toBe(groups["role:members"]);
  });

  it("refuses role:internet and role:owners for can_mention_group", async () => {
    const internet = await server.as("hamlet").post("/user_groups/create", { name: "X1", description: "", can_mention_group: groups["role:internet"] });
    expect(internet.body).toEqual(error("'can_mention_group' setting cannot be set to 'role:internet' group."));
    const owners = await server.as("hamlet").post("/user_groups/create", { name: "X1", description: "", can_mention_group: groups["role:owners"] });
    expect(owners.body).toEqual(error("'can_mention_group' setting cannot be set to 'role:owners' group."));
  });

  it("reports unknown users and groups exactly", async () => {
    const bad = await server.as("hamlet").post("/user_groups/create", { name: "X2", description: "", members: [server.users.hamlet.id, 9999] });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(error("Invalid user ID: 9999"));
    const group = await server.as("hamlet").post("/user_groups/create", { name: "X2", description: "", can_mention_group: 9999 });
    expect(group.body).toEqual(error("Invalid user group"));
    const sub = await server.as("hamlet").post("/user_groups/create", { name: "X2", description: "", can_mention_group: { direct_members: [], direct_subgroups: [9999, 1] } });
    expect(sub.body).toEqual(error("Invalid user group ID: 9999"));
    const member = await server.as("hamlet").post("/user_groups/create", { name: "X2", description: "", can_mention_group: { direct_members: [9998], direct_subgroups: [] } });
    expect(member.body).toEqual(error("Invalid user ID: 9998"));
    expect(await groupNamed("X2")).toBeUndefined();
  });

  it("refuses deactivated members", async () => {
    const { iago } = server.users;
    const created = await server.as("iago").post("/users", { email: "gone@zulip.com", password: "pw-123456", full_name: "Gone" });
    await server.as("iago").delete(`/users/${created.body.user_id}`);
    const res = await server.as("iago").post("/user_groups/create", { name: "X3", description: "", members: [iago.id, created.body.user_id] });
    expect(res.body).toEqual(error(`Invalid user ID: ${created.body.user_id}`));
  });

  it("checks names: duplicates, blank, too long, reserved prefixes", async () => {
    const dup = await server.as("hamlet").post("/user_groups/create", { name: "Backend", description: "again" });
    expect(dup.body).toEqual(error("User group 'Backend' already exists."));
    const system = await server.as("hamlet").post("/user_groups/create", { name: "role:members", description: "" });
    expect(system.body).toEqual(error("User group name cannot start with 'role:'."));
    for (const prefix of ["@", "user:", "stream:", "channel:"]) {
      const res = await server.as("hamlet").post("/user_groups/create", { name: `${prefix}x`, description: "" });
      expect(res.body).toEqual(error(`User group name cannot start with '${prefix}'.`));
    }
    expect((await server.as("hamlet").post("/user_groups/create", { name: "  ", description: "" })).body).toEqual(error("User group name can't be empty!"));
    const long = await server.as("hamlet").post("/user_groups/create", { name: "n".repeat(101), description: "" });
    expect(long.body).toEqual(error("User group name cannot exceed 100 characters."));
    const exact = await server.as("hamlet").post("/user_groups/create", { name: "n".repeat(100), description: "" }, noGroupId);
    expect(exact.body).toEqual(success());
  });

  it("two concurrent creations of one name: one wins, the other is a duplicate", async () => {
    const results = await Promise.all(
      [1, 2, 3].map(() => server.as("hamlet").post("/user_groups/create", { name: "Racing", description: "" }, noGroupId)),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    for (const r of results.filter((x) => x.status === 400)) expect(r.body).toEqual(error("User group 'Racing' already exists."));
  });

  it("requires name and description", async () => {
    const res = await server.as("hamlet").post("/user_groups/create", { description: "" });
    expect(res.body).toEqual(error("Missing 'name' argument", "REQUEST_VARIABLE_MISSING", { var_name: "name" }));
    const desc = await server.as("hamlet").post("/user_groups/create", { name: "Y" });
    expect(desc.body).toEqual(error("Missing 'description' argument", "REQUEST_VARIABLE_MISSING", { var_name: "description" }));
  });

  it("is refused to guests and bots", async () => {
    expect((await server.as("polonius").post("/user_groups/create", { name: "G", description: "" })).body).toEqual(error("Not allowed for guest users"));
    expect((await server.as("bot").post("/user_groups/create", { name: "G", description: "" })).body).toEqual(error("This endpoint does not accept bot requests."));
  });

  it("follows the realm's user_group_edit_policy", async () => {
    const ctx = server.app.ctx;
    const realmId = server.users.hamlet.realm_id;
    await ctx.store.write((tx) => tx.updateTable("realm").set({ props: JSON.stringify({ user_group_edit_policy: 2 }) }).where("id", "=", realmId).execute());
    ctx.realms.forget(realmId);
    try {
      const member = await server.as("shiva").post("/user_groups/create", { name: "Mods", description: "" });
      expect(member.body).toEqual(error("Insufficient permission"));
      const admin = await server.as("iago").post("/user_groups/create", { name: "Admins only", description: "" }, noGroupId);
      expect(admin.body).toEqual(success());
    } finally {
      await ctx.store.write((tx) => tx.updateTable("realm").set({ props: "{}" }).where("id", "=", realmId).execute());
      ctx.realms.forget(realmId);
    }
  });
});
