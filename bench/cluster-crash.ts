/**
 * kill -9 of one process of a cluster holding N event queues: three processes (the built command,
 * dist/rookery.js) on PostgreSQL and Redis hold N queues registered round robin, each holding
 * events its client has not acknowledged; process 2 is killed with SIGKILL. Then every client
 * polls once through a surviving process (`GET /events` with its queue and last event id) and,
 * when told BAD_EVENT_QUEUE_ID, registers again, as clients do. Prints the time from the kill
 * until every client is served again, and the /register calls it caused.
 *
 * Baseline, in the same run: the same crash with the queues' rows deleted from Redis right after
 * the kill (what a cluster that keeps queues only in its processes' memory does), so the killed
 * process's clients register again.
 *
 *   npx vite-node bench/cluster-crash.ts [queues=3000]
 *
 * Needs ROOKERY_TEST_PG_URL (an admin URL: it creates and drops its databases) and
 * ROOKERY_TEST_REDIS_URL; without them it says so and exits. ROOKERY_BENCH_SHORT=1: 60 queues.
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { basicAuth } from "./auth.js";
import { freshBenchDatabase } from "./backends.js";
import { apiRequest, killServer, startBuilt } from "./processes.js";
import { sized } from "./short.js";

const QUEUES = sized(process.argv[2], 3000, 60);
/** Unacknowledged messages each queue holds at the kill. */
const MESSAGES = 3;
/** Requests the clients have in flight at once. */
const CONCURRENCY = 256;
const MAIN = path.resolve(import.meta.dirname, "../dist/rookery.js");
const pgUrl = process.env.ROOKERY_TEST_PG_URL;
const redisUrl = process.env.ROOKERY_TEST_REDIS_URL;
const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

/** Runs `work` for every item, CONCURRENCY at once. */
async function each<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/** One crash: seconds from the kill until every client is served, and the /register calls it caused. */
async function crash(keepRows: boolean): Promise<{ seconds: number; registers: number; rebuilt: number }> {
  const database = await freshBenchDatabase(pgUrl!, redisUrl!, "rookery_bench_cluster_crash");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-bench-cluster-crash-"));
  const env = { ROOKERY_DATA_DIR: dataDir, ROOKERY_DATABASE_URL: database.url, ROOKERY_REDIS_URL: redisUrl!, ROOKERY_REDIS_PREFIX: database.redisPrefix };
  const servers = [await startBuilt(env)];
  const key = /key=([A-Za-z0-9]{32})/.exec(servers[0]!.out)?.[1] ?? "";
  servers.push(...(await Promise.all([startBuilt(env), startBuilt(env)])));
  const auth = basicAuth("owner@rookery.local", key);
  const redis = new Redis(redisUrl!);
  try {
    const queues: { id: string; on: number }[] = [];
    await each(
      Array.from({ length: QUEUES }, (_, i) => i),
      async (i) => {
        const on = i % 3;
        const res = await apiRequest(agent, servers[on]!.port, auth, "POST", "/register", { event_types: '["message"]', fetch_event_types: "[]" });
        if (res.status !== 200) throw new Error(`register: ${res.status} ${res.body}`);
        queues.push({ id: String((JSON.parse(res.body) as { queue_id: string }).queue_id), on });
      },
    );
    for (let i = 0; i < MESSAGES; i++) {
      const sent = await apiRequest(agent, servers[0]!.port, auth, "POST", "/messages", { type: "stream", to: "general", topic: "crash", content: `before the kill ${i}` });
      if (sent.status !== 200) throw new Error(`send: ${sent.status} ${sent.body}`);
    }
    const startedAt = performance.now();
    await killServer(servers[1]!);
    if (!keepRows) {
      const rows = await redis.keys(`${database.redisPrefix}queue:*`);
      if (rows.length > 0) await redis.del(...rows);
    }
    let registers = 0;
    let rebuilt = 0;
    await each(queues, async (queue) => {
      const via = servers[queue.on === 0 ? 0 : 2]!.port;
      const res = await apiRequest(agent, via, auth, "GET", `/events?queue_id=${encodeURIComponent(queue.id)}&last_event_id=-1&dont_block=true`);
      if (res.status === 200) {
        const events = (JSON.parse(res.body) as { events: unknown[] }).events;
        if (events.length !== MESSAGES) throw new Error(`queue ${queue.id}: ${events.length} events, not ${MESSAGES}`);
        if (queue.on === 1) rebuilt++;
        return;
      }
      if (!res.body.includes("BAD_EVENT_QUEUE_ID")) throw new Error(`poll: ${res.status} ${res.body}`);
      registers++;
      const again = await apiRequest(agent, via, auth, "POST", "/register", { event_types: '["message"]' });
      if (again.status !== 200) throw new Error(`register again: ${again.status}`);
    });
    return { seconds: (performance.now() - startedAt) / 1000, registers, rebuilt };
  } finally {
    redis.disconnect();
    await Promise.all(servers.map(killServer));
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (!pgUrl || !redisUrl) {
    console.log("bench/cluster-crash skipped: set ROOKERY_TEST_PG_URL and ROOKERY_TEST_REDIS_URL (PostgreSQL and Redis)");
    return;
  }
  if (!fs.existsSync(MAIN)) throw new Error("dist/rookery.js is missing: run npm run build");
  const baseline = await crash(false);
  const kept = await crash(true);
  console.log(`kill -9 of one of three processes holding ${QUEUES} queues (${MESSAGES} unacknowledged events each):`);
  console.log(`  queues kept (rows in Redis): every client served again after ${kept.seconds.toFixed(1)} s, ${kept.rebuilt} queues rebuilt, ${kept.registers} /register calls`);
  console.log(`  baseline (rows deleted):     every client served again after ${baseline.seconds.toFixed(1)} s, ${baseline.registers} /register calls`);
  console.log(`  ratio: ${(kept.seconds / baseline.seconds).toFixed(2)}× the time, ${kept.registers} / ${baseline.registers} the /register calls (target 0)`);
  agent.destroy();
}

await main();
