import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success, type Json } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { createChannels, type Channels } from "./messages-fixtures.js";
import { at, oneOf, scheduleDirect, scheduleToChannel } from "./scheduled-messages-fixtures.js";

let server: TestServer;
let channels: Channels;
beforeAll(async () => {
  server = await startServer();
  channels = await createChannels(server);
});
afterAll(() => server.stop());

const edit = (id: number, params: Record<string, Json>, who: "hamlet" | "othello" | "iago" = "hamlet") => server.as(who).patch(`/scheduled_messages/${id}`, params);

/** Edits, expects success, and returns the scheduled message as listed afterwards. */
async function edited(id: number, params: Record<string, Json>): Promise<Json> {
  const res = await edit(id, params);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body).toEqual(success());
  return oneOf(server, "hamlet", id);
}

describe("PATCH /scheduled_messages/{id}", () => {
  it("changes the content alone, rendering it again", async () => {
    const id = await scheduleToChannel(server, "hamlet", channels.verona, "draft");
    const before = await oneOf(server, "hamlet", id);
    expect(await edited(id, { content: "final *version*  " })).toEqual({ ...before, content: "final *version*", rendered_content: "<p>final <em>version</em></p>" });
  });

  it("changes the time alone", async () => {
    const id = await scheduleToChannel(server, "hamlet", channels.verona, "later");
    const before = await oneOf(server, "hamlet", id);
    expect(await edited(id, { scheduled_delivery_timestamp: at(server, 86400) })).toEqual({ ...before, scheduled_delivery_timestamp: at(server, 86400) });
  });

  it("changes a channel message's topic alone, keeping the spaces around it as Zulip does", async () => {
    const id = await scheduleToChannel(server, "hamlet", channels.verona, "x");
    expect((await edited(id, { topic: "  new plans " })).topic).toBe("  new plans ");
    expect((await edited(id, { subject: "t".repeat(70) })).topic).toBe("t".repeat(57) + "...");
  });

  it("ignores a topic for a direct message", async () => {
    const id = await scheduleDirect(server, "hamlet", ["othello"], "psst");
    const before = await oneOf(server, "hamlet", id);
    expect(await edited(id, { topic: "ignored" })).toEqual(before);
  });

  it("moves a channel message to another channel, keeping its topic", async () => {
    const id = await scheduleToChannel(server, "hamlet", channels.verona, "x");
    expect(await edited(id, { to: channels.denmark })).toMatchObject({ type: "stream", to: channels.denmark, topic: "plans" });
  });

  it("turns a channel message into a direct message", async () => {
    const id = await scheduleToChannel(server, "hamlet", channels.verona, "just us");
    const after = await edited(id, { type: "direct", to: [server.users.othello.id] });
    expect(after).toEqual({
      scheduled_message_id: id,
      type: "private",
      to: [server.users.othello.id],
      content: "just us",
      rendered_content: "<p>just us</p>",
      scheduled_delivery_timestamp: at(server, 3600),
      failed: false,
    });
  });

  it("turns a direct message into a channel message, with type channel or stream", async () => {
    const id = await scheduleDirect(server, "hamlet", ["othello", "cordelia"], "everyone");
    expect(await edited(id, { type: "channel", to: channels.denmark, topic: " news " })).toMatchObject({ type: "stream", to: channels.denmark, topic: "news" });
    expect(await edited(id, { type: "stream", to: String(channels.verona), topic: "news" })).toMatchObject({ type: "stream", to: channels.verona, topic: "news" });
  });

  it("changes a direct message's recipients with to alone", async () => {
    const id = await scheduleDirect(server, "hamlet", ["othello"], "hi");
    expect((await edited(id, { to: [server.users.cordelia.id] })).to).toEqual([server.users.cordelia.id]);
  });

  it.each<[string, (c: Channels) => Record<string, Json>, string, string?]>([
    ["nothing", () => ({}), "Nothing to change"],
    ["a type without to", () => ({ type: "direct" }), "Recipient required when updating type of scheduled message."],
    ["type channel without a topic", (c) => ({ type: "channel", to: c.denmark }), "Topic required when updating scheduled message type to channel."],
    ["type stream without a topic", (c) => ({ type: "stream", to: c.denmark }), "Topic required when updating scheduled message type to channel."],
    ["an unknown type", (c) => ({ type: "huddle", to: c.denmark }), "Invalid type"],
    ["a time in the past", () => ({ scheduled_delivery_timestamp: 1000 }), "Scheduled delivery time must be in the future."],
    ["a time that is not an integer", () => ({ scheduled_delivery_timestamp: "soon" }), "scheduled_delivery_timestamp is not valid JSON"],
    ["a channel name as to", () => ({ to: "Denmark" }), "Invalid data type for channel ID"],
    ["a channel that does not exist", () => ({ to: 99999 }), "Channel with ID '99999' does not exist", "STREAM_DOES_NOT_EXIST"],
    ["a private channel the sender is not in", (c) => ({ to: c.vault }), "Not authorized to send to channel 'vault'"],
    ["emails for a direct message", () => ({ type: "direct", to: '["othello@zulip.com"]' }), "Recipient list may only contain user IDs"],
    ["blank content", () => ({ content: "   " }), "Message must not be empty"],
    ["a blank topic", () => ({ topic: "  " }), "Topic can't be empty!"],
  ])("refuses %s and changes nothing", async (_name, params, msg, code = "BAD_REQUEST") => {
    const id = await scheduleToChannel(server, "othello", channels.verona, "unchanged");
    const before = await oneOf(server, "othello", id);
    const res = await edit(id, params(channels), "othello");
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg, code, code === "STREAM_DOES_NOT_EXIST" ? { stream_id: 99999 } : {}));
    expect(await oneOf(server, "othello", id)).toEqual(before);
  });

  it("checks the request before looking the message up, and answers 404 for anyone else's", async () => {
    const id = await scheduleToChannel(server, "hamlet", channels.verona, "mine");
    expect((await edit(99999, {})).body).toEqual(error("Nothing to change"));
    for (const who of ["othello", "iago"] as const) {
      const res = await edit(id, { content: "theirs" }, who);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(error("Scheduled message does not exist"));
    }
    expect((await oneOf(server, "hamlet", id)).content).toBe("mine");
    expect((await server.as("hamlet").patch("/scheduled_messages/abc", { content: "x" })).status).toBe(404);
  });

  it("checks a new content against the message's current channel", async () => {
    const id = await scheduleToChannel(server, "hamlet", channels.secret, "inside");
    await server.as("hamlet").delete("/users/me/subscriptions", { subscriptions: ["secret"] });
    const res = await edit(id, { content: "still inside?" });
    expect(res.body).toEqual(error("Not authorized to send to channel 'secret'"));
    // Only the time: nothing is checked again.
    expect((await edit(id, { scheduled_delivery_timestamp: at(server, 7200) })).status).toBe(200);
  });
});
