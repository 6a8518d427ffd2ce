import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error, success } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { Role } from "../../src/lib/users/roles.js";
import { createChannels, sendStream, type Channels } from "./messages-fixtures.js";
import { createStreams } from "./streams-helpers.js";

let server: TestServer;
let channels: Channels;

beforeAll(async () => {
  server = await startServer();
  channels = await createChannels(server);
});
afterAll(() => server.stop());

describe("POST /messages to a channel", () => {
  it("sends by name and by id and answers the new id", async () => {
    const res = await server.as("hamlet").post("/messages", { type: "stream", to: "Verona", topic: "greetings", content: "hello" });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(success({ id: expect.any(Number) }));
    const byId = await server.as("hamlet").post("/messages", { type: "channel", to: String(channels.verona), subject: "greetings", content: "again" });
    expect(byId.body).toEqual(success({ id: res.body.id + 1 }));
    const list = await server.as("hamlet").post("/messages", { type: "stream", to: JSON.stringify(["Verona"]), topic: "x", content: "y" });
    expect(list.status).toBe(200);
    const quoted = await server.as("hamlet").post("/messages", { type: "stream", to: JSON.stringify("Verona"), topic: "x", content: "y" });
    expect(quoted.status).toBe(200);
  });

  it("sends to a channel whose name starts the way JSON does", async () => {
    await createStreams(server, "hamlet", ["2024 plans", "news"]);
    for (const name of ["2024 plans", "news"]) {
      const res = await server.as("hamlet").post("/messages", { type: "stream", to: name, topic: "t", content: "x" });
      expect(res.body).toEqual(success({ id: expect.any(Number) }));
      expect((await server.as("hamlet").get(`/messages/${res.body.id}`)).body.message.display_recipient).toBe(name);
    }
  });

  it("stores what GET /messages/{id} returns", async () => {
    const id = await sendStream(server, "othello", "Verona", "stored", "**bold**");
    const res = await server.as("othello").get(`/messages/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.raw_content).toBe("**bold**");
    expect(res.body.message).toEqual({
      id,
      sender_id: server.users.othello.id,
      content: "<p><strong>bold</strong></p>",
      recipient_id: expect.any(Number),
      timestamp: Math.floor(server.clock.now() / 1000),
      client: "node",
      subject: "stored",
      topic_links: [],
      is_me_message: false,
      reactions: [],
      submessages: [],
      sender_full_name: "Othello, the Moor of Venice",
      sender_email: "othello@zulip.com",
      sender_realm_str: "",
      display_recipient: "Verona",
      type: "stream",
      stream_id: channels.verona,
      avatar_url: expect.stringContaining("https://secure.gravatar.com/avatar/"),
      content_type: "text/html",
      flags: [],
    });
  });

  it("truncates long content and topics as Zulip does", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "t".repeat(70), "a".repeat(10050));
    const res = await server.as("hamlet").get(`/messages/${id}`);
    expect(res.body.raw_content).toBe("a".repeat(9980) + "\n[message truncated]");
    expect(res.body.raw_content.length).toBe(10000);
    expect(res.body.message.subject).toBe("t".repeat(57) + "...");
  });

  it("strips trailing whitespace and leading newlines, and the topic", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "  padded  ", "\n\nbody  \n");
    const res = await server.as("hamlet").get(`/messages/${id}`);
    expect(res.body.raw_content).toBe("body");
    expect(res.body.message.subject).toBe("padded");
  });

  it.each([
    [{ type: "stream", to: "Verona", topic: "t", content: "  \n " }, error("Message must not be empty")],
    [{ type: "stream", to: "Verona", topic: "t", content: "a\u0000b" }, error("Message must not contain null bytes")],
    [{ type: "stream", to: "Verona", topic: "  ", content: "x" }, error("Topic can't be empty!")],
    [{ type: "stream", to: "Verona", topic: "a\u0001b", content: "x" }, error("Invalid character in topic, at position 2!")],
    [{ type: "stream", to: "Verona", content: "x" }, error("Missing topic")],
    [{ type: "stream", topic: "t", content: "x" }, error("Missing channel")],
    [{ type: "stream", to: JSON.stringify(["Verona", "Denmark"]), topic: "t", content: "x" }, error("Expected exactly one channel")],
    [{ type: "stream", to: "{}", topic: "t", content: "x" }, error("Invalid data type for channel")],
    [{ type: "stream", to: "nowhere<b>", topic: "t", content: "x" }, error("Channel 'nowhere&lt;b&gt;' does not exist", "STREAM_DOES_NOT_EXIST", { stream: "nowhere<b>" })],
    [{ type: "stream", to: "99999", topic: "t", content: "x" }, error("Channel with ID '99999' does not exist", "STREAM_DOES_NOT_EXIST", { stream_id: 99999 })],
    [{ type: "bogus", to: "Verona", topic: "t", content: "x" }, error("Invalid type")],
    [{ type: "stream", to: "Verona", topic: "t" }, error("Missing 'content' argument", "REQUEST_VARIABLE_MISSING", { var_name: "content" })],
  ])("refuses %j", async (params, expected) => {
    // Zulip's StreamWithIDDoesNotExistError carries stream_id, which its document leaves out.
    const res = await server.as("hamlet").post("/messages", params, { validate: !("stream_id" in expected) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
  });

  it("lets only subscribers post to a private channel", async () => {
    const res = await server.as("othello").post("/messages", { type: "stream", to: "secret", topic: "t", content: "x" });
    expect(res.body).toEqual(error("Not authorized to send to channel 'secret'"));
    expect((await server.as("hamlet").post("/messages", { type: "stream", to: "secret", topic: "t", content: "x" })).status).toBe(200);
  });

  it("keeps guests to channels they are subscribed to", async () => {
    const res = await server.as("polonius").post("/messages", { type: "stream", to: "Denmark", topic: "t", content: "x" });
    expect(res.body).toEqual(error("Not authorized to send to channel 'Denmark'"));
    expect((await server.as("polonius").post("/messages", { type: "stream", to: "Verona", topic: "t", content: "x" })).status).toBe(200);
  });

  it("lets a bot post where its owner may", async () => {
    const res = await server.as("bot").post("/messages", { type: "stream", to: "secret", topic: "t", content: "from the bot" });
    expect(res.status).toBe(200);
  });

  it("echoes local_id as local_message_id to the queue named by queue_id only", async () => {
    const register = async (who: "hamlet" | "othello") =>
      (await server.as(who).post("/register", { event_types: ["message"], fetch_event_types: [] })).body.queue_id as string;
    const [sending, other, recipient] = [await register("hamlet"), await register("hamlet"), await register("othello")];
    const sent = await server.as("hamlet").post("/messages", { type: "stream", to: "Verona", topic: "local", content: "echo", queue_id: sending, local_id: "17.01" });
    expect(sent.status).toBe(200);
    const eventOf = async (who: "hamlet" | "othello", queueId: string) =>
      (await server.as(who).get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true })).body.events[0];
    expect(await eventOf("hamlet", sending)).toMatchObject({ type: "message", local_message_id: "17.01", message: { id: sent.body.id } });
    expect(await eventOf("hamlet", other)).not.toHaveProperty("local_message_id");
    expect(await eventOf("othello", recipient)).not.toHaveProperty("local_message_id");
  });
});

describe("POST /messages to people", () => {
  it("accepts ids, a JSON list of emails and comma-separated emails", async () => {
    const byIds = await server.as("hamlet").post("/messages", { type: "direct", to: [server.users.othello.id], content: "hi" });
    expect(byIds.body).toEqual(success({ id: expect.any(Number) }));
    const byEmails = await server.as("hamlet").post("/messages", { type: "private", to: JSON.stringify(["othello@zulip.com"]), content: "hi" });
    expect(byEmails.status).toBe(200);
    const raw = await server.as("hamlet").post("/messages", { type: "private", to: "othello@zulip.com, cordelia@zulip.com,", content: "group" });
    expect(raw.status).toBe(200);
    const group = await server.as("hamlet").get(`/messages/${raw.body.id}`);
    expect(group.body.message.type).toBe("private");
    expect(group.body.message.subject).toBe("");
    expect(group.body.message.display_recipient).toEqual(
      ["hamlet", "othello", "cordelia"]
        .map((n) => server.users[n as "hamlet"])
        .sort((a, b) => a.id - b.id)
        .map((u) => ({ id: u.id, email: u.email, full_name: u.full_name, is_mirror_dummy: false })),
    );
    expect("stream_id" in group.body.message).toBe(false);
  });

  it.each([
    [{ type: "direct", to: "[]", content: "x" }, error("Message must have recipients")],
    [{ type: "direct", content: "x" }, error("Message must have recipients")],
    [{ type: "direct", to: JSON.stringify(["nobody@zulip.com"]), content: "x" }, error("Invalid email 'nobody@zulip.com'")],
    [{ type: "direct", to: JSON.stringify([99999]), content: "x" }, error("Invalid user ID 99999")],
    [{ type: "direct", to: JSON.stringify([1, "a@b.c"]), content: "x" }, error("Recipient lists may contain emails or user IDs, but not both.")],
    [{ type: "direct", to: "5", content: "x" }, error("Invalid data type for recipients")],
  ])("refuses %j", async (params, expected) => {
    const res = await server.as("hamlet").post("/messages", params);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(expected);
  });

  it("marks the sender's copy read only for interactive clients or read_by_sender", async () => {
    const api = await server.as("hamlet").post("/messages", { type: "direct", to: [server.users.othello.id], content: "api" });
    expect((await server.as("hamlet").get(`/messages/${api.body.id}`)).body.message.flags).toEqual([]);
    const asked = await server.as("hamlet").post("/messages", { type: "direct", to: [server.users.othello.id], content: "x", read_by_sender: true });
    expect((await server.as("hamlet").get(`/messages/${asked.body.id}`)).body.message.flags).toEqual(["read"]);
    const app = await server.as("hamlet").post("/messages", { type: "direct", to: [server.users.othello.id], content: "x" }, { headers: { "user-agent": "ZulipMobile/27.200" } });
    const got = (await server.as("hamlet").get(`/messages/${app.body.id}`)).body.message;
    expect(got.flags).toEqual(["read"]);
    expect(got.client).toBe("ZulipMobile");
    expect((await server.as("othello").get(`/messages/${app.body.id}`)).body.message.flags).toEqual([]);
  });

  it("sets mention flags from the rendered content", async () => {
    const id = await sendStream(server, "hamlet", "Verona", "mentions", "hi @**Othello, the Moor of Venice** and @**all**");
    expect((await server.as("othello").get(`/messages/${id}`)).body.message.flags).toEqual(["mentioned", "stream_wildcard_mentioned", "wildcard_mentioned"]);
    expect((await server.as("cordelia").get(`/messages/${id}`)).body.message.flags).toEqual(["stream_wildcard_mentioned", "wildcard_mentioned"]);
  });

  it("delivers messages from a muted sender already read", async () => {
    const mute = await server.as("cordelia").post(`/users/me/muted_users/${server.users.othello.id}`);
    expect(mute.status).toBe(200);
    const id = await sendStream(server, "othello", "Verona", "muted", "you will not notice");
    expect((await server.as("cordelia").get(`/messages/${id}`)).body.message.flags).toEqual(["read"]);
    expect((await server.as("hamlet").get(`/messages/${id}`)).body.message.flags).toEqual([]);
  });
});

describe("POST /messages/render", () => {
  it("renders without storing", async () => {
    const res = await server.as("hamlet").post("/messages/render", { content: "**hi** @**King Hamlet**" });
    expect(res.body).toEqual(success({ rendered: `<p><strong>hi</strong> <span class="user-mention" data-user-id="${server.users.hamlet.id}">@King Hamlet</span></p>` }));
    const missing = await server.as("hamlet").post("/messages/render", {});
    expect(missing.body).toEqual(error("Missing 'content' argument", "REQUEST_VARIABLE_MISSING", { var_name: "content" }));
  });
});

describe("wildcard mentions in large channels", () => {
  it("need the realm's wildcard_mention_policy (administrators by default) above 15 subscribers", async () => {
    const ids = Object.values(server.users).map((u) => u.id);
    for (let i = 0; i < 10; i++) {
      const res = await server.as("iago").post("/users", { email: `extra${i}@zulip.com`, password: "extra-password-1", full_name: `Extra ${i}` });
      ids.push(res.body.user_id);
    }
    await server.as("iago").post("/users/me/subscriptions", { subscriptions: [{ name: "crowd" }], principals: ids });
    const res = await server.as("hamlet").post("/messages", { type: "stream", to: "crowd", topic: "t", content: "@**all** hello" });
    expect(res.body).toEqual(error("You do not have permission to use channel wildcard mentions in this channel.", "STREAM_WILDCARD_MENTION_NOT_ALLOWED"));
    expect((await server.as("iago").post("/messages", { type: "stream", to: "crowd", topic: "t", content: "@**all** hello" })).status).toBe(200);
    expect((await server.as("hamlet").post("/messages", { type: "stream", to: "Verona", topic: "t", content: "@**all** small" })).status).toBe(200);
  });
});

describe("a channel with more subscribers than one insert takes", () => {
  it("gives every subscriber a row, the last ones too", async () => {
    const { checkCreateUser } = await import("../../src/actions/users.js");
    const crowd = [];
    for (let i = 0; i < 320; i++) {
      crowd.push(await checkCreateUser(server.app.ctx, { realmId: server.users.hamlet.realm_id, email: `many${i}@zulip.com`, fullName: `Many ${i}`, password: null, role: Role.MEMBER }));
    }
    await server.as("iago").post("/users/me/subscriptions", { subscriptions: [{ name: "stadium" }], principals: crowd.map((u) => u.id) });
    const id = await sendStream(server, "iago", "stadium", "kick-off", "hello, all 321 of you");
    // A row of their own: unread. Without one (hamlet is not subscribed) it reads as historical.
    for (const who of [crowd[0]!, crowd[299]!, crowd[300]!, crowd[319]!]) {
      expect((await server.as(who).get(`/messages/${id}`)).body.message.flags).toEqual([]);
    }
    expect((await server.as("hamlet").get(`/messages/${id}`)).body.message.flags).toEqual(["read", "historical"]);
  });
});
