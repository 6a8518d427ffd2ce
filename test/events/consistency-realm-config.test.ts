import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../harness/server.js";
import { createStreams } from "../api/streams-helpers.js";
import { checkAction } from "./check-action.js";

let server: TestServer;
let ids: Record<string, number>;
beforeAll(async () => {
  server = await startServer();
  ids = await createStreams(server, "iago", ["Verona", "Denmark", "Scotland"], { principals: [server.users.iago.id, server.users.hamlet.id] });
});
afterAll(() => server.stop());

/** Clients that read URL templates; the only ones realm_linkifiers goes to. */
const MODERN = { notification_settings_null: true, linkifier_url_template: true };
const TEMPLATE = "https://trac.example.com/ticket/{id}";

describe("consistency: linkifiers", () => {
  it("add, update, reorder and remove each send the whole ordered list", async () => {
    const added = await checkAction(server, "hamlet", () => server.as("iago").post("/realm/filters", { pattern: "#(?P<id>[0-9]+)", url_template: TEMPLATE }), {
      capabilities: MODERN,
      expectEvents: ["realm_linkifiers"],
    });
    const first = added[0]?.realm_linkifiers[0].id as number;
    expect(added[0]).toEqual({ id: expect.any(Number), type: "realm_linkifiers", realm_linkifiers: [{ pattern: "#(?P<id>[0-9]+)", url_template: TEMPLATE, id: first }] });
    const second = await checkAction(server, "polonius", () => server.as("iago").post("/realm/filters", { pattern: "ZUL-(?P<id>\\d+)", url_template: TEMPLATE }), {
      capabilities: MODERN,
      expectEvents: ["realm_linkifiers"],
    });
    const secondId = second[0]?.realm_linkifiers[1].id as number;
    await checkAction(server, "hamlet", () => server.as("iago").patch(`/realm/filters/${first}`, { pattern: "#(?P<id>[0-9]{2,})", url_template: TEMPLATE }), {
      capabilities: MODERN,
      expectEvents: ["realm_linkifiers"],
    });
    const reordered = await checkAction(server, "hamlet", () => server.as("iago").patch("/realm/linkifiers", { ordered_linkifier_ids: JSON.stringify([secondId, first]) }), {
      capabilities: MODERN,
      expectEvents: ["realm_linkifiers"],
    });
    expect(reordered[0]?.realm_linkifiers.map((l: { id: number }) => l.id)).toEqual([secondId, first]);
    await checkAction(server, "hamlet", () => server.as("iago").delete(`/realm/filters/${secondId}`), { capabilities: MODERN, expectEvents: ["realm_linkifiers"] });
    const fetched = await server.as("hamlet").post("/register", { fetch_event_types: ["realm_linkifiers"], client_capabilities: MODERN });
    expect(fetched.body.realm_linkifiers).toEqual([{ pattern: "#(?P<id>[0-9]{2,})", url_template: TEMPLATE, id: first }]);
  });

  it("clients without linkifier_url_template get an empty list and no events; realm_filters is always empty", async () => {
    await checkAction(server, "hamlet", () => server.as("iago").post("/realm/filters", { pattern: "legacy-(?P<id>\\d+)", url_template: TEMPLATE }), {
      eventTypes: ["realm_linkifiers", "realm_filters"],
      expectEvents: 0,
      changesState: false,
    });
    const old = await server.as("hamlet").post("/register", { fetch_event_types: ["realm_linkifiers", "realm_filters"] });
    expect(old.body.realm_linkifiers).toEqual([]);
    expect(old.body.realm_filters).toEqual([]);
    const modern = await server.as("hamlet").post("/register", {
      fetch_event_types: ["realm_linkifiers", "realm_filters"],
      client_capabilities: MODERN,
    });
    expect(modern.body.realm_linkifiers).toHaveLength(2);
    expect(modern.body.realm_filters).toEqual([]);
    await checkAction(server, "hamlet", () => server.as("iago").delete(`/realm/filters/${modern.body.realm_linkifiers[1].id}`), {
      capabilities: MODERN,
      eventTypes: ["realm_filters", "realm_linkifiers"],
      expectEvents: ["realm_linkifiers"],
    });
  });

  it("a refused change sends nothing", async () => {
    await checkAction(server, "hamlet", () => server.as("iago").post("/realm/filters", { pattern: "(", url_template: TEMPLATE }), {
      capabilities: MODERN,
      expectEvents: 0,
      changesState: false,
    });
  });
});

describe("consistency: code playgrounds", () => {
  it("add and remove send the whole list to every user, guests included", async () => {
    const added = await checkAction(
      server,
      "polonius",
      () => server.as("iago").post("/realm/playgrounds", { name: "Python playground", pygments_language: "Python", url_template: "https://python.example.com?code={code}" }),
      { expectEvents: ["realm_playgrounds"] },
    );
    const id = added[0]?.realm_playgrounds[0].id as number;
    expect(added[0]).toEqual({
      id: expect.any(Number),
      type: "realm_playgrounds",
      realm_playgrounds: [{ id, name: "Python playground", pygments_language: "Python", url_template: "https://python.example.com?code={code}" }],
    });
    const removed = await checkAction(server, "hamlet", () => server.as("iago").delete(`/realm/playgrounds/${id}`), { expectEvents: ["realm_playgrounds"] });
    expect(removed[0]?.realm_playgrounds).toEqual([]);
  });
});

describe("consistency: default channel groups", () => {
  const create = (group_name: string, names: string[]) =>
    server.as("iago").post("/default_stream_groups/create", { group_name, description: "d", stream_names: JSON.stringify(names) });
  const groupId = async (name: string): Promise<number> => {
    const state = await server.as("iago").post("/register", { fetch_event_types: ["default_stream_groups"] });
    return (state.body.realm_default_stream_groups as { id: number; name: string }[]).find((g) => g.name === name)?.id ?? -1;
  };

  it("create, rename, redescribe, change channels and delete each send every group", async () => {
    const created = await checkAction(server, "hamlet", () => create("group1", ["Verona", "Denmark"]), { expectEvents: ["default_stream_groups"] });
    const group = created[0]?.default_stream_groups[0];
    expect(group).toMatchObject({ name: "group1", description: "d" });
    expect(group.streams.map((s: { stream_id: number }) => s.stream_id)).toEqual([ids.Denmark, ids.Verona]);
    const id = group.id as number;
    await checkAction(server, "hamlet", () => server.as("iago").patch(`/default_stream_groups/${id}`, { new_group_name: "group2" }), { expectEvents: ["default_stream_groups"] });
    await checkAction(server, "hamlet", () => server.as("iago").patch(`/default_stream_groups/${id}`, { new_description: "e" }), { expectEvents: ["default_stream_groups"] });
    await checkAction(server, "hamlet", () => server.as("iago").patch(`/default_stream_groups/${id}`, { new_group_name: "group3", new_description: "f" }), {
      expectEvents: ["default_stream_groups", "default_stream_groups"],
    });
    const patchChannels = (op: string, names: string[]) => server.as("iago").patch(`/default_stream_groups/${id}/streams`, { op, stream_names: JSON.stringify(names) });
    await checkAction(server, "hamlet", () => patchChannels("add", ["Scotland"]), { expectEvents: ["default_stream_groups"] });
    await checkAction(server, "hamlet", () => patchChannels("remove", ["Verona"]), { expectEvents: ["default_stream_groups"] });
    const deleted = await checkAction(server, "hamlet", () => server.as("iago").delete(`/default_stream_groups/${id}`), { expectEvents: ["default_stream_groups"] });
    expect(deleted[0]?.default_stream_groups).toEqual([]);
  });

  it("guests get nothing", async () => {
    await checkAction(server, "polonius", () => create("hidden", ["Verona"]), { expectEvents: 0, changesState: false });
    await server.as("iago").delete(`/default_stream_groups/${await groupId("hidden")}`);
  });

  it("a channel's changes reach the channel objects of its groups", async () => {
    await create("renames", ["Denmark"]);
    await checkAction(server, "hamlet", () => server.as("iago").patch(`/streams/${ids.Denmark}`, { new_name: "Danmark" }), { expectEvents: ["stream:update"] });
    await checkAction(server, "hamlet", () => server.as("iago").patch(`/streams/${ids.Denmark}`, { description: "**Something** rotten" }), {
      expectEvents: ["stream:update"],
    });
    await server.as("iago").delete(`/default_stream_groups/${await groupId("renames")}`);
  });

  it("archiving a channel takes it out of its groups first, and out of the default channels", async () => {
    const made = await createStreams(server, "iago", ["doomed"], { principals: [server.users.iago.id, server.users.hamlet.id] });
    const doomed = made.doomed ?? 0;
    await create("with doomed", ["doomed", "Verona"]);
    await create("only doomed", ["doomed"]);
    await checkAction(server, "hamlet", () => server.as("iago").delete(`/streams/${doomed}`), {
      expectEvents: ["default_stream_groups", "default_stream_groups", "stream:delete"],
    });
    const other = await createStreams(server, "iago", ["default doomed"]);
    await server.as("iago").post("/default_streams", { stream_id: other["default doomed"] ?? 0 });
    await checkAction(server, "hamlet", () => server.as("iago").delete(`/streams/${other["default doomed"]}`), {
      expectEvents: ["default_streams", "stream:delete"],
    });
  });
});
