import { afterAll, beforeAll, expect } from "vitest";
import type { AppEvent } from "../../src/events/types.js";
import { startServer, type TestServer } from "../harness/server.js";
import { longestStall } from "../harness/stall.js";
import { singleProcess } from "../harness/single-process.js";

// A checkpoint of the event log (events/durable.ts) over many queues and a log of large entries
// (1,500 channel messages to 10,000 recipients with per-recipient flags, 420 KB each) writes and
// prunes in bounded statements with turns of the event loop between them. The former checkpoint
// deleted the log in one statement: 140 ms of blocked event loop here (unloaded), growing with the
// log; this one stays near 20 ms (the synchronous snapshot of 10,000 queues).
const oneProcess = singleProcess("the event log belongs to one process; a cluster checkpoints through Redis");

const QUEUES = 10_000;
const ENTRIES = 1_500;
const RECIPIENTS = 10_000;
/** The longest stall allowed: five times what it takes here, for a loaded 2-core machine. */
const BOUND_MS = 100;

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.stop();
});

oneProcess("a checkpoint over 10,000 queues and 1,500 entries for 10,000 recipients never blocks the event loop long", { timeout: 180_000 }, async () => {
  const { ctx } = server.app;
  const durable = ctx.durable!;
  // The checkpoints here are called by hand: the periodic one (every 30 s) would prune the log
  // while a loaded machine is still writing it.
  durable.stop();
  await durable.checkpoint();
  const options = {
    realmId: server.users.hamlet.realm_id, eventTypes: ["message"], narrow: [], allPublicStreams: false, capabilities: {},
    applyMarkdown: true, clientGravatar: false, slimPresence: false, lifespanSecs: 600,
  };
  for (let i = 0; i < QUEUES; i++) await durable.register(ctx.queues.create({ ...options, userId: 1_000_000 + i }));
  // Large entries no queue takes (no such users), and one that half the queues take: they change.
  const recipients = Array.from({ length: RECIPIENTS }, (_, i) => 2_000_000 + i);
  const big = { type: "message", message: { id: 1, content: "<p>hello</p>" }, flags: [] } as unknown as AppEvent;
  const perUser = Object.fromEntries(recipients.map((id) => [id, { flags: ["mentioned"] }]));
  for (let i = 0; i < ENTRIES; i++) await durable.bus.publish({ events: [{ event: big, userIds: recipients, perUser }], changes: [] });
  const half = Array.from({ length: QUEUES / 2 }, (_, i) => 1_000_000 + i);
  await durable.bus.publish({ events: [{ event: big, userIds: half }], changes: [] });
  expect(await count("event_log")).toBe(ENTRIES + 1);

  const longestMs = await longestStall(() => durable.checkpoint());
  console.log(`longest event-loop stall during the checkpoint: ${longestMs.toFixed(1)} ms`);
  expect(longestMs).toBeLessThan(BOUND_MS);

  // Every queue saved at the newest position, half of them with the event; the log emptied.
  expect(await count("event_log")).toBe(0);
  const rows = await ctx.db.selectFrom("event_queue").select(["pos", "state"]).execute();
  expect(rows.length).toBe(QUEUES);
  expect(new Set(rows.map((row) => Number(row.pos))).size).toBe(1);
  expect(rows.filter((row) => (JSON.parse(row.state) as { events: unknown[] }).events.length === 1).length).toBe(QUEUES / 2);
});

async function count(table: "event_log" | "event_queue"): Promise<number> {
  const row = await server.app.ctx.db.selectFrom(table).select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
  return Number(row.n);
}
