import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { groupIdOf } from "./user-groups-helpers.js";

// Lists from a request can be longer than the values one SQL statement may bind (32,766 on
// SQLite, 65,535 on PostgreSQL): they are read in slices and answered as Zulip answers them.

let server: TestServer;
let group: number;
let field: number;
beforeAll(async () => {
  server = await startServer();
  // group_id in the answer is newer than feature level 277.
  await server.as("iago").post("/user_groups/create", { name: "Long", description: "", members: [server.users.hamlet.id] }, { validate: false });
  group = await groupIdOf(server, "Long");
  field = (await server.as("iago").post("/realm/profile_fields", { name: "Mentor", field_type: 6, hint: "" })).body.id;
});
afterAll(() => server.stop());

/** 70,000 ids: `first`, then ids no user or group has. */
const longList = (first?: number) => [...(first === undefined ? [] : [first]), ...Array.from({ length: 70_000 }, (_, i) => 100_000 + i)];

describe("lists longer than a statement's bound values", () => {
  it("POST /user_groups/create members", async () => {
    const res = await server.as("iago").post("/user_groups/create", { name: "Huge", description: "", members: longList(server.users.othello.id) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("Invalid user ID: 100000"));
  });

  it("POST /user_groups/{id}/members add and delete", async () => {
    const add = await server.as("iago").post(`/user_groups/${group}/members`, { add: longList() });
    expect(add.body).toEqual(error("Invalid user ID: 100000"));
    const remove = await server.as("iago").post(`/user_groups/${group}/members`, { delete: longList(server.users.hamlet.id) });
    expect(remove.body).toEqual(error("Invalid user ID: 100000"));
    expect((await server.as("iago").get(`/user_groups/${group}/members`)).body).toEqual(success({ members: [server.users.hamlet.id] }));
  });

  it("POST /user_groups/{id}/subgroups add and delete", async () => {
    const add = await server.as("iago").post(`/user_groups/${group}/subgroups`, { add: longList() });
    expect(add.body).toEqual(error("Invalid user group ID: 100000"));
    const remove = await server.as("iago").post(`/user_groups/${group}/subgroups`, { delete: longList() });
    expect(remove.body).toEqual(error("Invalid user group ID: 100000"));
  });

  it("POST /typing to", async () => {
    const res = await server.as("hamlet").post("/typing", { op: "start", to: longList(server.users.othello.id) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("Invalid user ID 100000"));
  });

  it("POST /users/me/subscriptions principals", async () => {
    const res = await server.as("iago").post("/users/me/subscriptions", { subscriptions: [{ name: "Verona" }], principals: longList(server.users.hamlet.id) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("No such user"));
  });

  it("PATCH /users/me/profile_data with a user-list value", async () => {
    // Zulip serves this endpoint without documenting it.
    const data = [{ id: field, value: longList(server.users.othello.id) }];
    const res = await server.as("hamlet").patch("/users/me/profile_data", { data }, { validate: false });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("Invalid user ID: 100000"));
  });

  it("DELETE /users/me/alert_words with 70,000 words", async () => {
    await server.as("cordelia").post("/users/me/alert_words", { alert_words: ["kept", "gone"] });
    const words = [...Array.from({ length: 70_000 }, (_, i) => `absent${i}`), "gone"];
    const res = await server.as("cordelia").delete("/users/me/alert_words", { alert_words: words });
    expect(res.body).toEqual(success({ alert_words: ["kept"] }));
  });
});

describe("ids too large to be stored", () => {
  it("match no user or group, on either database", async () => {
    expect((await server.as("iago").post("/user_groups/create", { name: "Big", description: "", members: [3_000_000_000] })).body).toEqual(
      error("Invalid user ID: 3000000000"),
    );
    expect((await server.as("iago").post(`/user_groups/${group}/subgroups`, { add: [3_000_000_000] })).body).toEqual(error("Invalid user group ID: 3000000000"));
    expect((await server.as("hamlet").post("/typing", { op: "start", to: [3_000_000_000] })).body).toEqual(error("Invalid user ID 3000000000"));
  });
});
