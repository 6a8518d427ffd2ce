import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../harness/server.js";
import { createChannels, sendDirect, sendStream } from "../api/messages-fixtures.js";
import { checkAction } from "./check-action.js";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
  await createChannels(server);
});
afterAll(() => server.stop());

const TYPES = ["message", "update_message_flags", "update_message", "delete_message", "reaction", "recent_private_conversations"];

describe("message actions keep /register consistent", () => {
  it("a channel message", async () => {
    const events = await checkAction(server, "hamlet", () => sendStream(server, "othello", "Verona", "t", "hi @**King Hamlet**"), { eventTypes: TYPES, expectEvents: ["message"] });
    expect(events[0].flags).toEqual(["mentioned"]);
  });

  it("a channel message with raw content for apply_markdown=false", async () => {
    const events = await checkAction(server, "hamlet", () => sendStream(server, "othello", "Verona", "t", "*raw*"), {
      eventTypes: TYPES,
      register: { apply_markdown: false, client_gravatar: false },
      expectEvents: ["message"],
    });
    expect(events[0].message.content).toBe("*raw*");
    expect(events[0].message.content_type).toBe("text/x-markdown");
  });

  it("direct messages, one-to-one and group", async () => {
    await checkAction(server, "hamlet", () => sendDirect(server, "othello", ["hamlet"], "dm"), { eventTypes: TYPES, expectEvents: ["message"] });
    await checkAction(server, "hamlet", () => sendDirect(server, "othello", ["hamlet", "cordelia"], "group"), { eventTypes: TYPES, expectEvents: ["message"] });
    await checkAction(server, "hamlet", () => sendDirect(server, "hamlet", ["hamlet"], "self"), { eventTypes: TYPES, expectEvents: ["message"] });
  });

  it("marking read and unread", async () => {
    const id = await sendStream(server, "othello", "Verona", "flags", "x");
    await checkAction(server, "hamlet", () => server.as("hamlet").post("/messages/flags", { messages: [id], op: "add", flag: "read" }), {
      eventTypes: TYPES,
      expectEvents: ["update_message_flags"],
    });
    const events = await checkAction(server, "hamlet", () => server.as("hamlet").post("/messages/flags", { messages: [id], op: "remove", flag: "read" }), {
      eventTypes: TYPES,
      expectEvents: ["update_message_flags"],
    });
    expect(events[0].message_details).toEqual({ [String(id)]: { type: "stream", stream_id: expect.any(Number), topic: "flags", unmuted_stream_msg: true } });
    const dm = await sendDirect(server, "othello", ["hamlet"], "dm");
    await checkAction(server, "hamlet", () => server.as("hamlet").post("/messages/flags", { messages: [dm], op: "add", flag: "read" }), { eventTypes: TYPES });
    await checkAction(server, "hamlet", () => server.as("hamlet").post("/messages/flags", { messages: [dm], op: "remove", flag: "read" }), { eventTypes: TYPES });
  });

  it("marking a narrow read", async () => {
    await sendStream(server, "othello", "Verona", "bulk", "1");
    await sendStream(server, "othello", "Verona", "bulk", "2");
    await checkAction(
      server,
      "hamlet",
      () => server.as("hamlet").post("/messages/flags/narrow", { anchor: "oldest", num_before: 0, num_after: 50, narrow: [{ operator: "topic", operand: "bulk" }], op: "add", flag: "read" }),
      { eventTypes: TYPES, expectEvents: ["update_message_flags"] },
    );
  });

  it("editing content and moving a topic", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "edits", "x");
    await checkAction(server, "hamlet", () => server.as("hamlet").patch(`/messages/${id}`, { content: "now @**King Hamlet**" }), {
      eventTypes: TYPES,
      expectEvents: ["update_message"],
      changesState: false,
    });
    const other = await sendStream(server, "othello", "Verona", "edits", "y");
    const events = await checkAction(server, "hamlet", () => server.as("iago").patch(`/messages/${other}`, { topic: "moved", propagate_mode: "change_all", send_notification_to_new_thread: false }), {
      eventTypes: TYPES,
      expectEvents: ["update_message"],
    });
    expect(events[0]).toMatchObject({ orig_subject: "edits", subject: "moved", propagate_mode: "change_all", message_ids: [id, other] });
  });

  // Deleting the user's newest message would need a query to find the new max_message_id (Zulip's
  // apply_event queries); state application here is pure, so these delete older messages.
  it("deleting", async () => {
    const id = await sendStream(server, "othello", "Verona", "gone", "x");
    await sendStream(server, "othello", "Verona", "kept", "newer");
    const events = await checkAction(server, "hamlet", () => server.as("iago").delete(`/messages/${id}`), {
      eventTypes: TYPES,
      capabilities: { notification_settings_null: true, bulk_message_deletion: true },
      expectEvents: ["delete_message"],
    });
    expect(events[0]).toMatchObject({ message_ids: [id], message_type: "stream", topic: "gone" });
    const legacy = await sendStream(server, "othello", "Verona", "gone", "y");
    await sendStream(server, "othello", "Verona", "kept", "newer");
    const old = await checkAction(server, "hamlet", () => server.as("iago").delete(`/messages/${legacy}`), { eventTypes: TYPES, expectEvents: ["delete_message"] });
    expect(old[0].message_id).toBe(legacy);
  });

  it("reactions", async () => {
    const id = await sendStream(server, "othello", "Verona", "react", "x");
    const added = await checkAction(server, "hamlet", () => server.as("cordelia").post(`/messages/${id}/reactions`, { emoji_name: "smile" }), {
      eventTypes: TYPES,
      expectEvents: ["reaction:add"],
      changesState: false,
    });
    expect(added[0]).toMatchObject({ user_id: server.users.cordelia.id, emoji_name: "smile", reaction_type: "unicode_emoji" });
    await checkAction(server, "hamlet", () => server.as("cordelia").delete(`/messages/${id}/reactions`, { emoji_name: "smile" }), {
      eventTypes: TYPES,
      expectEvents: ["reaction:remove"],
      changesState: false,
    });
  });
});
