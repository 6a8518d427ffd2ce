import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type FixtureName, type TestServer } from "../harness/server.js";
import { createChannels, sendStream, type Channels } from "../api/messages-fixtures.js";
import { createStreams } from "../api/streams-helpers.js";
import { checkAction } from "./check-action.js";

let server: TestServer;
let ch: Channels;

beforeAll(async () => {
  server = await startServer();
  ch = await createChannels(server);
});
afterAll(() => server.stop());

const TYPES = ["message", "update_message_flags", "update_message", "delete_message", "user_topic", "muted_topics", "recent_private_conversations"];
const BULK = { notification_settings_null: true, bulk_message_deletion: true };
const ids = (...names: FixtureName[]) => names.map((n) => server.users[n].id);

/** Three unread messages from cordelia in a Verona topic. */
const topicOfThree = async (topic: string) => [
  await sendStream(server, "cordelia", "Verona", topic, "1"),
  await sendStream(server, "cordelia", "Verona", topic, "2"),
  await sendStream(server, "cordelia", "Verona", topic, "3"),
];

describe("moving messages between channels keeps /register consistent", () => {
  it("for the mover", async () => {
    const sent = await topicOfThree("mover");
    const events = await checkAction(server, "hamlet", () => server.as("hamlet").patch(`/messages/${sent[0]}`, { stream_id: ch.denmark, topic: "moved", propagate_mode: "change_all" }), {
      eventTypes: TYPES,
      expectEvents: ["update_message", "message"],
    });
    expect(events[0]).toMatchObject({
      user_id: server.users.hamlet.id,
      message_id: sent[0],
      message_ids: sent,
      stream_id: ch.verona,
      stream_name: "Verona",
      new_stream_id: ch.denmark,
      orig_subject: "mover",
      subject: "moved",
      topic_links: [],
      propagate_mode: "change_all",
      rendering_only: false,
      flags: [],
    });
    expect(events[1].message).toMatchObject({ stream_id: ch.denmark, subject: "moved", sender_email: "notification-bot@zulip.com" });
  });

  it("for a subscriber of the old channel only, who keeps access but loses the unread rows", async () => {
    const sent = await topicOfThree("old only");
    const events = await checkAction(
      server,
      "othello",
      () => server.as("hamlet").patch(`/messages/${sent[1]}`, { stream_id: ch.denmark, propagate_mode: "change_all", send_notification_to_old_thread: true }),
      { eventTypes: TYPES, expectEvents: ["update_message_flags", "update_message", "message"] },
    );
    expect(events[0]).toMatchObject({ op: "add", flag: "read", messages: sent, all: false });
    expect(events[1]).toMatchObject({ new_stream_id: ch.denmark, orig_subject: "old only", flags: ["read"] });
    expect(events[1]).not.toHaveProperty("subject");
    expect(events[2].message).toMatchObject({ stream_id: ch.verona, subject: "old only" });
  });

  it("for a subscriber of the old channel only, who cannot read the new private one", async () => {
    const sent = await topicOfThree("to vault");
    const events = await checkAction(
      server,
      "othello",
      () => server.as("hamlet").patch(`/messages/${sent[0]}`, { stream_id: ch.vault, propagate_mode: "change_all", send_notification_to_old_thread: true }),
      { eventTypes: TYPES, capabilities: BULK, expectEvents: ["delete_message", "message"] },
    );
    expect(events[0]).toEqual({ id: expect.any(Number), type: "delete_message", message_ids: sent, message_type: "stream", stream_id: ch.verona, topic: "to vault" });
  });

  it("for a guest of the old channel, who loses the messages even to a public channel", async () => {
    const sent = await topicOfThree("guest");
    await sendStream(server, "cordelia", "Verona", "newest for the guest", "x");
    await checkAction(server, "polonius", () => server.as("hamlet").patch(`/messages/${sent[0]}`, { stream_id: ch.denmark, propagate_mode: "change_all" }), {
      eventTypes: TYPES,
      capabilities: BULK,
      expectEvents: ["delete_message"],
    });
  });

  it("for a subscriber of the new public channel only", async () => {
    await createStreams(server, "iago", ["Elsinore"], { principals: ids("iago", "shiva") });
    const id = await sendStream(server, "hamlet", "Denmark", "to Elsinore", "x");
    const elsinore = (await server.as("iago").get("/get_stream_id", { stream: "Elsinore" })).body.stream_id as number;
    const events = await checkAction(server, "shiva", () => server.as("hamlet").patch(`/messages/${id}`, { stream_id: elsinore, propagate_mode: "change_all" }), {
      eventTypes: TYPES,
      expectEvents: ["message"],
    });
    expect(events[0].message).toMatchObject({ stream_id: elsinore, subject: "to Elsinore", sender_email: "notification-bot@zulip.com" });
  });

  it("for a subscriber of the new private channel only, who gets the moved messages as read", async () => {
    const { crypt } = await createStreams(server, "iago", ["crypt"], { principals: ids("hamlet", "shiva"), invite_only: true, history_public_to_subscribers: false });
    const id = await sendStream(server, "hamlet", "Denmark", "to crypt", "x");
    const events = await checkAction(server, "shiva", () => server.as("hamlet").patch(`/messages/${id}`, { stream_id: crypt ?? 0 }), {
      eventTypes: TYPES,
      expectEvents: ["update_message", "message"],
    });
    expect(events[0]).toMatchObject({ message_ids: [id], new_stream_id: crypt, flags: ["read"] });
  });

  it("for a user whose followed topic moves with it", async () => {
    const sent = await topicOfThree("followed");
    await server.as("othello").post("/user_topics", { stream_id: ch.verona, topic: "followed", visibility_policy: 3 });
    const events = await checkAction(server, "othello", () => server.as("hamlet").patch(`/messages/${sent[0]}`, { topic: "still followed", propagate_mode: "change_all" }), {
      eventTypes: TYPES,
      // Queues that take user_topic do not get the legacy muted_topics (Zulip's filter).
      expectEvents: ["user_topic", "user_topic", "update_message", "message"],
    });
    expect(events[0]).toMatchObject({ stream_id: ch.verona, topic_name: "followed", visibility_policy: 0 });
    expect(events[1]).toMatchObject({ stream_id: ch.verona, topic_name: "still followed", visibility_policy: 3 });
  });
});

describe("resolving a topic keeps /register consistent", () => {
  it("for a participant and for a bystander", async () => {
    const sent = await topicOfThree("to resolve");
    await checkAction(server, "cordelia", () => server.as("hamlet").patch(`/messages/${sent[0]}`, { topic: "✔ to resolve", propagate_mode: "change_all" }), {
      eventTypes: TYPES,
      expectEvents: ["update_message", "message"],
    });
    const events = await checkAction(server, "othello", () => server.as("hamlet").patch(`/messages/${sent[0]}`, { topic: "to resolve", propagate_mode: "change_all" }), {
      eventTypes: TYPES,
      expectEvents: ["update_message", "message"],
    });
    expect(events[1].flags).toEqual(["read"]);
  });
});
