import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/base/errors.js";
import { checkUserGroupMentionAllowed } from "../../src/lib/groups/user-groups.js";
import type { Json } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { groupIdOf, groupIdsByName } from "./user-groups-helpers.js";

/**
 * can_mention_group: the check itself for each kind of group setting, and POST /messages refusing
 * a mention the sender may not make.
 */
let server: TestServer;
let sys: Json;
beforeAll(async () => {
  server = await startServer();
  sys = await groupIdsByName(server);
});
afterAll(() => server.stop());

async function create(name: string, canMention: unknown): Promise<number> {
  const res = await server.as("iago").post("/user_groups/create", { name, description: "", members: [], can_mention_group: canMention as number }, { validate: false });
  expect(res.status).toBe(200);
  return groupIdOf(server, name);
}

async function refusal(who: "hamlet" | "iago" | "shiva" | "polonius", groupId: number): Promise<string | undefined> {
  try {
    checkUserGroupMentionAllowed(await server.app.ctx.groups.of(server.users[who].realm_id), server.users[who], [groupId]);
    return undefined;
  } catch (error) {
    if (error instanceof ApiError) return error.msg;
    throw error;
  }
}

describe("mentioning a group honours can_mention_group", () => {
  it("role:everyone lets anyone mention, guests included", async () => {
    const id = await create("Open", sys["role:everyone"]);
    expect(await refusal("polonius", id)).toBeUndefined();
  });

  it("a role group admits its members and the roles above", async () => {
    const id = await create("Mods", sys["role:moderators"]);
    expect(await refusal("hamlet", id)).toBe("You are not allowed to mention user group 'Mods'.");
    expect(await refusal("shiva", id)).toBeUndefined();
    expect(await refusal("iago", id)).toBeUndefined();
  });

  it("role:nobody admits nobody; an anonymous group its members and subgroups", async () => {
    const closed = await create("Closed", sys["role:nobody"]);
    expect(await refusal("iago", closed)).toBe("You are not allowed to mention user group 'Closed'.");
    const anon = await create("Anon", { direct_members: [server.users.hamlet.id], direct_subgroups: [sys["role:administrators"]] });
    expect(await refusal("hamlet", anon)).toBeUndefined();
    expect(await refusal("iago", anon)).toBeUndefined();
    expect(await refusal("shiva", anon)).toBe("You are not allowed to mention user group 'Anon'.");
  });

  it("POST /messages refuses a group mention the sender may not make, and sends one it may", async () => {
    await create("Owls", sys["role:moderators"]);
    const to = [server.users.othello.id];
    const refused = await server.as("hamlet").post("/messages", { type: "direct", to, content: "hi @*Owls*" });
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({ result: "error", msg: "You are not allowed to mention user group 'Owls'.", code: "BAD_REQUEST" });
    const silent = await server.as("hamlet").post("/messages", { type: "direct", to, content: "hi @_*Owls*" });
    expect(silent.status).toBe(200);
    const allowed = await server.as("shiva").post("/messages", { type: "direct", to, content: "hi @*Owls*" });
    expect(allowed.status).toBe(200);
  });
});
