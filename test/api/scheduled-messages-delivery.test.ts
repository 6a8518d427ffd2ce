import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success, type Json } from "../harness/client.js";
import { startServer, testBackend, type TestServer } from "../harness/server.js";
import { createChannels, idsIn, topicIn, type Channels } from "./messages-fixtures.js";
import { at, latestMessages, latestRaw, listOf, oneOf, schedule, scheduleDirect, scheduleToChannel } from "./scheduled-messages-fixtures.js";

let server: TestServer;
let channels: Channels;
beforeAll(async () => {
  server = await startServer();
  channels = await createChannels(server);
});
afterAll(() => server.stop());

/** Moves the clock on and sends what is then due, as the server's timer would. */
async function after(seconds: number): Promise<void> {
  server.clock.advance(seconds);
  await server.app.ctx.scheduledMessages.runDue();
}

/** How Zulip writes the time in its failure notice: `<time:2024-05-01 13:00:00+00:00>`. */
function noticeTime(seconds: number): string {
  const iso = new Date(seconds * 1000).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}+00:00`;
}

function failureNotice(seconds: number, reason: string): string {
  return `The message you scheduled for <time:${noticeTime(seconds)}>  was not sent because of the following error:\n\n> ${reason}\n\n[View scheduled messages](#scheduled)`;
}

describe("delivery at the scheduled time", () => {
  it("sends a channel message as its sender when due, not a second before, and drops it from the list", async () => {
    const when = at(server, 3600);
    const id = await scheduleToChannel(server, "hamlet", channels.verona, "Good **morning**", { scheduled_delivery_timestamp: when, topic: "daily" });
    const before = await idsIn(server, "othello", topicIn("Verona", "daily"));
    await after(3599);
    expect(await idsIn(server, "othello", topicIn("Verona", "daily"))).toEqual(before);
    expect(await oneOf(server, "hamlet", id)).toMatchObject({ failed: false });

    await after(1);
    const [message] = await latestMessages(server, "othello");
    expect(message).toMatchObject({
      sender_id: server.users.hamlet.id,
      type: "stream",
      stream_id: channels.verona,
      display_recipient: "Verona",
      subject: "daily",
      content: "<p>Good <strong>morning</strong></p>",
      timestamp: when,
      client: "node",
    });
    expect(await oneOf(server, "hamlet", id)).toBeUndefined();
    // Sent from a client that is not a person's app: the sender's own copy starts unread.
    expect((await latestMessages(server, "hamlet"))[0]).toMatchObject({ id: message.id, flags: [] });
  });

  it("cannot be edited once sent, and deleting it then leaves the message", async () => {
    const id = await scheduleToChannel(server, "hamlet", channels.denmark, "sent already");
    await after(3600);
    const [message] = await latestMessages(server, "hamlet");
    expect(message.content).toBe("<p>sent already</p>");
    const res = await server.as("hamlet").patch(`/scheduled_messages/${id}`, { content: "too late" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("Scheduled message was already sent"));
    expect((await server.as("othello").delete(`/scheduled_messages/${id}`)).status).toBe(404);
    expect((await server.as("hamlet").delete(`/scheduled_messages/${id}`)).body).toEqual(success());
    expect((await server.as("hamlet").get(`/messages/${message.id}`)).body.raw_content).toBe("sent already");
  });

  it("sends direct messages to their participants", async () => {
    const { hamlet, othello, cordelia } = server.users;
    await scheduleDirect(server, "hamlet", ["othello", "cordelia"], "group hello");
    await after(3600);
    const [message] = await latestMessages(server, "cordelia");
    expect(message).toMatchObject({ sender_id: hamlet.id, type: "private", content: "<p>group hello</p>" });
    expect(message.display_recipient.map((r: Json) => r.id)).toEqual([hamlet.id, othello.id, cordelia.id].sort((a, b) => a - b));
    expect((await latestMessages(server, "othello"))[0].id).toBe(message.id);
  });

  it("marks the sender's copy read as Zulip decides: a person's app, not to themselves alone, or read_by_sender", async () => {
    const app = { "user-agent": "ZulipMobile/27.192 (Android 14)" };
    const base = { content: "x", scheduled_delivery_timestamp: at(server, 60) };
    await schedule(server, "hamlet", { ...base, type: "direct", to: [server.users.othello.id], content: "from the app" }, app);
    await after(60);
    expect((await latestMessages(server, "hamlet"))[0]).toMatchObject({ content: "<p>from the app</p>", flags: ["read"], client: "ZulipMobile" });

    await schedule(server, "hamlet", { ...base, scheduled_delivery_timestamp: at(server, 60), type: "direct", to: [server.users.hamlet.id], content: "to myself" }, app);
    await after(60);
    expect((await latestMessages(server, "hamlet"))[0]).toMatchObject({ content: "<p>to myself</p>", flags: [] });

    await schedule(server, "hamlet", { ...base, scheduled_delivery_timestamp: at(server, 60), type: "stream", to: channels.verona, topic: "t", content: "api", read_by_sender: true });
    await after(60);
    expect((await latestMessages(server, "hamlet"))[0]).toMatchObject({ content: "<p>api</p>", flags: ["read"] });
  });

  it("sends what is due in order of time, then of scheduling, across more than one batch", async () => {
    const when = at(server, 600);
    const ids: number[] = [];
    for (let i = 0; i < 300; i++) ids.push(await scheduleToChannel(server, "iago", channels.denmark, `n${i}`, { topic: "bulk", scheduled_delivery_timestamp: i === 0 ? when + 1 : when }));
    await after(601);
    const messages = (await server.as("iago").get("/messages", { anchor: "newest", num_before: 400, num_after: 0, narrow: topicIn("Denmark", "bulk"), apply_markdown: false })).body.messages;
    expect(messages.map((m: Json) => m.content)).toEqual([...Array.from({ length: 299 }, (_, i) => `n${i + 1}`), "n0"]);
    expect(await listOf(server, "iago")).toEqual([]);
  });
});

describe("a scheduled message that cannot be sent", () => {
  it("is marked failed, and Notification Bot tells its sender why", async () => {
    const when = at(server, 3600);
    const id = await scheduleToChannel(server, "hamlet", channels.secret, "for the secret few", { scheduled_delivery_timestamp: when, topic: "hush" });
    expect((await server.as("hamlet").delete("/users/me/subscriptions", { subscriptions: ["secret"] })).status).toBe(200);
    await after(3600);
    expect(await oneOf(server, "hamlet", id)).toMatchObject({ scheduled_message_id: id, failed: true, content: "for the secret few" });
    expect(await idsIn(server, "iago", topicIn("secret", "hush"))).toEqual([]);
    const notice = await latestRaw(server, "hamlet");
    expect(notice).toMatchObject({ sender_email: "notification-bot@zulip.com", type: "private", content: failureNotice(when, "Not authorized to send to channel 'secret'") });
    const rendered = (await server.as("hamlet").get(`/messages/${notice.id}`)).body.message.content;
    expect(rendered).toContain(`<time datetime="${new Date(when * 1000).toISOString().replace(".000", "")}">`);
    // Nothing more is tried until it is given a new time.
    await after(60);
    expect(await oneOf(server, "hamlet", id)).toMatchObject({ failed: true });
  });

  it("needs a new time to be edited, which clears the failure; then it is sent", async () => {
    const id = await scheduleToChannel(server, "cordelia", channels.vault, "vault news", { topic: "news" });
    await server.as("cordelia").delete("/users/me/subscriptions", { subscriptions: ["vault"] });
    await after(3600);
    expect(await oneOf(server, "cordelia", id)).toMatchObject({ failed: true });
    const noTime = await server.as("cordelia").patch(`/scheduled_messages/${id}`, { content: "vault news, again" });
    expect(noTime.body).toEqual(error("Scheduled delivery time must be in the future."));

    const when = at(server, 120);
    expect((await server.as("cordelia").patch(`/scheduled_messages/${id}`, { scheduled_delivery_timestamp: when })).status).toBe(200);
    expect(await oneOf(server, "cordelia", id)).toMatchObject({ failed: false, scheduled_delivery_timestamp: when });
    await server.as("iago").post("/users/me/subscriptions", { subscriptions: [{ name: "vault" }], principals: [server.users.cordelia.id] });
    await after(120);
    expect(await oneOf(server, "cordelia", id)).toBeUndefined();
    expect((await latestMessages(server, "iago"))[0]).toMatchObject({ sender_id: server.users.cordelia.id, display_recipient: "vault", content: "<p>vault news</p>" });
  });

  it("fails in an archived channel", async () => {
    const created = await server.as("iago").post("/users/me/subscriptions", { subscriptions: [{ name: "short-lived" }], principals: [server.users.hamlet.id, server.users.iago.id] });
    expect(created.status).toBe(200);
    const streamId = (await server.as("iago").get("/get_stream_id", { stream: "short-lived" })).body.stream_id;
    const id = await scheduleToChannel(server, "hamlet", streamId, "anyone there?");
    expect((await server.as("iago").delete(`/streams/${streamId}`)).status).toBe(200);
    await after(3600);
    expect(await oneOf(server, "hamlet", id)).toMatchObject({ failed: true });
    const notice = await latestRaw(server, "hamlet");
    expect(notice.content).toContain("> Not authorized to send to channel '!DEACTIVATED:short-lived'");
  });

  it("fails when more than ten minutes late", async () => {
    const when = at(server, 60);
    const id = await scheduleDirect(server, "othello", ["cordelia"], "on time?", { scheduled_delivery_timestamp: when });
    server.clock.advance(60 + 601);
    await server.app.ctx.scheduledMessages.runDue();
    expect(await oneOf(server, "othello", id)).toMatchObject({ failed: true });
    const notice = await latestRaw(server, "othello");
    expect(notice.content).toBe(failureNotice(when, "Message could not be sent at the scheduled time."));
    expect((await latestMessages(server, "cordelia"))[0]?.content).not.toBe("<p>on time?</p>");
  });

  it("fails when a recipient was deactivated", async () => {
    const created = await server.as("iago").post("/users", { email: "gone@zulip.com", password: "pw-gone-12345", full_name: "Gone" });
    const id = await schedule(server, "othello", { type: "direct", to: [created.body.user_id], content: "bye", scheduled_delivery_timestamp: at(server, 60) });
    await server.as("iago").delete(`/users/${created.body.user_id}`);
    await after(60);
    expect(await oneOf(server, "othello", id.body.scheduled_message_id)).toMatchObject({ failed: true });
    const notice = await latestRaw(server, "othello");
    expect(notice.content).toContain("> 'gone@zulip.com' is no longer using Zulip.");
  });

  it("fails alone, as 'Internal server error', when sending it breaks unexpectedly; the rest go", async () => {
    // A trigger refusing one message's row stands for a fault in the database (SQLite's syntax).
    if (testBackend() !== "sqlite") return;
    await server.app.ctx.store.write((tx) => sql`create trigger refuse_boom before insert on message when new.content = 'boom' begin select raise(abort, 'refused'); end`.execute(tx));
    const when = at(server, 60);
    const ids = [];
    for (const content of ["before", "boom", "after"]) ids.push(await scheduleToChannel(server, "iago", channels.denmark, content, { topic: "fault", scheduled_delivery_timestamp: when }));
    await after(60);
    await server.app.ctx.store.write((tx) => sql`drop trigger refuse_boom`.execute(tx));
    const sent = (await server.as("iago").get("/messages", { anchor: "newest", num_before: 10, num_after: 0, narrow: topicIn("Denmark", "fault"), apply_markdown: false })).body.messages;
    expect(sent.map((m: Json) => m.content)).toEqual(["before", "after"]);
    expect(await listOf(server, "iago")).toEqual([expect.objectContaining({ scheduled_message_id: ids[1], failed: true })]);
    const [notice] = (await server.as("iago").get("/messages", { anchor: "newest", num_before: 1, num_after: 0, narrow: [{ operator: "is", operand: "dm" }], apply_markdown: false })).body.messages;
    expect(notice).toMatchObject({ sender_email: "notification-bot@zulip.com", content: failureNotice(when, "Internal server error") });
  });

  it("fails without a notice when its sender was deactivated", async () => {
    const created = await server.as("iago").post("/users", { email: "quitter@zulip.com", password: "pw-quit-12345", full_name: "Quitter" });
    const quitter = { ...server.users.othello, id: created.body.user_id, delivery_email: "quitter@zulip.com", api_key: "" };
    const key = await server.anonymous().post("/fetch_api_key", { username: "quitter@zulip.com", password: "pw-quit-12345" });
    quitter.api_key = key.body.api_key;
    const res = await server.as(quitter).post("/scheduled_messages", { type: "stream", to: channels.verona, topic: "t", content: "bye all", scheduled_delivery_timestamp: at(server, 60) });
    await server.as("iago").delete(`/users/${quitter.id}`);
    await after(60);
    await server.as("iago").post(`/users/${quitter.id}/reactivate`);
    const listed = (await server.as(quitter).get("/scheduled_messages")).body.scheduled_messages;
    expect(listed).toEqual([expect.objectContaining({ scheduled_message_id: res.body.scheduled_message_id, failed: true })]);
    // A new account's only direct message is the Welcome Bot's greeting; Notification Bot says nothing.
    const mine = (await server.as(quitter).get("/messages", { anchor: "newest", num_before: 5, num_after: 0, narrow: [{ operator: "is", operand: "dm" }] })).body.messages;
    expect(mine.map((m: { sender_email: string }) => m.sender_email)).toEqual(["welcome-bot@zulip.com"]);
  });
});

describe("the timer", () => {
  it("sends a message at its time with no one asking: a waiting long-poll receives it", async () => {
    const queue = (await server.as("othello").post("/register", { event_types: ["message"], fetch_event_types: [] })).body;
    // Due one second on; the clock is moved there at once, the timer fires a real second later.
    await scheduleToChannel(server, "hamlet", channels.verona, "on the dot", { scheduled_delivery_timestamp: at(server, 1) });
    server.clock.advance(1);
    const polled = await server.as("othello").get("/events", { queue_id: queue.queue_id, last_event_id: queue.last_event_id });
    expect(polled.body.events).toEqual([expect.objectContaining({ type: "message", message: expect.objectContaining({ content: "on the dot", sender_id: server.users.hamlet.id }) })]);
  });
});
