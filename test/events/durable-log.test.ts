import { afterEach, beforeEach, describe, expect } from "vitest";
import { startServer, type TestServer } from "../harness/server.js";
import { singleProcess } from "../harness/single-process.js";

// The event log and the saved queues of one process (events/durable.ts): what a checkpoint keeps
// and deletes. test/durability/queues-crash.test.ts kills a real server; a cluster hands its
// queues over through Redis instead.
const oneProcess = singleProcess("the event log belongs to one process; a cluster hands queues over through Redis");

let server: TestServer;
beforeEach(async () => {
  server = await startServer();
  // The fixtures' commits are logged too; with no queue yet, a checkpoint deletes them all.
  await server.app.ctx.durable?.checkpoint();
});
afterEach(async () => {
  await server.stop();
});

async function logRows(): Promise<string[]> {
  return (await server.app.ctx.db.selectFrom("event_log").select("entry").orderBy("seq").execute()).map((row) => row.entry);
}

async function queueRows(): Promise<{ id: string; state: { events: { id: number }[] } }[]> {
  const rows = await server.app.ctx.db.selectFrom("event_queue").select(["id", "state"]).execute();
  return rows.map((row) => ({ id: row.id, state: JSON.parse(row.state) as { events: { id: number }[] } }));
}

async function registerHamlet(): Promise<string> {
  const res = await server.as("hamlet").post("/register", { event_types: ["message"], fetch_event_types: [] });
  expect(res.status).toBe(200);
  return res.body.queue_id;
}

async function sendToHamlet(count: number): Promise<void> {
  for (let i = 0; i < count; i++) {
    const res = await server.as("othello").post("/messages", { type: "direct", to: [server.users.hamlet.id], content: `note ${i}` });
    expect(res.status).toBe(200);
  }
}

describe("the event log", () => {
  oneProcess("holds one entry per commit until a checkpoint writes every queue past it", async () => {
    const queueId = await registerHamlet();
    expect((await queueRows()).map((row) => [row.id, row.state.events])).toEqual([[queueId, []]]);
    await sendToHamlet(3);
    const entries = await logRows();
    expect(entries).toHaveLength(3);
    expect(entries.every((entry) => entry.includes('"type":"message"'))).toBe(true);

    await server.app.ctx.durable?.checkpoint();
    expect(await logRows()).toEqual([]);
    // The unacknowledged events are in the queue's row now.
    expect((await queueRows())[0]?.state.events.map((e) => e.id)).toEqual([0, 1, 2]);

    const polled = await server.as("hamlet").get("/events", { queue_id: queueId, last_event_id: 2, dont_block: true });
    expect(polled.body.events).toEqual([]);
    await server.app.ctx.durable?.checkpoint();
    expect((await queueRows())[0]?.state.events).toEqual([]);
  });

  oneProcess("forgets a deleted queue at once, and an expired one at the next checkpoint", async () => {
    const deleted = await registerHamlet();
    const expiring = await registerHamlet();
    expect((await server.as("hamlet").delete("/events", { queue_id: deleted })).status).toBe(200);
    expect((await queueRows()).map((row) => row.id)).toEqual([expiring]);

    await sendToHamlet(1);
    server.clock.advance(601_000);
    server.app.ctx.queues.sweep();
    await server.app.ctx.durable?.checkpoint();
    expect(await queueRows()).toEqual([]);
    expect(await logRows()).toEqual([]);
  });

  oneProcess("logs a heartbeat before the poll gets it", async () => {
    const queueId = await registerHamlet();
    server.app.ctx.queues.heartbeatMs = 50;
    const res = await server.as("hamlet").get("/events", { queue_id: queueId, last_event_id: -1 });
    expect(res.body.events).toEqual([{ type: "heartbeat", id: 0 }]);
    expect(await logRows()).toEqual([JSON.stringify({ q: [queueId], v: { type: "heartbeat" } })]);
  });
});
