/**
 * The event log's checkpoint (src/events/durable.ts) and the event loop: the longest stall while a
 * checkpoint saves N queues (half of them changed) and prunes a log of E large entries (a channel
 * message to R recipients, with per-recipient flags), measured as the longest gap between a 2 ms timer's ticks.
 * Baseline, same run and same data: the former way, every queue rewritten in 500-row statements
 * and the log deleted in one statement, with no turn of the event loop in between.
 *
 *   npx vite-node bench/checkpoint-stall.ts [queues=10000] [entries=1500] [recipients=10000]
 *
 * ROOKERY_BENCH_SHORT=1: 200 queues, 20 entries, 200 recipients.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import pino from "pino";
import { buildApp, type App } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import type { AppEvent } from "../src/events/types.js";
import { longestStall } from "../test/harness/stall.js";
import { sized } from "./short.js";

const QUEUES = sized(process.argv[2], 10_000, 200);
const ENTRIES = sized(process.argv[3], 1500, 20);
const RECIPIENTS = sized(process.argv[4], 10_000, 200);

/** A server with QUEUES queues and ENTRIES large log entries, half the queues holding one event. */
async function loaded(): Promise<{ app: App; dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-checkpoint-"));
  const config = { ...loadConfig({}), port: 0, dataDir, databaseUrl: `sqlite:${path.join(dataDir, "db.sqlite3")}`, logLevel: "warn", rateLimitPerMinute: 0 };
  const app = await buildApp(config, { logger: pino({ level: "warn" }) });
  const durable = app.ctx.durable!;
  durable.stop(); // the checkpoints are called by hand, not every 30 s while the log is written
  await durable.checkpoint();
  const options = {
    realmId: 1, eventTypes: ["message"], narrow: [], allPublicStreams: false, capabilities: {},
    applyMarkdown: true, clientGravatar: false, slimPresence: false, lifespanSecs: 600,
  };
  for (let i = 0; i < QUEUES; i++) await durable.register(app.ctx.queues.create({ ...options, userId: 1_000_000 + i }));
  const recipients = Array.from({ length: RECIPIENTS }, (_, i) => 2_000_000 + i);
  const perUser = Object.fromEntries(recipients.map((id) => [id, { flags: ["mentioned"] }]));
  const event = { type: "message", message: { id: 1, content: "<p>hello</p>" }, flags: [] } as unknown as AppEvent;
  for (let i = 0; i < ENTRIES; i++) await durable.bus.publish({ events: [{ event, userIds: recipients, perUser }], changes: [] });
  const half = Array.from({ length: QUEUES / 2 }, (_, i) => 1_000_000 + i);
  await durable.bus.publish({ events: [{ event, userIds: half }], changes: [] });
  return { app, dataDir };
}

/** The former checkpoint: every queue rewritten, then the log deleted in one statement. */
async function formerCheckpoint(app: App): Promise<void> {
  const { ctx } = app;
  const at = Number((await ctx.db.selectFrom("event_log").select((eb) => eb.fn.max("seq").as("top")).executeTakeFirst())?.top ?? 0);
  const rows = ctx.queues.all().map((queue) => ({ id: queue.id, pos: at, state: JSON.stringify(queue.save()) }));
  for (let i = 0; i < rows.length; i += 500) {
    const slice = rows.slice(i, i + 500);
    await ctx.store.write((tx) =>
      tx.insertInto("event_queue").values(slice).onConflict((oc) => oc.column("id").doUpdateSet({ pos: sql`excluded.pos`, state: sql`excluded.state` })).execute(),
    );
  }
  await ctx.store.write(async (tx) => {
    await tx.deleteFrom("event_queue").where("pos", "<", at).execute();
    await tx.deleteFrom("event_log").where("seq", "<=", at).execute();
  });
}

async function measure(run: (app: App) => Promise<void>): Promise<{ stallMs: number; wallMs: number }> {
  const { app, dataDir } = await loaded();
  const started = performance.now();
  const stallMs = await longestStall(() => run(app));
  const wallMs = performance.now() - started;
  const left = await app.ctx.db.selectFrom("event_log").select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
  if (Number(left.n) !== 0) throw new Error(`log not emptied: ${String(left.n)} entries left`);
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  return { stallMs, wallMs };
}

const former = await measure(formerCheckpoint);
const now = await measure((app) => {
  const t = performance.now();
  const p = app.ctx.durable!.checkpoint();
  console.log(`  snapshot (synchronous, as before): ${(performance.now() - t).toFixed(1)} ms`);
  return p;
});
console.log(`  former (one delete, no yields): longest stall ${former.stallMs.toFixed(1)} ms, ${former.wallMs.toFixed(0)} ms in all`);
console.log(`  chunked, changed queues only:   longest stall ${now.stallMs.toFixed(1)} ms, ${now.wallMs.toFixed(0)} ms in all`);
console.log(`  longest stall ratio (new / former): ${former.stallMs > 0 ? (now.stallMs / former.stallMs).toFixed(2) : "n/a (no stall measured)"}`);
