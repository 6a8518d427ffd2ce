/**
 * Cluster mode against one process, on the same PostgreSQL database server:
 *  - fan-out: C long-polls (queues of one user) spread over 3 processes of a cluster, one channel
 *    message to all of them; p50/p99 latency (message sent → poll answered), beside the same C
 *    long-polls on one process without Redis;
 *  - throughput of GET /users/me and POST /messages on one process in cluster mode (with Redis),
 *    as a ratio of the same process without Redis (the target is ≥ 0.8×).
 * Servers are the built command (dist/rookery.js, `npm run build`), each in its own process.
 *
 *   npx vite-node bench/cluster.ts [long-polls=1000] [seconds=5]
 *
 * Needs ROOKERY_TEST_PG_URL (an admin URL: it creates and drops its databases) and
 * ROOKERY_TEST_REDIS_URL; without them it says so and exits. ROOKERY_BENCH_SHORT=1: 60
 * long-polls, 1-second runs.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { basicAuth } from "./auth.js";
import { freshBenchDatabase } from "./backends.js";
import { apiRequest, killServer, startBuilt, type BenchServer } from "./processes.js";
import { sized } from "./short.js";

const POLLS = sized(process.argv[2], 1000, 60);
const SECONDS = sized(process.argv[3], 5, 1);
const MAIN = path.resolve(import.meta.dirname, "../dist/rookery.js");
// Throughput servers on CPU 0 and this process (the load) on CPU 1, where taskset and two CPUs
// exist: left to the scheduler, a server shares a core with the load in some runs and not others.
const PIN = spawnSync("taskset", ["-V"]).status === 0 && os.availableParallelism() >= 2;
const pgUrl = process.env.ROOKERY_TEST_PG_URL;
const redisUrl = process.env.ROOKERY_TEST_REDIS_URL;

// Every long-poll keeps its connection between rounds, as a real client does: with the agent's
// default of 256 free sockets, the others were closed after each round and the next round opened
// hundreds of connections at once, overflowing the servers' accept queues (the kernel's
// ListenOverflows), and the 200 ms TCP retransmissions that followed were most of the p99.
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity, maxFreeSockets: Infinity });

/** A setup: its servers on a fresh database, and the owner's Authorization header. */
interface Setup {
  servers: BenchServer[];
  auth: string;
  close(): Promise<void>;
}

/** `pin`: every server on CPU 0 (the throughput runs); else the scheduler spreads them (the fan-out). */
async function setup(processes: number, withRedis: boolean, pin: boolean): Promise<Setup> {
  const database = await freshBenchDatabase(pgUrl!, redisUrl!, "rookery_bench_cluster");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-bench-cluster-"));
  // Limits on but out of reach: their cost (in memory, or in Redis in cluster mode) is measured.
  const env: Record<string, string> = { ROOKERY_DATA_DIR: dataDir, ROOKERY_DATABASE_URL: database.url, ROOKERY_RATE_LIMIT_PER_MINUTE: "1000000" };
  if (withRedis) Object.assign(env, { ROOKERY_REDIS_URL: redisUrl!, ROOKERY_REDIS_PREFIX: database.redisPrefix });
  const servers = [await startBuilt(env, pin)];
  const key = /key=([A-Za-z0-9]{32})/.exec(servers[0]!.out)?.[1];
  servers.push(...(await Promise.all(Array.from({ length: processes - 1 }, () => startBuilt(env, pin)))));
  return {
    servers,
    auth: basicAuth("owner@rookery.local", key ?? ""),
    async close() {
      await Promise.all(servers.map(killServer));
      await database.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN;
}

/**
 * One long-poll's keep-alive connection, read with as little work as possible: the time its
 * answer's first bytes arrive is noted at once, and the answer is parsed only after the round.
 * With a thousand answers arriving together, the load's own HTTP parsing (on the CPUs the servers
 * use) would otherwise be counted in the later answers' latency.
 */
class Poller {
  private readonly socket: net.Socket;
  private buffered: Buffer[] = [];
  private size = 0;
  private waiting?: { resolve: (answer: { at: number; body: string }) => void; at: number };

  constructor(port: number) {
    this.socket = net.connect(port, "127.0.0.1");
    this.socket.setNoDelay(true);
    this.socket.on("data", (chunk: Buffer) => this.received(chunk));
  }

  get(pathAndQuery: string, auth: string): Promise<{ at: number; body: string }> {
    this.buffered = [];
    this.size = 0;
    return new Promise((resolve) => {
      this.waiting = { resolve, at: 0 };
      this.socket.write(`GET /api/v1${pathAndQuery} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${auth}\r\n\r\n`);
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private received(chunk: Buffer): void {
    const waiting = this.waiting;
    if (!waiting) return;
    if (waiting.at === 0) waiting.at = performance.now();
    this.buffered.push(chunk);
    this.size += chunk.length;
    const all = this.buffered.length === 1 ? chunk : Buffer.concat(this.buffered);
    const headEnd = all.indexOf("\r\n\r\n");
    if (headEnd < 0) return;
    const length = Number(/\r\ncontent-length: *(\d+)/i.exec(all.subarray(0, headEnd).toString("latin1"))?.[1] ?? NaN);
    if (Number.isNaN(length)) throw new Error(`an answer without Content-Length: ${all.subarray(0, headEnd).toString("latin1")}`);
    if (this.size < headEnd + 4 + length) return;
    this.waiting = undefined;
    waiting.resolve({ at: waiting.at, body: all.subarray(headEnd + 4, headEnd + 4 + length).toString() });
  }
}

/** C queues spread over the setup's processes, each long-polling its own; one message to all, after a warm-up round; latencies in ms. */
async function fanout(s: Setup, rounds: number): Promise<number[]> {
  const queues: { poller: Poller; id: string; last: number }[] = [];
  for (let i = 0; i < POLLS; i++) {
    const port = s.servers[i % s.servers.length]!.port;
    const res = await apiRequest(agent, port, s.auth, "POST", "/register", { event_types: '["message"]', fetch_event_types: "[]" });
    queues.push({ poller: new Poller(port), id: String((JSON.parse(res.body) as { queue_id: string }).queue_id), last: -1 });
  }
  const latencies: number[] = [];
  for (let round = -1; round < rounds; round++) {
    const answers = Promise.all(queues.map((q) => q.poller.get(`/events?queue_id=${encodeURIComponent(q.id)}&last_event_id=${q.last}`, s.auth)));
    await new Promise((resolve) => setTimeout(resolve, 300 + POLLS / 2));
    const sentAt = performance.now();
    await apiRequest(agent, s.servers[0]!.port, s.auth, "POST", "/messages", { type: "stream", to: "general", topic: "fan-out", content: `round ${round}` });
    for (const [i, answer] of (await answers).entries()) {
      if (round >= 0) latencies.push(answer.at - sentAt);
      for (const event of (JSON.parse(answer.body) as { events: { id: number }[] }).events) queues[i]!.last = Math.max(queues[i]!.last, event.id);
    }
  }
  for (const q of queues) q.poller.close();
  return latencies.sort((a, b) => a - b);
}

/** Requests per second of `call` with `concurrency` callers for SECONDS. */
async function throughput(concurrency: number, call: () => Promise<{ status: number }>): Promise<number> {
  const deadline = performance.now() + SECONDS * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < deadline) {
        const res = await call();
        if (res.status !== 200) throw new Error(`status ${res.status}`);
        done++;
      }
    }),
  );
  return done / SECONDS;
}

async function main(): Promise<void> {
  if (!pgUrl || !redisUrl) {
    console.log("bench/cluster skipped: set ROOKERY_TEST_PG_URL and ROOKERY_TEST_REDIS_URL (PostgreSQL and Redis)");
    return;
  }
  if (!fs.existsSync(MAIN)) throw new Error("dist/rookery.js is missing: run npm run build");
  const rounds = 3;
  const rows: string[] = [];

  // Throughput first: the fan-out leaves its queues behind, and every message would go to them.
  // The two setups run side by side, in alternating rounds; each figure is the median.
  if (PIN) spawnSync("taskset", ["-a", "-p", "-c", "1", String(process.pid)], { stdio: "ignore" });
  const single = await setup(1, false, PIN);
  const member = await setup(1, true, PIN);
  const me = (s: Setup) => () => apiRequest(agent, s.servers[0]!.port, s.auth, "GET", "/users/me");
  const send = (s: Setup) => () => apiRequest(agent, s.servers[0]!.port, s.auth, "POST", "/messages", { type: "stream", to: "general", topic: "load", content: "hello" });
  const runs = { singleMe: [] as number[], memberMe: [] as number[], singleSend: [] as number[], memberSend: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? [single, member] : [member, single];
    for (const s of order) (s === single ? runs.singleMe : runs.memberMe).push(await throughput(32, me(s)));
    for (const s of order) (s === single ? runs.singleSend : runs.memberSend).push(await throughput(16, send(s)));
  }
  if (PIN) spawnSync("taskset", ["-a", "-p", "-c", `0-${os.availableParallelism() - 1}`, String(process.pid)], { stdio: "ignore" });
  const median = (r: number[]) => percentile([...r].sort((a, b) => a - b), 50);
  const singleMe = median(runs.singleMe);
  const memberMe = median(runs.memberMe);
  const singleSend = median(runs.singleSend);
  const memberSend = median(runs.memberSend);
  await member.close();
  await single.close();

  // The fan-out servers are not pinned: one process, or three, have both CPUs to share.
  const one = await setup(1, false, false);
  const singleFan = await fanout(one, rounds);
  await one.close();
  const three = await setup(3, true, false);
  const clusterFan = await fanout(three, rounds);
  await three.close();

  rows.push(`fan-out of ${POLLS} long-polls, ${rounds} rounds (+1 warm-up): one process p50 ${percentile(singleFan, 50).toFixed(1)} ms p99 ${percentile(singleFan, 99).toFixed(1)} ms; three processes p50 ${percentile(clusterFan, 50).toFixed(1)} ms p99 ${percentile(clusterFan, 99).toFixed(1)} ms (${(percentile(clusterFan, 99) / percentile(singleFan, 99)).toFixed(2)}× the p99)`);
  rows.push(PIN ? "throughput: servers on CPU 0, the load on CPU 1, rounds alternating (medians)" : "throughput: unpinned (no taskset or one CPU), rounds alternating (medians)");
  rows.push(`GET /users/me: ${singleMe.toFixed(0)} req/s without Redis, ${memberMe.toFixed(0)} req/s in cluster mode (${(memberMe / singleMe).toFixed(2)}×, target ≥ 0.8×)`);
  rows.push(`POST /messages: ${singleSend.toFixed(0)} req/s without Redis, ${memberSend.toFixed(0)} req/s in cluster mode (${(memberSend / singleSend).toFixed(2)}×, target ≥ 0.8×)`);
  for (const row of rows) console.log(row);
  agent.destroy();
}

await main();
