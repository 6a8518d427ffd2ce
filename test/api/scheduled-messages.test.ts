import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success, type Json } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { createChannels, type Channels } from "./messages-fixtures.js";
import { at, listOf, oneOf, schedule, scheduleDirect, scheduleToChannel } from "./scheduled-messages-fixtures.js";

let server: TestServer;
let channels: Channels;
beforeAll(async () => {
  server = await startServer();
  channels = await createChannels(server);
});
afterAll(() => server.stop());

describe("POST /scheduled_messages", () => {
  it("schedules a channel message, listed with its rendering and time", async () => {
    const when = at(server, 7200);
    const res = await schedule(server, "hamlet", { type: "stream", to: channels.verona, topic: "  lunch ", content: "Meet at **noon**\n\n", scheduled_delivery_timestamp: when });
    expect(res.status).toBe(200);
    const id = res.body.scheduled_message_id;
    expect(res.body).toEqual(success({ scheduled_message_id: id }));
    expect(await oneOf(server, "hamlet", id)).toEqual({
      scheduled_message_id: id,
      type: "stream",
      to: channels.verona,
      topic: "lunch",
      content: "Meet at **noon**",
      rendered_content: "<p>Meet at <strong>noon</strong></p>",
      scheduled_delivery_timestamp: when,
      failed: false,
    });
  });

  it("takes type channel as a channel message and the topic as subject", async () => {
    const res = await schedule(server, "hamlet", { type: "channel", to: String(channels.denmark), subject: "old name", content: "x", scheduled_delivery_timestamp: at(server, 60) });
    expect(res.status).toBe(200);
    expect(await oneOf(server, "hamlet", res.body.scheduled_message_id)).toMatchObject({ type: "stream", to: channels.denmark, topic: "old name" });
  });

  it("names a direct message's other participants in `to`, ascending, and the sender alone when to themselves", async () => {
    const { hamlet, othello, cordelia } = server.users;
    const one = await scheduleDirect(server, "hamlet", ["othello"], "hi");
    const group = await schedule(server, "hamlet", { type: "private", to: [cordelia.id, othello.id, hamlet.id, othello.id], content: "all", scheduled_delivery_timestamp: at(server, 60) });
    const self = await scheduleDirect(server, "hamlet", ["hamlet"], "note to self");
    expect(await oneOf(server, "hamlet", one)).toEqual({
      scheduled_message_id: one,
      type: "private",
      to: [othello.id],
      content: "hi",
      rendered_content: "<p>hi</p>",
      scheduled_delivery_timestamp: at(server, 3600),
      failed: false,
    });
    expect((await oneOf(server, "hamlet", group.body.scheduled_message_id)).to).toEqual([othello.id, cordelia.id].sort((a, b) => a - b));
    expect((await oneOf(server, "hamlet", self)).to).toEqual([hamlet.id]);
  });

  it("lists soonest first, then in order of scheduling, and only the caller's", async () => {
    const late = await scheduleToChannel(server, "othello", channels.verona, "late", { scheduled_delivery_timestamp: at(server, 900) });
    const soon = await scheduleToChannel(server, "othello", channels.verona, "soon", { scheduled_delivery_timestamp: at(server, 300) });
    const tie = await scheduleToChannel(server, "othello", channels.verona, "tie", { scheduled_delivery_timestamp: at(server, 300) });
    expect((await listOf(server, "othello")).map((m) => m.scheduled_message_id)).toEqual([soon, tie, late]);
    expect((await listOf(server, "hamlet")).map((m) => m.scheduled_message_id)).not.toContain(soon);
    expect(await server.as("cordelia").get("/scheduled_messages")).toMatchObject({ status: 200, body: success({ scheduled_messages: [] }) });
  });

  it.each<[string, Record<string, Json>, string, string?, Record<string, Json>?]>([
    ["a time long past", { scheduled_delivery_timestamp: 0 }, "Scheduled delivery time must be in the future."],
    ["a negative time", { scheduled_delivery_timestamp: -100 }, "Scheduled delivery time must be in the future."],
    ["no type", { type: undefined }, "Missing 'type' argument", "REQUEST_VARIABLE_MISSING", { var_name: "type" }],
    ["no to", { to: undefined }, "Missing 'to' argument", "REQUEST_VARIABLE_MISSING", { var_name: "to" }],
    ["no content", { content: undefined }, "Missing 'content' argument", "REQUEST_VARIABLE_MISSING", { var_name: "content" }],
    ["no time", { scheduled_delivery_timestamp: undefined }, "Missing 'scheduled_delivery_timestamp' argument", "REQUEST_VARIABLE_MISSING", { var_name: "scheduled_delivery_timestamp" }],
    ["an unknown type", { type: "huddle" }, "Invalid type"],
    ["a time that is not an integer", { scheduled_delivery_timestamp: "1.5e9" }, "scheduled_delivery_timestamp is not an integer"],
    ["a channel name as to", { to: "Verona" }, "Invalid data type for channel ID"],
    ["a list as a channel's to", { to: "[1]" }, "Invalid data type for channel ID"],
    ["no topic", { topic: undefined }, "Missing topic"],
    ["a blank topic", { topic: "   " }, "Topic can't be empty!"],
    ["a topic with a control character", { topic: "a\u0001b" }, "Invalid character in topic, at position 2!"],
    ["blank content", { content: " \n " }, "Message must not be empty"],
    ["a channel that does not exist", { to: 99999 }, "Channel with ID '99999' does not exist", "STREAM_DOES_NOT_EXIST", { stream_id: 99999 }],
  ])("refuses %s for a channel message", async (_name, change, msg, code = "BAD_REQUEST", extra = {}) => {
    const before = await listOf(server, "iago");
    const params: Record<string, Json> = { type: "stream", to: channels.verona, topic: "t", content: "x", scheduled_delivery_timestamp: at(server, 60), ...change };
    for (const key of Object.keys(params)) if (params[key] === undefined) delete params[key];
    const res = await schedule(server, "iago", params);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg, code, extra));
    expect(await listOf(server, "iago")).toEqual(before);
  });

  it("needs a time after the present: this second is too soon, the next one will do", async () => {
    const base = { type: "stream", to: channels.verona, topic: "t", content: "x" };
    expect((await schedule(server, "iago", { ...base, scheduled_delivery_timestamp: at(server, 0) })).body).toEqual(error("Scheduled delivery time must be in the future."));
    expect((await schedule(server, "iago", { ...base, scheduled_delivery_timestamp: at(server, 1) })).status).toBe(200);
  });

  it.each<[string, Json, string]>([
    ["text that is not JSON", "othello", "Invalid data type for recipients"],
    ["a single id", "5", "Invalid data type for recipients"],
    ["emails", '["othello@zulip.com"]', "Recipient list may only contain user IDs"],
    ["a fraction", "[1.5]", "Recipient list may only contain user IDs"],
    ["no one", "[]", "Message must have recipients"],
    ["an unknown user", "[99999]", "Invalid user ID 99999"],
  ])("refuses %s as a direct message's to", async (_name, to, msg) => {
    const res = await schedule(server, "iago", { type: "direct", to, content: "x", scheduled_delivery_timestamp: at(server, 60) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg));
  });

  it("refuses what sending would refuse: a private channel the sender is not in", async () => {
    const res = await schedule(server, "cordelia", { type: "stream", to: channels.secret, topic: "t", content: "x", scheduled_delivery_timestamp: at(server, 60) });
    expect(res.body).toEqual(error("Not authorized to send to channel 'secret'"));
    expect(await listOf(server, "cordelia")).toEqual([]);
  });

  it("refuses what sending would refuse: a deactivated recipient", async () => {
    const created = await server.as("iago").post("/users", { email: "leaving@zulip.com", password: "pw-leaving-123", full_name: "Leaving" });
    expect(created.status).toBe(200);
    expect((await server.as("iago").delete(`/users/${created.body.user_id}`)).status).toBe(200);
    const res = await schedule(server, "cordelia", { type: "direct", to: [created.body.user_id], content: "x", scheduled_delivery_timestamp: at(server, 60) });
    expect(res.body).toEqual(error("'leaving@zulip.com' is no longer using Zulip."));
  });

  it("reports parameters it does not read", async () => {
    const res = await schedule(server, "hamlet", { type: "stream", to: channels.verona, topic: "t", content: "x", scheduled_delivery_timestamp: at(server, 60), queue_id: "q" });
    expect(res.body).toEqual(success({ scheduled_message_id: res.body.scheduled_message_id, ignored_parameters_unsupported: ["queue_id"] }));
  });

  it("needs authentication", async () => {
    const res = await server.anonymous().get("/scheduled_messages");
    expect(res.status).toBe(401);
  });
});

describe("DELETE /scheduled_messages/{id}", () => {
  it("cancels the caller's scheduled message", async () => {
    const id = await scheduleToChannel(server, "hamlet", channels.denmark, "never mind");
    const res = await server.as("hamlet").delete(`/scheduled_messages/${id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success());
    expect(await oneOf(server, "hamlet", id)).toBeUndefined();
    const again = await server.as("hamlet").delete(`/scheduled_messages/${id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual(error("Scheduled message does not exist"));
  });

  it("answers 404 for someone else's, which stays", async () => {
    const id = await scheduleToChannel(server, "hamlet", channels.verona, "mine");
    for (const who of ["othello", "iago", "desdemona"] as const) {
      const res = await server.as(who).delete(`/scheduled_messages/${id}`);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(error("Scheduled message does not exist"));
    }
    expect(await oneOf(server, "hamlet", id)).toMatchObject({ content: "mine" });
  });

  it.each(["99999", "abc", "-1"])("answers 404 for id %s", async (id) => {
    const res = await server.as("hamlet").delete(`/scheduled_messages/${id}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(error("Scheduled message does not exist"));
  });
});
