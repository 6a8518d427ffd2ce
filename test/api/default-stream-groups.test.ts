import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { error, success, type Json } from "../harness/client.js";
import { startServer, type FixtureName, type TestServer } from "../harness/server.js";
import { createStreams } from "./streams-helpers.js";

let server: TestServer;
let ids: Record<string, number>;
beforeAll(async () => {
  server = await startServer();
  ids = await createStreams(server, "iago", ["Verona", "Denmark", "Scotland", "Rome"]);
  Object.assign(ids, await createStreams(server, "iago", ["secret"], { invite_only: true }));
  Object.assign(ids, await createStreams(server, "hamlet", ["hamlet only"], { invite_only: true }));
});
afterAll(() => server.stop());

type Group = { name: string; id: number; description: string; streams: { stream_id: number; name: string }[] };
const groups = async (who: FixtureName = "othello") =>
  (await server.as(who).post("/register", { fetch_event_types: ["default_stream_groups"] })).body.realm_default_stream_groups as Group[];
const summary = async () => (await groups()).map((g) => ({ name: g.name, description: g.description, streams: g.streams.map((s) => s.name) }));
const create = (group_name: string, description: string, names: string[], who: FixtureName = "iago") =>
  server.as(who).post("/default_stream_groups/create", { group_name, description, stream_names: JSON.stringify(names) });
const groupId = async (name: string) => (await groups()).find((g) => g.name === name)?.id ?? -1;
const patch = (id: number, params: Record<string, Json>, who: FixtureName = "iago") => server.as(who).patch(`/default_stream_groups/${id}`, params);
const channels = (id: number, op: string, names: string[], who: FixtureName = "iago") =>
  server.as(who).patch(`/default_stream_groups/${id}/streams`, { op, stream_names: JSON.stringify(names) });

beforeEach(async () => {
  for (const group of await groups()) await server.as("iago").delete(`/default_stream_groups/${group.id}`);
});

describe("POST /default_stream_groups/create", () => {
  it("creates a group; groups come sorted by name, their channels by name, as channel objects", async () => {
    expect((await create("group1", "This is group1", ["Verona", "Denmark", "secret"])).body).toEqual(success());
    expect((await create("another", "", [])).body).toEqual(success());
    expect(await summary()).toEqual([
      { name: "another", description: "", streams: [] },
      { name: "group1", description: "This is group1", streams: ["Denmark", "Verona", "secret"] },
    ]);
    const [, group1] = await groups();
    expect(group1?.streams[0]).toMatchObject({ stream_id: ids.Denmark, name: "Denmark", invite_only: false, description: "" });
  });

  it("refuses a name already taken, blank, too long or with NUL", async () => {
    await create("group1", "first", ["Verona"]);
    expect((await create("group1", "first", ["Rome"])).body).toEqual(error("Default channel group 'group1' already exists"));
    expect((await create("group1", "another description", [])).body).toEqual(error("Default channel group 'group1' already exists"));
    expect((await create(" ", "", [])).body).toEqual(error("Invalid default channel group name ' '"));
    expect((await create("x".repeat(61), "", [])).body).toEqual(error("Default channel group name too long (limit: 60 characters)"));
    expect((await create("a\0b", "", [])).body).toEqual(error("Default channel group name 'a\0b' contains NULL (0x00) characters."));
    expect((await create("x".repeat(60), "", [])).body).toEqual(success());
    expect((await summary()).map((g) => g.name)).toEqual(["group1", "x".repeat(60)]);
  });

  it("refuses default channels and channels the caller cannot reach, first in the order of the list", async () => {
    await server.as("iago").post("/default_streams", { stream_id: ids.Rome ?? 0 });
    try {
      expect((await create("g", "", ["Verona", "Rome"])).body).toEqual(error("'Rome' is a default channel and cannot be added to 'g'"));
      // The channel check comes before the name check.
      expect((await create(" ", "", ["Rome"])).body).toEqual(error("'Rome' is a default channel and cannot be added to ' '"));
      expect((await create("g", "", ["nowhere", "Rome"])).body).toEqual(error("Invalid channel name 'nowhere'"));
      expect((await create("g", "", ["hamlet only"])).body).toEqual(error("Invalid channel name 'hamlet only'"));
      expect(await groups()).toEqual([]);
    } finally {
      await server.as("iago").delete("/default_streams", { stream_id: ids.Rome ?? 0 });
    }
  });

  it("checks its parameters after the administrator check", async () => {
    const missing = (name: string) => error(`Missing '${name}' argument`, "REQUEST_VARIABLE_MISSING", { var_name: name });
    expect((await server.as("iago").post("/default_stream_groups/create", { description: "", stream_names: "[]" })).body).toEqual(missing("group_name"));
    expect((await server.as("iago").post("/default_stream_groups/create", { group_name: "g", stream_names: "[]" })).body).toEqual(missing("description"));
    expect((await server.as("iago").post("/default_stream_groups/create", { group_name: "g", description: "" })).body).toEqual(missing("stream_names"));
    expect((await server.as("iago").post("/default_stream_groups/create", { group_name: "g", description: "", stream_names: "Verona" })).body).toEqual(
      error("stream_names is not valid JSON"),
    );
    expect((await server.as("iago").post("/default_stream_groups/create", { group_name: "g", description: "", stream_names: "[1]" })).body).toEqual(
      error("stream_names[0] is not a string"),
    );
    for (const who of ["hamlet", "shiva", "polonius"] as const) {
      expect((await server.as(who).post("/default_stream_groups/create", {})).body).toEqual(error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"));
    }
    expect((await create("by owner", "", ["Verona"], "desdemona")).body).toEqual(success());
  });

  it("shows guests no groups", async () => {
    await create("group1", "", ["Verona"]);
    expect(await groups("polonius")).toEqual([]);
    expect(await groups("hamlet")).toHaveLength(1);
  });
});

describe("PATCH /default_stream_groups/{group_id}", () => {
  it("renames and redescribes", async () => {
    await create("group1", "old", ["Verona"]);
    const id = await groupId("group1");
    expect((await patch(id, { new_group_name: "group2" })).body).toEqual(success());
    expect((await patch(id, { new_description: "new" })).body).toEqual(success());
    expect(await summary()).toEqual([{ name: "group2", description: "new", streams: ["Verona"] }]);
    expect((await patch(id, { new_group_name: "group3", new_description: "newer" })).body).toEqual(success());
    expect(await summary()).toEqual([{ name: "group3", description: "newer", streams: ["Verona"] }]);
  });

  it("refuses nothing to change, unknown groups, the same name and a taken name", async () => {
    await create("group1", "", []);
    await create("group2", "", []);
    const id = await groupId("group1");
    const nothing = error('You must pass "new_description" or "new_group_name".');
    expect((await patch(id, {})).body).toEqual(nothing);
    expect((await patch(id, { new_group_name: "", new_description: "" })).body).toEqual(nothing);
    expect((await patch(id + 1000, {})).body).toEqual(nothing);
    expect((await patch(id + 1000, { new_description: "x" })).body).toEqual(error(`Default channel group with id '${id + 1000}' does not exist.`));
    expect((await patch(id, { new_group_name: "group1" })).body).toEqual(error("This default channel group is already named 'group1'"));
    expect((await patch(id, { new_group_name: "group2" })).body).toEqual(error("Default channel group 'group2' already exists"));
    expect((await patch(id, { new_group_name: "x".repeat(61) })).body).toEqual(error("Default channel group name too long (limit: 60 characters)"));
    expect((await patch(id, { new_group_name: "group2", new_description: "d" })).body).toEqual(error("Default channel group 'group2' already exists"));
    expect((await summary())[0]).toEqual({ name: "group1", description: "", streams: [] });
    expect((await patch(id, { new_description: "x" }, "hamlet")).body).toEqual(error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"));
  });
});

describe("PATCH /default_stream_groups/{group_id}/streams", () => {
  it("adds and removes channels", async () => {
    await create("group1", "", ["Verona"]);
    const id = await groupId("group1");
    expect((await channels(id, "add", ["Scotland", "Denmark"])).body).toEqual(success());
    expect((await summary())[0]?.streams).toEqual(["Denmark", "Scotland", "Verona"]);
    expect((await channels(id, "remove", ["Verona", "Scotland"])).body).toEqual(success());
    expect((await summary())[0]?.streams).toEqual(["Denmark"]);
  });

  it("refuses channels already there, absent, default, unknown, in Zulip's order; changes nothing then", async () => {
    await create("group1", "", ["Verona"]);
    const id = await groupId("group1");
    expect((await channels(id, "add", ["Denmark", "Verona"])).body).toEqual(error("Channel 'Verona' is already present in default channel group 'group1'"));
    expect((await channels(id, "add", ["Denmark", "Denmark"])).body).toEqual(error("Channel 'Denmark' is already present in default channel group 'group1'"));
    expect((await channels(id, "remove", ["Verona", "Rome"])).body).toEqual(error("Channel 'Rome' is not present in default channel group 'group1'"));
    await server.as("iago").post("/default_streams", { stream_id: ids.Rome ?? 0 });
    try {
      expect((await channels(id, "add", ["Rome"])).body).toEqual(error("'Rome' is a default channel and cannot be added to 'group1'"));
    } finally {
      await server.as("iago").delete("/default_streams", { stream_id: ids.Rome ?? 0 });
    }
    expect((await channels(id, "add", ["nowhere"])).body).toEqual(error("Invalid channel name 'nowhere'"));
    expect((await channels(id, "drop", ["nowhere"])).body).toEqual(error("Invalid channel name 'nowhere'"));
    expect((await channels(id, "drop", ["Rome"])).body).toEqual(error('Invalid value for "op". Specify one of "add" or "remove".'));
    expect((await channels(id + 1000, "drop", ["nowhere"])).body).toEqual(error(`Default channel group with id '${id + 1000}' does not exist.`));
    expect((await summary())[0]?.streams).toEqual(["Verona"]);
    expect((await channels(id, "add", ["Rome"], "othello")).body).toEqual(error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"));
  });
});

describe("DELETE /default_stream_groups/{group_id}", () => {
  it("deletes the group; an unknown group does not exist", async () => {
    await create("group1", "", ["Verona"]);
    const id = await groupId("group1");
    expect((await server.as("hamlet").delete(`/default_stream_groups/${id}`)).body).toEqual(error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"));
    expect((await server.as("iago").delete(`/default_stream_groups/${id}`)).body).toEqual(success());
    expect(await groups()).toEqual([]);
    expect((await server.as("iago").delete(`/default_stream_groups/${id}`)).body).toEqual(error(`Default channel group with id '${id}' does not exist.`));
  });

  it("has no GET at feature level 277", async () => {
    const res = await server.as("iago").get("/default_stream_groups", {}, { validate: false });
    expect(res.status).toBe(404);
  });
});

describe("archiving a channel", () => {
  it("takes it out of every group", async () => {
    const made = await createStreams(server, "iago", ["doomed"]);
    await create("group1", "", ["Verona", "doomed"]);
    await create("group2", "", ["doomed"]);
    expect((await server.as("iago").delete(`/streams/${made.doomed}`)).body).toEqual(success());
    expect(await summary()).toEqual([
      { name: "group1", description: "", streams: ["Verona"] },
      { name: "group2", description: "", streams: [] },
    ]);
  });
});
