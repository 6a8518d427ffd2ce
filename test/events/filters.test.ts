import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { queueTransforms } from "../../src/events/transforms.js";
import type { QueuedEvent } from "../../src/events/types.js";
import type { Json } from "../harness/client.js";
import { startServer, type FixtureName, type TestServer } from "../harness/server.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

async function queue(who: FixtureName, params: Record<string, unknown>): Promise<() => Promise<Json[]>> {
  const client = server.as(who);
  const res = await client.post("/register", { fetch_event_types: [], ...params } as never);
  expect(res.status).toBe(200);
  return async () => (await client.get("/events", { queue_id: res.body.queue_id, last_event_id: -1, dont_block: true })).body.events;
}

/** A channel message event as the messages area queues it: flags per recipient, public realm-wide. */
function channelMessage(channel: string, topic: string, sender: FixtureName, flags: Partial<Record<FixtureName, string[]>>, isPublic = true): QueuedEvent {
  const ids = Object.keys(flags).map((name) => server.users[name as FixtureName].id);
  return {
    event: {
      type: "message",
      message: { id: 42, type: "stream", display_recipient: channel, subject: topic, sender_email: server.users[sender].email, content: "hi" },
    },
    userIds: ids,
    perUser: Object.fromEntries(Object.entries(flags).map(([name, f]) => [server.users[name as FixtureName].id, { flags: f }])),
    publicRealmId: isPublic ? server.users.hamlet.realm_id : undefined,
  };
}

describe("queue filters", () => {
  it("merges each recipient's own fields (message flags) into their copy only", async () => {
    const hamlet = await queue("hamlet", { event_types: ["message"] });
    const othello = await queue("othello", { event_types: ["message"] });
    await server.app.ctx.bus.publish({ events: [channelMessage("Denmark", "castle", "iago", { hamlet: ["read"], othello: ["mentioned"] })], changes: [] });
    expect((await hamlet())[0]).toMatchObject({ type: "message", flags: ["read"], id: 0 });
    expect((await othello())[0]).toMatchObject({ type: "message", flags: ["mentioned"], id: 0 });
  });

  it("all_public_streams queues see public channel messages they were not addressed", async () => {
    const watcher = await queue("cordelia", { event_types: ["message"], all_public_streams: true });
    const plain = await queue("shiva", { event_types: ["message"] });
    await server.app.ctx.bus.publish({ events: [channelMessage("Denmark", "castle", "iago", { hamlet: [] })], changes: [] });
    await server.app.ctx.bus.publish({ events: [channelMessage("secret", "x", "iago", { hamlet: [] }, false)], changes: [] });
    expect((await watcher()).map((e) => e.message.display_recipient)).toEqual(["Denmark"]);
    expect(await plain()).toEqual([]);
  });

  it("a narrow keeps only the messages matching every term, case-insensitively", async () => {
    const denmark = await queue("hamlet", { event_types: ["message"], narrow: [["stream", "denmark"], ["topic", "CASTLE"]] });
    const unread = await queue("hamlet", { event_types: ["message"], narrow: [["is", "unread"]] });
    const fromIago = await queue("hamlet", { event_types: ["message"], narrow: [["sender", "IAGO@zulip.com"]] });
    await server.app.ctx.bus.publish({
      events: [
        channelMessage("Denmark", "castle", "iago", { hamlet: ["read"] }),
        channelMessage("Denmark", "moat", "othello", { hamlet: [] }),
        channelMessage("Verona", "castle", "iago", { hamlet: [] }),
      ],
      changes: [],
    });
    expect((await denmark()).map((e) => e.message.subject)).toEqual(["castle"]);
    expect((await unread()).map((e) => [e.message.display_recipient, e.message.subject])).toEqual([
      ["Denmark", "moat"],
      ["Verona", "castle"],
    ]);
    expect((await fromIago()).map((e) => e.message.display_recipient)).toEqual(["Denmark", "Verona"]);
  });

  it("a narrowed queue still receives the events that are not messages", async () => {
    const narrowed = await queue("hamlet", { event_types: ["message", "typing"], narrow: [["is", "dm"]] });
    await server.as("othello").post("/typing", { op: "start", to: [server.users.hamlet.id] });
    expect((await narrowed()).map((e) => e.type)).toEqual(["typing"]);
  });

  it("never gives a queue another user's events, even with all_public_streams", async () => {
    const watcher = await queue("cordelia", { all_public_streams: true });
    await server.as("othello").post("/typing", { op: "start", to: [server.users.hamlet.id] });
    await server.app.ctx.bus.publish({ events: [channelMessage("secret", "x", "iago", { hamlet: [] }, false)], changes: [] });
    expect(await watcher()).toEqual([]);
  });

  it("a per-queue transform may split one event into several, each with its own id", async () => {
    const original = queueTransforms.typing;
    queueTransforms.typing = (event) => [event, { ...event, op: "stop" }];
    try {
      const hamlet = await queue("hamlet", { event_types: ["typing"] });
      await server.as("othello").post("/typing", { op: "start", to: [server.users.hamlet.id] });
      expect((await hamlet()).map((e) => [e.op, e.id])).toEqual([
        ["start", 0],
        ["stop", 1],
      ]);
    } finally {
      queueTransforms.typing = original;
    }
  });
});
