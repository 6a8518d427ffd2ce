import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success, type Json } from "../harness/client.js";
import { startServer, type FixtureName, type TestServer } from "../harness/server.js";
import { createChannels, idsIn, sendStream, topicIn, type Channels } from "./messages-fixtures.js";
import { createStreams } from "./streams-helpers.js";

let server: TestServer;
let ch: Channels;

beforeAll(async () => {
  server = await startServer();
  ch = await createChannels(server);
});
afterAll(() => server.stop());

const deleteTopic = (who: FixtureName, streamId: number, params: Record<string, Json>) => server.as(who).post(`/streams/${streamId}/delete_topic`, params);
const queueOf = async (who: FixtureName) => (await server.as(who).post("/register", { event_types: ["delete_message"], fetch_event_types: [], client_capabilities: { notification_settings_null: true, bulk_message_deletion: true } })).body.queue_id as string;
const eventsOf = async (who: FixtureName, queueId: string): Promise<Json[]> =>
  (await server.as(who).get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true })).body.events;

describe("POST /streams/{stream_id}/delete_topic", () => {
  it("deletes the topic's messages (any case), newest first, and tells those who could see them", async () => {
    const ids = [await sendStream(server, "hamlet", "Verona", "Old news", "1"), await sendStream(server, "othello", "Verona", "old NEWS", "2")];
    const kept = await sendStream(server, "othello", "Verona", "current", "3");
    const [cordelia, shiva] = [await queueOf("cordelia"), await queueOf("shiva")];
    const res = await deleteTopic("iago", ch.verona, { topic_name: "OLD news" });
    expect(res.body).toEqual(success({ complete: true }));
    expect(await idsIn(server, "iago", topicIn("Verona", "old news"))).toEqual([]);
    expect(await idsIn(server, "iago", topicIn("Verona", "current"))).toEqual([kept]);
    expect((await server.as("hamlet").get(`/messages/${ids[0]}`)).body).toEqual(error("Invalid message(s)"));
    expect(await eventsOf("cordelia", cordelia)).toEqual([{ type: "delete_message", message_ids: [ids[1], ids[0]], message_type: "stream", stream_id: ch.verona, topic: "old NEWS", id: 0 }]);
    expect(await eventsOf("shiva", shiva)).toEqual([]);
  });

  it("a topic with no messages is complete at once", async () => {
    expect((await deleteTopic("desdemona", ch.verona, { topic_name: "never used" })).body).toEqual(success({ complete: true }));
  });

  it("works in batches of 100; out of time it answers complete: false and keeps what it deleted", async () => {
    const ids: number[] = [];
    for (let i = 0; i < 105; i++) ids.push(await sendStream(server, "hamlet", "Denmark", "big", `m${i}`));
    const queue = await queueOf("hamlet");
    // Each reading of the clock is 30 s after the last: one batch fits in the 50 s, the second does not.
    const clock = server.clock;
    const normal = clock.now;
    clock.now = () => {
      clock.advance(30);
      return normal.call(clock);
    };
    let res;
    try {
      res = await deleteTopic("iago", ch.denmark, { topic_name: "big" });
    } finally {
      clock.now = normal;
    }
    expect(res.body).toEqual(success({ complete: false }));
    expect(await idsIn(server, "iago", topicIn("Denmark", "big"))).toEqual(ids.slice(0, 5));
    const events = await eventsOf("hamlet", queue);
    expect(events.map((e) => e.message_ids)).toEqual([ids.slice(5).reverse()]);
    expect((await deleteTopic("iago", ch.denmark, { topic_name: "big" })).body).toEqual(success({ complete: true }));
    expect(await idsIn(server, "iago", topicIn("Denmark", "big"))).toEqual([]);
  });

  it("in a private channel without shared history, deletes only what the administrator received", async () => {
    const { hoard } = await createStreams(server, "hamlet", ["hoard"], { invite_only: true, history_public_to_subscribers: false });
    const early = await sendStream(server, "hamlet", "hoard", "stash", "before iago");
    await server.as("hamlet").post("/users/me/subscriptions", { subscriptions: [{ name: "hoard" }], principals: [server.users.iago.id] });
    const late = await sendStream(server, "hamlet", "hoard", "stash", "after iago");
    expect((await deleteTopic("desdemona", hoard ?? 0, { topic_name: "stash" })).body).toEqual(error("Invalid channel ID"));
    expect((await deleteTopic("iago", hoard ?? 0, { topic_name: "stash" })).body).toEqual(success({ complete: true }));
    expect(await idsIn(server, "hamlet", topicIn("hoard", "stash"))).toEqual([early]);
    expect((await server.as("hamlet").get(`/messages/${late}`)).body).toEqual(error("Invalid message(s)"));
  });

  it("administrators only, whatever the channel", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "keep", "x");
    for (const who of ["shiva", "hamlet", "polonius"] as const) {
      for (const streamId of [ch.verona, 999999]) {
        const res = await deleteTopic(who, streamId, { topic_name: "keep" });
        expect(res.status).toBe(400);
        expect(res.body).toEqual(error("Must be an organization administrator", "UNAUTHORIZED_PRINCIPAL"));
      }
    }
    expect(await idsIn(server, "iago", topicIn("Verona", "keep"))).toEqual([id]);
  });

  it.each([
    [999999, { topic_name: "x" }, error("Invalid channel ID")],
    [1, {}, error("Missing 'topic_name' argument", "REQUEST_VARIABLE_MISSING", { var_name: "topic_name" })],
  ])("refuses channel %s with %j", async (streamId, params, expected) => {
    const res = await deleteTopic("iago", streamId, params);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
  });
});
