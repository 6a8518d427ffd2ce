import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { error, success, type Client } from "../harness/client.js";
import { delivered, queuesOf, startServer, type TestServer } from "../harness/server.js";
import { sendDirect } from "./messages-fixtures.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());
beforeEach(() => {
  for (const app of server.apps) app.ctx.queues.heartbeatMs = undefined;
});

async function register(client: Client, params: Record<string, unknown> = {}): Promise<string> {
  const res = await client.post("/register", { event_types: ["realm_user", "typing"], fetch_event_types: [], ...params } as never);
  expect(res.status).toBe(200);
  return res.body.queue_id;
}

/** Resolves once a poll is parked on the queue (the server answers nothing until then). */
async function parked(queueId: string, waiting = true): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const queue = [...queuesOf(server, server.users.hamlet.id), ...queuesOf(server, server.users.othello.id)].find((q) => q.id === queueId);
    if (queue?.isWaiting() === waiting) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`queue ${queueId} never ${waiting ? "had" : "lost"} a waiting poll`);
}

const typeTo = (to: number) => server.as("cordelia").post("/typing", { op: "start", to: [to] });

describe("GET /events, blocking", () => {
  it("holds the request until an event arrives, then answers with it and the queue id", async () => {
    const hamlet = server.as("hamlet");
    const queueId = await register(hamlet);
    const poll = hamlet.get("/events", { queue_id: queueId, last_event_id: -1 });
    await parked(queueId);
    await typeTo(server.users.hamlet.id);
    const res = await poll;
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      success({
        events: [
          {
            type: "typing",
            op: "start",
            message_type: "direct",
            sender: { user_id: server.users.cordelia.id, email: "cordelia@zulip.com" },
            recipients: [
              { user_id: server.users.hamlet.id, email: "hamlet@zulip.com" },
              { user_id: server.users.cordelia.id, email: "cordelia@zulip.com" },
            ],
            id: 0,
          },
        ],
        queue_id: queueId,
      }),
    );
  });

  it("answers at once, without queue_id, when events are already waiting", async () => {
    const hamlet = server.as("hamlet");
    const queueId = await register(hamlet);
    await typeTo(server.users.hamlet.id);
    await typeTo(server.users.hamlet.id);
    await delivered(server, server.users.hamlet.id, queueId, 2);
    const res = await hamlet.get("/events", { queue_id: queueId, last_event_id: -1 });
    expect(res.body.events.map((e: { id: number }) => e.id)).toEqual([0, 1]);
    expect(res.body.queue_id).toBeUndefined();
    // Events stay until acknowledged by last_event_id.
    const again = await hamlet.get("/events", { queue_id: queueId, last_event_id: 0, dont_block: true });
    expect(again.body.events.map((e: { id: number }) => e.id)).toEqual([1]);
    const done = await hamlet.get("/events", { queue_id: queueId, last_event_id: 1, dont_block: true });
    expect(done.body).toEqual(success({ events: [] }));
  });

  it("sends a heartbeat when nothing happens, and it consumes an event id", async () => {
    for (const app of server.apps) app.ctx.queues.heartbeatMs = 30;
    const hamlet = server.as("hamlet");
    const queueId = await register(hamlet);
    const res = await hamlet.get("/events", { queue_id: queueId, last_event_id: -1 });
    expect(res.body).toEqual(success({ events: [{ type: "heartbeat", id: 0 }], queue_id: queueId }));
    await typeTo(server.users.hamlet.id);
    const next = await hamlet.get("/events", { queue_id: queueId, last_event_id: 0 });
    expect(next.body.events).toMatchObject([{ type: "typing", id: 1 }]);
  });

  it("a newer poll on the same queue answers the older one with no events", async () => {
    const hamlet = server.as("hamlet");
    const queueId = await register(hamlet);
    const first = hamlet.get("/events", { queue_id: queueId, last_event_id: -1 });
    await parked(queueId);
    const second = hamlet.get("/events", { queue_id: queueId, last_event_id: -1 });
    expect((await first).body).toEqual(success({ events: [], queue_id: queueId }));
    await parked(queueId);
    await typeTo(server.users.hamlet.id);
    expect((await second).body.events).toMatchObject([{ type: "typing", id: 0 }]);
  });

  it("a client that hangs up leaves no waiting poll and no heartbeat timer", async () => {
    // Long enough for the hang-up to reach the queue first, even through a proxy and a forwarding process.
    for (const app of server.apps) app.ctx.queues.heartbeatMs = 150;
    const hamlet = server.as("hamlet");
    const queueId = await register(hamlet);
    const abort = new AbortController();
    const url = `${server.url}/api/v1/events?queue_id=${queueId}&last_event_id=-1`;
    const auth = "Basic " + Buffer.from(`hamlet@zulip.com:${server.users.hamlet.api_key}`).toString("base64");
    const pending = fetch(url, { headers: { authorization: auth }, signal: abort.signal }).catch((e: unknown) => e);
    await parked(queueId);
    abort.abort();
    await pending;
    await parked(queueId, false);
    await new Promise((r) => setTimeout(r, 200));
    // Had the timer survived, a heartbeat would be queued by now.
    const res = await hamlet.get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true });
    expect(res.body).toEqual(success({ events: [] }));
  });

  it("DELETE /events answers a poll waiting on the queue", async () => {
    const hamlet = server.as("hamlet");
    const queueId = await register(hamlet);
    const poll = hamlet.get("/events", { queue_id: queueId, last_event_id: -1 });
    await parked(queueId);
    expect((await hamlet.delete("/events", { queue_id: queueId })).body).toEqual(success());
    expect((await poll).body).toEqual(success({ events: [], queue_id: queueId }));
  });

  it("never delivers another user's direct typing to a queue", async () => {
    const othello = server.as("othello");
    const queueId = await register(othello);
    await typeTo(server.users.hamlet.id);
    const res = await othello.get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true });
    expect(res.body.events).toEqual([]);
  });
});

describe("update_message_flags events waiting in a queue", () => {
  it("join into one per kind, with the newest id, until a poll takes them", async () => {
    const ids = [];
    for (const content of ["a", "b", "c", "d"]) ids.push(await sendDirect(server, "othello", ["hamlet"], content));
    const queueId = await register(server.as("hamlet"), { event_types: ["update_message_flags"] });
    const flag = (messages: number[], op: "add" | "remove", flagName = "read") =>
      server.as("hamlet").post("/messages/flags", { messages: JSON.stringify(messages), op, flag: flagName });
    await flag([ids[0]!], "add");
    await flag([ids[1]!], "add", "starred");
    await flag([ids[2]!, ids[3]!], "add");
    await flag([ids[3]!], "remove");
    const poll = async (last: number) => (await server.as("hamlet").get("/events", { queue_id: queueId, last_event_id: last, dont_block: true })).body.events;
    const events = await poll(-1);
    expect(events.map((e: { id: number; op: string; flag: string; messages: number[] }) => [e.id, e.op, e.flag, e.messages])).toEqual([
      [1, "add", "starred", [ids[1]]],
      [2, "add", "read", [ids[0], ids[2], ids[3]]],
      [3, "remove", "read", [ids[3]]],
    ]);
    // Once handed out, a waiting event is closed: the next read starts a new one.
    await flag([ids[1]!], "add");
    expect((await poll(-1)).map((e: { id: number; messages: number[] }) => [e.id, e.messages])).toEqual([
      [1, [ids[1]]],
      [2, [ids[0], ids[2], ids[3]]],
      [3, [ids[3]]],
      [4, [ids[1]]],
    ]);
  });
});

describe("GET /events without queue_id", () => {
  it("registers a queue when dont_block is true, with no state", async () => {
    const hamlet = server.as("hamlet");
    const res = await hamlet.get("/events", { dont_block: true, event_types: ["typing"] });
    expect(res.body).toEqual(success({ events: [], queue_id: expect.stringMatching(/^[0-9a-f-]{36}$/) }));
    await typeTo(server.users.hamlet.id);
    await delivered(server, server.users.hamlet.id, res.body.queue_id, 1);
    const next = await hamlet.get("/events", { queue_id: res.body.queue_id, last_event_id: -1, dont_block: true });
    expect(next.body.events).toMatchObject([{ type: "typing", op: "start", id: 0 }]);
  });

  it("refuses a blocking call", async () => {
    const res = await server.as("hamlet").get("/events", {});
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("Missing 'queue_id' argument"));
  });
});

describe("GET /events errors", () => {
  it("requires last_event_id with a queue_id", async () => {
    const hamlet = server.as("hamlet");
    const queueId = await register(hamlet);
    const res = await hamlet.get("/events", { queue_id: queueId });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(error("Missing 'last_event_id' argument"));
  });

  it("answers BAD_EVENT_QUEUE_ID for an unknown queue and for another user's", async () => {
    const queueId = await register(server.as("othello"));
    for (const id of ["no-such-queue", queueId]) {
      const res = await server.as("hamlet").get("/events", { queue_id: id, last_event_id: -1 });
      expect(res.status).toBe(400);
      expect(res.body).toEqual(error(`Bad event queue ID: ${id}`, "BAD_EVENT_QUEUE_ID", { queue_id: id }));
    }
  });

  it("refuses acknowledging below what was pruned, or an id never issued", async () => {
    const hamlet = server.as("hamlet");
    const queueId = await register(hamlet);
    await typeTo(server.users.hamlet.id);
    await typeTo(server.users.hamlet.id);
    await hamlet.get("/events", { queue_id: queueId, last_event_id: 1, dont_block: true });
    const old = await hamlet.get("/events", { queue_id: queueId, last_event_id: 0, dont_block: true });
    expect(old.body).toEqual(error("An event newer than 0 has already been pruned!"));
    const future = await hamlet.get("/events", { queue_id: queueId, last_event_id: 5, dont_block: true });
    expect(future.body).toEqual(error("Event 5 was not in this queue"));
  });

  it("rejects a last_event_id that is not an integer", async () => {
    const hamlet = server.as("hamlet");
    const queueId = await register(hamlet);
    const res = await hamlet.get("/events", { queue_id: queueId, last_event_id: "one" });
    expect(res.body).toEqual(error("last_event_id is not valid JSON"));
  });
});

describe("queue expiry", () => {
  it("collects a queue idle for 600 s by default", async () => {
    const hamlet = server.as("hamlet");
    const queueId = await register(hamlet);
    server.clock.advance(599);
    expect((await hamlet.get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true })).status).toBe(200);
    server.clock.advance(600);
    const res = await hamlet.get("/events", { queue_id: queueId, last_event_id: -1, dont_block: true });
    expect(res.body).toEqual(error(`Bad event queue ID: ${queueId}`, "BAD_EVENT_QUEUE_ID", { queue_id: queueId }));
  });

  it("honours queue_lifespan_secs, and the periodic sweep drops expired queues", async () => {
    const hamlet = server.as("hamlet");
    const longer = await register(hamlet, { queue_lifespan_secs: 1200 });
    const normal = await register(hamlet);
    server.clock.advance(900);
    for (const app of server.apps) app.ctx.queues.sweep();
    const ids = queuesOf(server, server.users.hamlet.id).map((q) => q.id);
    expect(ids).toContain(longer);
    expect(ids).not.toContain(normal);
  });

  it("never collects a queue while a poll waits on it", async () => {
    const hamlet = server.as("hamlet");
    const queueId = await register(hamlet);
    const poll = hamlet.get("/events", { queue_id: queueId, last_event_id: -1 });
    await parked(queueId);
    server.clock.advance(3600);
    for (const app of server.apps) app.ctx.queues.sweep();
    await typeTo(server.users.hamlet.id);
    expect((await poll).body.events).toHaveLength(1);
  });
});

describe("DELETE /events", () => {
  it("deletes a queue; a second delete and later polls get BAD_EVENT_QUEUE_ID", async () => {
    const hamlet = server.as("hamlet");
    const queueId = await register(hamlet);
    expect((await hamlet.delete("/events", { queue_id: queueId })).body).toEqual(success());
    const bad = error(`Bad event queue ID: ${queueId}`, "BAD_EVENT_QUEUE_ID", { queue_id: queueId });
    expect((await hamlet.delete("/events", { queue_id: queueId })).body).toEqual(bad);
    expect((await hamlet.get("/events", { queue_id: queueId, last_event_id: -1 })).body).toEqual(bad);
  });

  it("refuses another user's queue and a missing queue_id", async () => {
    const queueId = await register(server.as("othello"));
    const res = await server.as("hamlet").delete("/events", { queue_id: queueId });
    expect(res.body).toEqual(error(`Bad event queue ID: ${queueId}`, "BAD_EVENT_QUEUE_ID", { queue_id: queueId }));
    const missing = await server.as("hamlet").delete("/events", {});
    expect(missing.body).toEqual(error("Missing 'queue_id' argument", "REQUEST_VARIABLE_MISSING", { var_name: "queue_id" }));
  });
});

describe("a deactivated user's queues", () => {
  it("are dropped when the deactivation passes through, and a waiting poll is told its queue is gone", async () => {
    const othello = server.as("othello");
    const queueId = await register(othello);
    const poll = othello.get("/events", { queue_id: queueId, last_event_id: -1 });
    await parked(queueId);
    await server.as("iago").delete(`/users/${server.users.othello.id}`);
    expect((await poll).body).toEqual(error(`Bad event queue ID: ${queueId}`, "BAD_EVENT_QUEUE_ID", { queue_id: queueId }));
    expect(queuesOf(server, server.users.othello.id)).toEqual([]);
    await server.as("iago").post(`/users/${server.users.othello.id}/reactivate`);
  });
});

describe("GET /events answered before the framework's routing", () => {
  const auth = () => "Basic " + Buffer.from(`hamlet@zulip.com:${server.users.hamlet.api_key}`).toString("base64");
  /** A raw GET /events: its status, content type and exact body. An encoded `-` (`%2D`) sends the call the framework's way. */
  const raw = async (query: string) => {
    const res = await fetch(`${server.url}/api/v1/events?${query}`, { headers: { authorization: auth() } });
    return { status: res.status, type: res.headers.get("content-type"), length: res.headers.get("content-length"), body: await res.text() };
  };

  it("answers events ready now exactly as the framework does", async () => {
    const queueId = await register(server.as("hamlet"));
    await typeTo(server.users.hamlet.id);
    await delivered(server, server.users.hamlet.id, queueId, 1);
    const lean = await raw(`queue_id=${queueId}&last_event_id=-1&dont_block=true`);
    const framework = await raw(`queue_id=${queueId}&last_event_id=%2D1&dont_block=true`);
    expect(lean).toEqual(framework);
    expect(lean.type).toBe("application/json; charset=utf-8");
    expect(JSON.parse(lean.body)).toEqual(success({ events: [expect.objectContaining({ type: "typing", op: "start", id: 0 })] }));
    expect(await raw(`queue_id=${queueId}&last_event_id=0&dont_block=true`)).toEqual(await raw(`queue_id=${queueId}&last_event_id=%30&dont_block=true`));
  });

  it("answers a long-poll exactly as the framework does, the shared event spliced in", async () => {
    const leanQueue = await register(server.as("hamlet"));
    const frameworkQueue = await register(server.as("hamlet"));
    const lean = raw(`queue_id=${leanQueue}&last_event_id=-1`);
    const framework = raw(`queue_id=${frameworkQueue}&last_event_id=%2D1`);
    await parked(leanQueue);
    await parked(frameworkQueue);
    await typeTo(server.users.hamlet.id);
    const [a, b] = await Promise.all([lean, framework]);
    expect(a).toEqual({ ...b, body: b.body.replace(frameworkQueue, leanQueue) });
    expect(JSON.parse(a.body)).toEqual(success({ events: [expect.objectContaining({ type: "typing", id: 0 })], queue_id: leanQueue }));
  });

  it("answers a long-poll woken by a fan-out with text beyond ASCII byte for byte as the framework does", async () => {
    const leanQueue = await register(server.as("hamlet"), { event_types: ["realm_user"] });
    const frameworkQueue = await register(server.as("hamlet"), { event_types: ["realm_user"] });
    const lean = raw(`queue_id=${leanQueue}&last_event_id=-1`);
    const framework = raw(`queue_id=${frameworkQueue}&last_event_id=%2D1`);
    await parked(leanQueue);
    await parked(frameworkQueue);
    const { cordelia } = server.users;
    expect((await server.as("iago").patch(`/users/${cordelia.id}`, { full_name: "Cordélia “Lear” 🌟" })).body).toEqual(success());
    const [a, b] = await Promise.all([lean, framework]);
    expect(a).toEqual({ ...b, body: b.body.replace(frameworkQueue, leanQueue) });
    expect(Number(a.length)).toBe(Buffer.byteLength(a.body));
    expect(JSON.parse(a.body)).toEqual(success({ events: [{ type: "realm_user", op: "update", person: { user_id: cordelia.id, full_name: "Cordélia “Lear” 🌟" }, id: 0 }], queue_id: leanQueue }));
    await server.as("iago").patch(`/users/${cordelia.id}`, { full_name: cordelia.full_name });
  });

  it("gives the framework's errors, for refusals it hands over and for a queue gone while the poll waited", async () => {
    const queueId = await register(server.as("hamlet"));
    await typeTo(server.users.hamlet.id);
    await delivered(server, server.users.hamlet.id, queueId, 1);
    await raw(`queue_id=${queueId}&last_event_id=0&dont_block=true`);
    const pruned = await raw(`queue_id=${queueId}&last_event_id=-1&dont_block=true`);
    expect(pruned.status).toBe(400);
    expect(JSON.parse(pruned.body)).toEqual(error("An event newer than -1 has already been pruned!"));
    expect(await raw(`queue_id=${queueId}&last_event_id=7`)).toEqual(await raw(`queue_id=${queueId}&last_event_id=%37`));
    expect(JSON.parse((await raw(`queue_id=${queueId}&last_event_id=7`)).body)).toEqual(error("Event 7 was not in this queue"));
    const unknown = await raw(`queue_id=nope&last_event_id=-1`);
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.body)).toEqual(error("Bad event queue ID: nope", "BAD_EVENT_QUEUE_ID", { queue_id: "nope" }));
    const poll = raw(`queue_id=${queueId}&last_event_id=0`);
    await parked(queueId);
    await server.as("hamlet").delete("/events", { queue_id: queueId });
    expect(JSON.parse((await poll).body)).toEqual(success({ events: [], queue_id: queueId }));
  });
});
