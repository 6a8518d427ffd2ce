import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success, type Json } from "../harness/client.js";
import type { FixtureName } from "../harness/server.js";
import { startServer, type TestServer } from "../harness/server.js";
import { createChannels, idsIn, sendDirect, sendStream, silentMention, topicIn, type Channels } from "./messages-fixtures.js";
import { createStreams, setRealmProps } from "./streams-helpers.js";

let server: TestServer;
let ch: Channels;

beforeAll(async () => {
  server = await startServer();
  ch = await createChannels(server);
});
afterAll(() => server.stop());

const message = async (who: FixtureName, id: number) => (await server.as(who).get(`/messages/${id}`)).body;
const mention = (who: FixtureName) => silentMention(server, who);
/** The raw content of the newest message of a topic, as iago sees it. */
const lastNotice = async (stream: string, topic: string) => {
  const ids = await idsIn(server, "iago", topicIn(stream, topic));
  const got = await message("iago", ids[ids.length - 1] ?? 0);
  return { sender: got.message.sender_email as string, content: got.raw_content as string };
};
const send3 = async (topic: string) => [
  await sendStream(server, "othello", "Verona", topic, "one"),
  await sendStream(server, "othello", "Verona", topic, "two"),
  await sendStream(server, "othello", "Verona", topic, "three"),
];

describe("PATCH /messages/{id} with stream_id", () => {
  it("moves one message to another channel, keeping its topic, with history and a notice in the new topic", async () => {
    const [first, second, third] = await send3("lone move");
    server.clock.advance(5);
    const res = await server.as("hamlet").patch(`/messages/${second}`, { stream_id: ch.denmark });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success({ detached_uploads: [] }));
    const moved = (await message("iago", second ?? 0)).message;
    const ts = Math.floor(server.clock.now() / 1000);
    expect(moved).toMatchObject({ stream_id: ch.denmark, display_recipient: "Denmark", subject: "lone move", last_edit_timestamp: ts });
    expect(moved.edit_history).toEqual([{ user_id: server.users.hamlet.id, timestamp: ts, prev_stream: ch.verona, stream: ch.denmark }]);
    expect((await message("iago", first ?? 0)).message.stream_id).toBe(ch.verona);
    const link = `${server.app.ctx.config.externalUrl}/#narrow/channel/${ch.denmark}-Denmark/topic/lone.20move/near/${second}`;
    expect(await lastNotice("Denmark", "lone move")).toEqual({
      sender: "notification-bot@zulip.com",
      content: `[A message](${link}) was moved here from #**Verona>lone move** by ${mention("hamlet")}.`,
    });
    // No notice in the old topic unless asked for (Zulip's default since feature level 152).
    expect(await idsIn(server, "iago", topicIn("Verona", "lone move"))).toEqual([first, third]);
  });

  it("edit history is left out where the organization hides it", async () => {
    const id = await sendStream(server, "othello", "Verona", "history", "x");
    await server.as("hamlet").patch(`/messages/${id}`, { stream_id: ch.denmark });
    await setRealmProps(server, { allow_edit_history: false });
    const hidden = (await message("iago", id)).message;
    expect(hidden.edit_history).toBeUndefined();
    expect(hidden.last_edit_timestamp).toBe(Math.floor(server.clock.now() / 1000));
    await setRealmProps(server, { allow_edit_history: true });
  });

  it("moves a whole topic to a new channel and topic, with notices in both places", async () => {
    const ids = await send3("whole");
    const res = await server.as("hamlet").patch(`/messages/${ids[1]}`, { stream_id: ch.denmark, topic: "entire", propagate_mode: "change_all", send_notification_to_old_thread: true });
    expect(res.body).toEqual(success({ detached_uploads: [] }));
    const inNew = await idsIn(server, "iago", topicIn("Denmark", "entire"));
    expect(inNew.slice(0, 3)).toEqual(ids);
    expect(await lastNotice("Denmark", "entire")).toEqual({
      sender: "notification-bot@zulip.com",
      content: `This topic was moved here from #**Verona>whole** by ${mention("hamlet")}.`,
    });
    const left = await idsIn(server, "iago", topicIn("Verona", "whole"));
    expect(left).toHaveLength(1);
    expect(await lastNotice("Verona", "whole")).toEqual({ sender: "notification-bot@zulip.com", content: `This topic was moved to #**Denmark>entire** by ${mention("hamlet")}.` });
    const other = (await message("iago", ids[0] ?? 0)).message;
    expect(other.edit_history[0]).toEqual({ user_id: server.users.hamlet.id, timestamp: other.last_edit_timestamp, prev_stream: ch.verona, stream: ch.denmark, prev_topic: "whole", topic: "entire" });
  });

  it("change_later moves the message and those after it, and the notices count them", async () => {
    const ids = await send3("later");
    await server.as("hamlet").patch(`/messages/${ids[1]}`, { stream_id: ch.denmark, propagate_mode: "change_later", send_notification_to_old_thread: true });
    expect((await idsIn(server, "iago", topicIn("Denmark", "later"))).slice(0, 2)).toEqual([ids[1], ids[2]]);
    expect(await lastNotice("Denmark", "later")).toMatchObject({ content: `2 messages were moved here from #**Verona>later** by ${mention("hamlet")}.` });
    expect(await lastNotice("Verona", "later")).toMatchObject({ content: `2 messages were moved from this topic to #**Denmark>later** by ${mention("hamlet")}.` });
  });

  it("a single message from a longer topic tells the old topic so", async () => {
    const ids = await send3("one of three");
    await server.as("hamlet").patch(`/messages/${ids[0]}`, { stream_id: ch.denmark, send_notification_to_old_thread: true, send_notification_to_new_thread: false });
    expect(await idsIn(server, "iago", topicIn("Denmark", "one of three"))).toEqual([ids[0]]);
    expect(await lastNotice("Verona", "one of three")).toMatchObject({ content: `A message was moved from this topic to #**Denmark>one of three** by ${mention("hamlet")}.` });
  });

  it("joining an existing topic says how many messages came, not that the topic moved", async () => {
    await sendStream(server, "hamlet", "Denmark", "meeting", "already here");
    const ids = await send3("meeting");
    await server.as("hamlet").patch(`/messages/${ids[0]}`, { stream_id: ch.denmark, propagate_mode: "change_all" });
    expect(await lastNotice("Denmark", "meeting")).toMatchObject({ content: `3 messages were moved here from #**Verona>meeting** by ${mention("hamlet")}.` });
  });

  it("no notices when both are turned off", async () => {
    const ids = await send3("silent");
    await server.as("hamlet").patch(`/messages/${ids[0]}`, { stream_id: ch.denmark, propagate_mode: "change_all", send_notification_to_new_thread: false });
    expect(await idsIn(server, "iago", topicIn("Denmark", "silent"))).toEqual(ids);
    expect(await idsIn(server, "iago", topicIn("Verona", "silent"))).toEqual([]);
  });
});

describe("who may move messages between channels", () => {
  it("/register reports the realm's move settings at Zulip 9's defaults", async () => {
    const state = (await server.as("hamlet").post("/register", { fetch_event_types: ["realm"] })).body;
    expect(state).toMatchObject({
      realm_edit_topic_policy: 5,
      realm_move_messages_between_streams_policy: 1,
      realm_move_messages_between_streams_limit_seconds: 604800,
      realm_move_messages_within_stream_limit_seconds: 604800,
    });
  });

  it.each([
    ["desdemona", 200],
    ["iago", 200],
    ["shiva", 200],
    ["hamlet", 200],
    ["polonius", 400],
  ] as const)("under the default policy (members): %s → %d", async (who, status) => {
    const id = await sendStream(server, "othello", "Verona", "roles", "x");
    const res = await server.as(who).patch(`/messages/${id}`, { stream_id: ch.denmark, send_notification_to_new_thread: false });
    expect(res.status).toBe(status);
    if (status === 400) expect(res.body).toEqual(error("You don't have permission to move this message"));
  });

  it.each([
    [2, ["iago", "desdemona"], ["shiva", "hamlet"]],
    [4, ["iago", "shiva"], ["hamlet"]],
    [6, [], ["desdemona", "iago", "shiva", "hamlet"]],
  ] as const)("move_messages_between_streams_policy %d", async (policy, allowed, refused) => {
    await setRealmProps(server, { move_messages_between_streams_policy: policy });
    for (const who of allowed) {
      const id = await sendStream(server, "othello", "Verona", "policy", "x");
      expect((await server.as(who).patch(`/messages/${id}`, { stream_id: ch.denmark })).status).toBe(200);
    }
    for (const who of refused) {
      const id = await sendStream(server, "othello", "Verona", "policy", "x");
      expect((await server.as(who).patch(`/messages/${id}`, { stream_id: ch.denmark })).body).toEqual(error("You don't have permission to move this message"));
    }
    await setRealmProps(server, { move_messages_between_streams_policy: 1 });
  });

  it("the channel time limit binds members, not moderators", async () => {
    const id = await sendStream(server, "othello", "Verona", "old news", "x");
    server.clock.advance(604800 + 21);
    const res = await server.as("hamlet").patch(`/messages/${id}`, { stream_id: ch.denmark });
    expect(res.body).toEqual(error("The time limit for editing this message's channel has passed"));
    expect((await server.as("shiva").patch(`/messages/${id}`, { stream_id: ch.denmark })).status).toBe(200);
    await setRealmProps(server, { move_messages_between_streams_limit_seconds: null });
    const other = await sendStream(server, "othello", "Verona", "old news", "y");
    server.clock.advance(604800 * 2);
    expect((await server.as("hamlet").patch(`/messages/${other}`, { stream_id: ch.denmark })).status).toBe(200);
    await setRealmProps(server, { move_messages_between_streams_limit_seconds: 604800 });
  });

  it("a whole-topic move by a member must fit the time limit", async () => {
    const old = await sendStream(server, "othello", "Verona", "partly old", "x");
    server.clock.advance(604800 - 100);
    const fresh = await sendStream(server, "othello", "Verona", "partly old", "y");
    server.clock.advance(200);
    const res = await server.as("hamlet").patch(`/messages/${fresh}`, { stream_id: ch.denmark, propagate_mode: "change_all" });
    expect(res.body).toEqual(
      error("You only have permission to move the 1/2 most recent messages in this topic.", "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED", {
        first_message_id_allowed_to_move: fresh,
        total_messages_in_topic: 2,
        total_messages_allowed_to_move: 1,
      }),
    );
    expect((await server.as("iago").patch(`/messages/${old}`, { stream_id: ch.denmark, propagate_mode: "change_all" })).status).toBe(200);
  });

  it("the destination's posting policy applies to the mover", async () => {
    const { announce } = await createStreams(server, "iago", ["announce"], { stream_post_policy: 2, principals: [server.users.iago.id, server.users.hamlet.id] });
    const id = await sendStream(server, "othello", "Verona", "to announce", "x");
    expect((await server.as("hamlet").patch(`/messages/${id}`, { stream_id: announce ?? 0 })).body).toEqual(error("Only organization administrators can send to this channel."));
    expect((await server.as("iago").patch(`/messages/${id}`, { stream_id: announce ?? 0 })).status).toBe(200);
  });

  it.each([
    [4, {}, "Only organization administrators and moderators can send to this channel."],
    [3, { waiting_period_threshold: 100000 }, "New members cannot send to this channel."],
  ] as const)("stream_post_policy %d refuses a member", async (policy, realm, msg) => {
    const name = `post policy ${policy}`;
    const created = await createStreams(server, "iago", [name], { stream_post_policy: policy, principals: [server.users.hamlet.id] });
    await setRealmProps(server, realm);
    const id = await sendStream(server, "othello", "Verona", "post policy", "x");
    expect((await server.as("hamlet").patch(`/messages/${id}`, { stream_id: created[name] ?? 0 })).body).toEqual(error(msg));
    await setRealmProps(server, { waiting_period_threshold: 0 });
  });

  it("an archived channel is an invalid destination", async () => {
    const { attic } = await createStreams(server, "iago", ["attic"]);
    expect((await server.as("iago").delete(`/streams/${attic}`)).status).toBe(200);
    const id = await sendStream(server, "othello", "Verona", "to the attic", "x");
    expect((await server.as("iago").patch(`/messages/${id}`, { stream_id: attic ?? 0 })).body).toEqual(error("Invalid channel ID"));
  });
});

describe("refused channel moves", () => {
  it.each([
    [{ stream_id: 999999 }, "Invalid channel ID"],
    [{ stream_id: 1, content: "new" }, "Cannot change message content while changing channel"],
  ] as const)("refuses %j", async (params, msg) => {
    const id = await sendStream(server, "hamlet", "Verona", "refuse", "x");
    const res = await server.as("hamlet").patch(`/messages/${id}`, params);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error(msg));
  });

  it("a private channel the mover cannot see is an invalid channel", async () => {
    const id = await sendStream(server, "othello", "Verona", "private target", "x");
    expect((await server.as("othello").patch(`/messages/${id}`, { stream_id: ch.secret })).body).toEqual(error("Invalid channel ID"));
    expect((await server.as("desdemona").patch(`/messages/${id}`, { stream_id: ch.secret })).body).toEqual(error("Invalid channel ID"));
  });

  it("direct messages cannot be moved to channels", async () => {
    const dm = await sendDirect(server, "hamlet", ["othello"], "x");
    expect((await server.as("hamlet").patch(`/messages/${dm}`, { stream_id: ch.verona })).body).toEqual(error("Direct messages cannot be moved to channels."));
  });
});

describe("access after a move", () => {
  it("a private destination takes the messages from those who cannot read it", async () => {
    const ids = ["hamlet", "shiva"].map((n) => server.users[n as FixtureName].id);
    const { crypt } = await createStreams(server, "iago", ["crypt"], { principals: ids, invite_only: true, history_public_to_subscribers: false });
    const sent = await send3("into the crypt");
    await server.as("hamlet").patch(`/messages/${sent[0]}`, { stream_id: crypt ?? 0, propagate_mode: "change_all", send_notification_to_new_thread: false });
    for (const id of sent) {
      expect((await server.as("othello").get(`/messages/${id}`)).body).toEqual(error("Invalid message(s)"));
      expect((await server.as("polonius").get(`/messages/${id}`)).body).toEqual(error("Invalid message(s)"));
    }
    expect(await idsIn(server, "othello", [{ operator: "id", operand: sent[0] ?? 0 }])).toEqual([]);
    // crypt keeps its history from later subscribers, so its subscribers get read rows for what moved in.
    const seen: Json = await message("shiva", sent[0] ?? 0);
    expect(seen.message.flags).toEqual(["read"]);
    expect(await idsIn(server, "shiva", topicIn("crypt", "into the crypt"))).toEqual(sent);
    // hamlet had unread rows from Verona and keeps them.
    expect((await message("hamlet", sent[1] ?? 0)).message.flags).toEqual([]);
  });

  it("read rows given by a move count in max_message_id", async () => {
    await createStreams(server, "hamlet", ["moat"], { principals: [server.users.hamlet.id] });
    const { keep } = await createStreams(server, "iago", ["keep"], { principals: [server.users.hamlet.id, server.users.shiva.id], invite_only: true, history_public_to_subscribers: false });
    const id = await sendStream(server, "hamlet", "moat", "over the wall", "x");
    expect((await server.as("shiva").get("/users/me")).body.max_message_id).toBeLessThan(id);
    await server.as("hamlet").patch(`/messages/${id}`, { stream_id: keep ?? 0, send_notification_to_new_thread: false });
    expect((await server.as("shiva").get("/users/me")).body.max_message_id).toBe(id);
  });

  it("a public destination takes them from guests not subscribed to it", async () => {
    const id = await sendStream(server, "othello", "Verona", "guests", "x");
    expect((await server.as("polonius").get(`/messages/${id}`)).status).toBe(200);
    await server.as("hamlet").patch(`/messages/${id}`, { stream_id: ch.denmark });
    expect((await server.as("polonius").get(`/messages/${id}`)).body).toEqual(error("Invalid message(s)"));
    expect((await server.as("othello").get(`/messages/${id}`)).status).toBe(200);
  });
});
