import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../harness/server.js";
import { createChannels, sendDirect, sendStream, type Channels } from "../api/messages-fixtures.js";
import { checkAction } from "./check-action.js";

let server: TestServer;
let ch: Channels;

beforeAll(async () => {
  server = await startServer();
  ch = await createChannels(server);
});
afterAll(() => server.stop());

const TYPES = ["message", "update_message_flags", "delete_message", "submessage", "recent_private_conversations"];

describe("mark-as-read shortcuts keep /register consistent", () => {
  it("marking everything read", async () => {
    await sendStream(server, "othello", "Verona", "a", "1");
    await sendStream(server, "othello", "Denmark", "b", "2");
    await sendDirect(server, "othello", ["hamlet"], "3");
    const events = await checkAction(server, "hamlet", () => server.as("hamlet").post("/mark_all_as_read"), { eventTypes: TYPES, expectEvents: ["update_message_flags"] });
    expect(events[0]).toMatchObject({ op: "add", flag: "read", messages: [], all: true });
  });

  it("marking a channel read", async () => {
    const ids = [await sendStream(server, "othello", "Verona", "x", "1"), await sendStream(server, "othello", "Verona", "y", "2")];
    await sendStream(server, "othello", "Denmark", "x", "3");
    const events = await checkAction(server, "hamlet", () => server.as("hamlet").post("/mark_stream_as_read", { stream_id: ch.verona }), {
      eventTypes: TYPES,
      expectEvents: ["update_message_flags"],
    });
    expect(events[0]).toMatchObject({ messages: ids, all: false });
  });

  it("marking a topic read", async () => {
    const id = await sendStream(server, "othello", "Denmark", "topic", "1");
    const events = await checkAction(server, "hamlet", () => server.as("hamlet").post("/mark_topic_as_read", { stream_id: ch.denmark, topic_name: "TOPIC" }), {
      eventTypes: TYPES,
      expectEvents: ["update_message_flags"],
    });
    expect(events[0]).toMatchObject({ messages: [id], all: false });
  });
});

describe("deleting a topic keeps /register consistent", () => {
  it("unread messages of the topic leave unread_msgs", async () => {
    const ids = [await sendStream(server, "othello", "Verona", "doomed", "1"), await sendStream(server, "othello", "Verona", "doomed", "2")];
    // The state's max_message_id is kept by a newer message (clients cannot recompute it on deletion).
    await sendStream(server, "othello", "Verona", "survivor", "3");
    const events = await checkAction(server, "hamlet", () => server.as("iago").post(`/streams/${ch.verona}/delete_topic`, { topic_name: "doomed" }), {
      eventTypes: TYPES,
      capabilities: { notification_settings_null: true, bulk_message_deletion: true },
      expectEvents: ["delete_message"],
    });
    expect(events[0]).toMatchObject({ message_ids: [ids[1], ids[0]], message_type: "stream", stream_id: ch.verona, topic: "doomed" });
  });
});

describe("widgets and submessages", () => {
  it("a /poll message's event carries its widget", async () => {
    const events = await checkAction(server, "hamlet", () => sendStream(server, "othello", "Verona", "poll", "/poll Tea?\nYes\nNo"), {
      eventTypes: TYPES,
      expectEvents: ["message"],
    });
    expect(events[0].message.submessages).toEqual([
      {
        id: expect.any(Number),
        message_id: events[0].message.id,
        sender_id: server.users.othello.id,
        msg_type: "widget",
        content: '{"widget_type": "poll", "extra_data": {"question": "Tea?", "options": ["Yes", "No"]}}',
      },
    ]);
  });

  it("a vote is a submessage event of Zulip's shape, changing no /register state", async () => {
    const id = await sendStream(server, "othello", "Verona", "poll", "/poll Coffee?\nYes");
    const events = await checkAction(
      server,
      "hamlet",
      () => server.as("cordelia").post("/submessage", { message_id: id, msg_type: "widget", content: '{"type":"vote","key":"canned,0","vote":1}' }),
      { eventTypes: TYPES, expectEvents: ["submessage"], changesState: false },
    );
    expect(events[0]).toEqual({
      type: "submessage",
      msg_type: "widget",
      message_id: id,
      submessage_id: expect.any(Number),
      sender_id: server.users.cordelia.id,
      content: '{"type":"vote","key":"canned,0","vote":1}',
      id: events[0].id,
    });
  });
});
