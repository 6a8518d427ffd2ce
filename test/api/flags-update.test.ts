import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { createChannels, sendDirect, sendStream } from "./messages-fixtures.js";

let server: TestServer;
let ids: number[];

beforeAll(async () => {
  server = await startServer();
  await createChannels(server);
  ids = [];
  for (let i = 0; i < 5; i++) ids.push(await sendStream(server, "othello", "Verona", "flags", `m${i}`));
});
afterAll(() => server.stop());

const flagsOf = async (id: number) => (await server.as("hamlet").get(`/messages/${id}`)).body.message.flags;

describe("POST /messages/flags", () => {
  it("adds and removes, echoing the request's list", async () => {
    const res = await server.as("hamlet").post("/messages/flags", { messages: [ids[0], ids[1]], op: "add", flag: "starred" });
    expect(res.body).toEqual(success({ messages: [ids[0], ids[1]] }));
    expect(await flagsOf(ids[0] ?? 0)).toEqual(["starred"]);
    await server.as("hamlet").post("/messages/flags", { messages: [ids[0]], op: "remove", flag: "starred" });
    expect(await flagsOf(ids[0] ?? 0)).toEqual([]);
    expect(await flagsOf(ids[1] ?? 0)).toEqual(["starred"]);
  });

  it.each([
    [{ messages: [1], op: "add", flag: "bogus" }, error("Invalid flag: 'bogus'")],
    [{ messages: [1], op: "add", flag: "wildcard_mentioned" }, error("Invalid flag: 'wildcard_mentioned'")],
    [{ messages: [1], op: "add", flag: "is_private" }, error("Invalid flag: 'is_private'")],
    [{ messages: [1], op: "add", flag: "mentioned" }, error("Flag not editable: 'mentioned'")],
    [{ messages: [1], op: "add", flag: "historical" }, error("Flag not editable: 'historical'")],
    [{ messages: [1], op: "toggle", flag: "read" }, error("Invalid message flag operation: 'toggle'")],
    [{ messages: "x", op: "add", flag: "read" }, error("messages is not valid JSON")],
    [{ messages: ["a"], op: "add", flag: "read" }, error("messages[0] is not an integer")],
    [{ op: "add", flag: "read" }, error("Missing 'messages' argument", "REQUEST_VARIABLE_MISSING", { var_name: "messages" })],
  ])("refuses %j", async (params, expected) => {
    const res = await server.as("hamlet").post("/messages/flags", params);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
  });

  it("starring a message one cannot read is Invalid message(s); marking it read is silently fine", async () => {
    const dm = await sendDirect(server, "othello", ["iago"], "secret");
    expect((await server.as("hamlet").post("/messages/flags", { messages: [dm], op: "add", flag: "starred" })).body).toEqual(error("Invalid message(s)"));
    expect((await server.as("hamlet").post("/messages/flags", { messages: [dm, 999999], op: "add", flag: "read" })).body).toEqual(success({ messages: [dm, 999999] }));
    expect((await server.as("hamlet").get(`/messages/${dm}`)).status).toBe(400);
  });

  it("adding read echoes every requested id, as Zulip 9.0 does, but its event lists only those that changed", async () => {
    const hamlet = server.as("hamlet");
    const queue = (await hamlet.post("/register", { event_types: ["update_message_flags"], fetch_event_types: [] })).body.queue_id;
    const unread = await sendStream(server, "othello", "Verona", "echo", "unread for hamlet");
    const secret = await sendDirect(server, "othello", ["iago"], "not for hamlet");
    const res = await hamlet.post("/messages/flags", { messages: [secret, unread, 999999], op: "add", flag: "read" });
    expect(res.body).toEqual(success({ messages: [secret, unread, 999999] }));
    const events = (await hamlet.get("/events", { queue_id: queue, last_event_id: -1, dont_block: true })).body.events;
    expect(events).toEqual([{ id: 0, type: "update_message_flags", op: "add", operation: "add", flag: "read", messages: [unread], all: false }]);
    expect((await hamlet.get(`/messages/${secret}`)).body).toEqual(error("Invalid message(s)"));
  });

  it("starring unreceived public history creates a historical row", async () => {
    const id = await sendStream(server, "iago", "Denmark", "old", "before cordelia looked");
    await server.as("cordelia").post("/messages/flags", { messages: [id], op: "add", flag: "starred" });
    expect((await server.as("cordelia").get(`/messages/${id}`)).body.message.flags).toEqual(["read", "starred", "historical"]);
  });

  it("marking unread skips messages of channels the user is not subscribed to", async () => {
    const id = await sendStream(server, "iago", "Denmark", "old", "x");
    await server.as("othello").post("/messages/flags", { messages: [id], op: "add", flag: "starred" });
    await server.as("othello").post("/messages/flags", { messages: [id], op: "remove", flag: "read" });
    expect((await server.as("othello").get(`/messages/${id}`)).body.message.flags).toEqual(["read", "starred", "historical"]);
  });
});

describe("POST /messages/flags/narrow", () => {
  it("marks a range and reports what it processed", async () => {
    const res = await server.as("cordelia").post("/messages/flags/narrow", {
      anchor: "oldest",
      num_before: 0,
      num_after: 3,
      narrow: [{ operator: "topic", operand: "flags" }],
      op: "add",
      flag: "read",
    });
    expect(res.body).toEqual(
      success({ processed_count: 3, updated_count: 3, first_processed_id: ids[0], last_processed_id: ids[2], found_oldest: true, found_newest: false }),
    );
    const again = await server.as("cordelia").post("/messages/flags/narrow", {
      anchor: String(ids[2]),
      num_before: 5,
      num_after: 5,
      narrow: [{ operator: "topic", operand: "flags" }],
      op: "add",
      flag: "read",
    });
    expect(again.body).toEqual(
      success({ processed_count: 5, updated_count: 2, first_processed_id: ids[0], last_processed_id: ids[4], found_oldest: true, found_newest: true }),
    );
  });

  it("answers nulls for an empty range", async () => {
    const res = await server.as("cordelia").post("/messages/flags/narrow", {
      anchor: "newest",
      num_before: 10,
      num_after: 0,
      narrow: [{ operator: "topic", operand: "nothing here" }],
      op: "add",
      flag: "starred",
    });
    expect(res.body).toEqual(success({ processed_count: 0, updated_count: 0, first_processed_id: null, last_processed_id: null, found_oldest: true, found_newest: true }));
  });

  it.each([
    [{ num_before: 0, num_after: 1, narrow: [], op: "add", flag: "read" }, error("Missing 'anchor' argument", "REQUEST_VARIABLE_MISSING", { var_name: "anchor" })],
    [{ anchor: "newest", num_after: 1, narrow: [], op: "add", flag: "read" }, error("Missing 'num_before' argument", "REQUEST_VARIABLE_MISSING", { var_name: "num_before" })],
    [{ anchor: "newest", num_before: 0, num_after: 1, op: "add", flag: "read" }, error("Missing 'narrow' argument", "REQUEST_VARIABLE_MISSING", { var_name: "narrow" })],
    [{ anchor: "5", num_before: 1, num_after: 1, include_anchor: false, narrow: [], op: "add", flag: "read" }, error("The anchor can only be excluded at an end of the range")],
    [{ anchor: "newest", num_before: 1, num_after: 0, narrow: [], op: "add", flag: "bogus" }, error("Invalid flag: 'bogus'")],
    [{ anchor: "bad", num_before: 1, num_after: 0, narrow: [], op: "add", flag: "read" }, error("Invalid anchor")],
  ])("refuses %j", async (params, expected) => {
    const res = await server.as("cordelia").post("/messages/flags/narrow", params);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
  });
});

describe("GET /messages/matches_narrow", () => {
  it("lists only received messages that match, keyed by id", async () => {
    const other = await sendStream(server, "othello", "Verona", "other <b>", "text");
    const res = await server.as("hamlet").get("/messages/matches_narrow", {
      msg_ids: [ids[0], other, 999999],
      narrow: [{ operator: "topic", operand: "flags" }],
    });
    expect(res.body).toEqual(success({ messages: { [String(ids[0])]: { match_content: "<p>m0</p>", match_subject: "flags" } } }));
    const search = await server.as("hamlet").get("/messages/matches_narrow", { msg_ids: [other], narrow: [{ operator: "search", operand: "b" }] });
    expect(search.body.messages[String(other)]).toEqual({ match_content: "<p>text</p>", match_subject: 'other &lt;<span class="highlight">b</span>&gt;' });
  });
});
