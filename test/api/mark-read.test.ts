import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success, type Json } from "../harness/client.js";
import { startServer, type FixtureName, type TestServer } from "../harness/server.js";
import { createChannels, idsIn, sendDirect, sendStream, type Channels } from "./messages-fixtures.js";

let server: TestServer;
let ch: Channels;

beforeAll(async () => {
  server = await startServer();
  ch = await createChannels(server);
});
afterAll(() => server.stop());

const unread = (who: FixtureName) => idsIn(server, who, [{ operator: "is", operand: "unread" }]);
const queueOf = async (who: FixtureName) => (await server.as(who).post("/register", { event_types: ["update_message_flags"], fetch_event_types: [] })).body.queue_id as string;
const eventsOf = async (who: FixtureName, queueId: string): Promise<Json[]> =>
  (await server.as(who).get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true })).body.events;
const readEvent = (messages: number[], all: boolean) => ({ type: "update_message_flags", op: "add", operation: "add", flag: "read", messages, all, id: 0 });

/** Makes every clock reading `seconds` later than the last, for the duration of `fn`. */
async function withRunawayClock<T>(seconds: number, fn: () => Promise<T>): Promise<T> {
  const clock = server.clock;
  const normal = clock.now;
  clock.now = () => {
    clock.advance(seconds);
    return normal.call(clock);
  };
  try {
    return await fn();
  } finally {
    clock.now = normal;
  }
}

describe("POST /mark_all_as_read", () => {
  it("marks every unread message read and tells the user's clients that all are read", async () => {
    const ids = [
      await sendStream(server, "othello", "Verona", "a", "1"),
      await sendStream(server, "othello", "Denmark", "b", "2"),
      await sendDirect(server, "othello", ["hamlet"], "3"),
      await sendDirect(server, "othello", ["hamlet", "cordelia"], "4"),
    ];
    expect(await unread("hamlet")).toEqual(expect.arrayContaining(ids));
    const queue = await queueOf("hamlet");
    const res = await server.as("hamlet").post("/mark_all_as_read");
    expect(res.body).toEqual(success({ complete: true }));
    expect(await unread("hamlet")).toEqual([]);
    expect(await eventsOf("hamlet", queue)).toEqual([readEvent([], true)]);
    expect(await unread("cordelia")).toContain(ids[3]);
  });

  it("with nothing unread is complete at once", async () => {
    const queue = await queueOf("hamlet");
    expect((await server.as("hamlet").post("/mark_all_as_read")).body).toEqual(success({ complete: true }));
    expect(await eventsOf("hamlet", queue)).toEqual([readEvent([], true)]);
  });

  it("out of time it answers complete: false and announces nothing; asking again finishes", async () => {
    const id = await sendStream(server, "othello", "Verona", "late", "x");
    const queue = await queueOf("hamlet");
    const res = await withRunawayClock(60, () => server.as("hamlet").post("/mark_all_as_read"));
    expect(res.body).toEqual(success({ complete: false }));
    expect(await eventsOf("hamlet", queue)).toEqual([]);
    expect(await unread("hamlet")).toEqual([id]);
    expect((await server.as("hamlet").post("/mark_all_as_read")).body).toEqual(success({ complete: true }));
    expect(await unread("hamlet")).toEqual([]);
  });

  it("reads no parameters", async () => {
    const res = await server.as("hamlet").post("/mark_all_as_read", { stream_id: 1 });
    expect(res.body).toEqual(success({ complete: true, ignored_parameters_unsupported: ["stream_id"] }));
  });
});

describe("POST /mark_stream_as_read", () => {
  it("marks the channel's unread messages read, nothing else, and lists them in the event", async () => {
    const inVerona = [await sendStream(server, "othello", "Verona", "x", "1"), await sendStream(server, "othello", "Verona", "y", "2")];
    const elsewhere = [await sendStream(server, "othello", "Denmark", "x", "3"), await sendDirect(server, "othello", ["hamlet"], "4")];
    const queue = await queueOf("hamlet");
    expect((await server.as("hamlet").post("/mark_stream_as_read", { stream_id: ch.verona })).body).toEqual(success());
    expect(await eventsOf("hamlet", queue)).toEqual([readEvent(inVerona, false)]);
    expect(await unread("hamlet")).toEqual(elsewhere);
    await server.as("hamlet").post("/mark_all_as_read");
  });

  it("with nothing unread there, announces nothing", async () => {
    const queue = await queueOf("hamlet");
    expect((await server.as("hamlet").post("/mark_stream_as_read", { stream_id: ch.verona })).body).toEqual(success());
    expect(await eventsOf("hamlet", queue)).toEqual([]);
  });

  it.each([
    ["hamlet", () => ({}), error("Missing 'stream_id' argument", "REQUEST_VARIABLE_MISSING", { var_name: "stream_id" })],
    ["hamlet", () => ({ stream_id: "1.5" }), error("stream_id is not an integer")],
    ["hamlet", () => ({ stream_id: 999999 }), error("Invalid channel ID")],
    ["othello", () => ({ stream_id: ch.vault }), error("Invalid channel ID")],
    ["desdemona", () => ({ stream_id: ch.secret }), error("Invalid channel ID")],
    ["polonius", () => ({ stream_id: ch.denmark }), error("Invalid channel ID")],
  ] as const)("%s is refused (%#)", async (who, params, expected) => {
    const res = await server.as(who).post("/mark_stream_as_read", params());
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
  });
});

describe("POST /mark_topic_as_read", () => {
  it("marks one topic (any case) read and lists its messages in the event", async () => {
    await server.as("cordelia").post("/mark_all_as_read");
    const lunch = [await sendStream(server, "othello", "Verona", "Lunch", "1"), await sendStream(server, "othello", "Verona", "LUNCH", "2")];
    const dinner = await sendStream(server, "othello", "Verona", "dinner", "3");
    const queue = await queueOf("cordelia");
    expect((await server.as("cordelia").post("/mark_topic_as_read", { stream_id: ch.verona, topic_name: "lUnCh" })).body).toEqual(success());
    expect(await eventsOf("cordelia", queue)).toEqual([readEvent(lunch, false)]);
    expect(await unread("cordelia")).toEqual([dinner]);
  });

  it("an empty topic name marks the whole channel", async () => {
    const ids = [await sendStream(server, "othello", "Verona", "one", "1"), await sendStream(server, "othello", "Verona", "two", "2")];
    expect(await unread("cordelia")).toEqual(expect.arrayContaining(ids));
    expect((await server.as("cordelia").post("/mark_topic_as_read", { stream_id: ch.verona, topic_name: "" })).body).toEqual(success());
    expect(await unread("cordelia")).toEqual([]);
  });

  it("a topic the user received nothing in does not exist for them", async () => {
    await sendStream(server, "iago", "Denmark", "before", "cordelia is not subscribed");
    const res = await server.as("othello").post("/mark_topic_as_read", { stream_id: ch.denmark, topic_name: "before" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("No such topic 'before'"));
    expect((await server.as("cordelia").post("/mark_topic_as_read", { stream_id: ch.verona, topic_name: "nowhere" })).body).toEqual(error("No such topic 'nowhere'"));
    // Received and already read still exists.
    expect((await server.as("cordelia").post("/mark_topic_as_read", { stream_id: ch.verona, topic_name: "one" })).body).toEqual(success());
  });

  it.each([
    [{ stream_id: 1 }, error("Missing 'topic_name' argument", "REQUEST_VARIABLE_MISSING", { var_name: "topic_name" })],
    [{ topic_name: "x" }, error("Missing 'stream_id' argument", "REQUEST_VARIABLE_MISSING", { var_name: "stream_id" })],
    [{ stream_id: 999999, topic_name: "x" }, error("Invalid channel ID")],
  ])("refuses %j", async (params, expected) => {
    expect((await server.as("cordelia").post("/mark_topic_as_read", params)).body).toEqual(expected);
  });

  it("in a private channel only for subscribers", async () => {
    await sendStream(server, "hamlet", "vault", "plans", "x");
    expect((await server.as("othello").post("/mark_topic_as_read", { stream_id: ch.vault, topic_name: "plans" })).body).toEqual(error("Invalid channel ID"));
    expect((await server.as("cordelia").post("/mark_topic_as_read", { stream_id: ch.vault, topic_name: "plans" })).body).toEqual(success());
  });
});
