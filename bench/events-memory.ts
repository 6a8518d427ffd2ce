/**
 * Memory and /register cost of event queues, on a server in a child process (this script with
 * `--serve`): an organisation of 1,000 users and 200 channels (each user subscribed to 20).
 * Prints the /register p50/p99 (full initial state), then RSS before and after 10,000 idle
 * queues each with an open long-poll, and the bytes per queue, beside a naive server measured the
 * same way in the same run (bare node:http in a child with the same flags, keeping each parked
 * response and an empty event list per queue): what Node itself costs per parked request.
 *
 *   npx vite-node bench/events-memory.ts [users=1000] [queues=10000] [channels=200]
 *
 * ROOKERY_BENCH_SHORT=1: 20 users, 50 queues, 5 channels, 10 /register calls.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { createRealm } from "../src/actions/realms.js";
import { checkCreateUser } from "../src/actions/users.js";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { basicAuth } from "./auth.js";
import { runUnderServerFlags, serverEnv, serverFlags } from "./server-flags.js";
import { SHORT, sized } from "./short.js";

runUnderServerFlags(import.meta.filename);

const SCRIPT = import.meta.filename;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const FORM = { "content-type": "application/x-www-form-urlencoded" };

async function serve(users: number, channels: number): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-memory-"));
  const config = { ...loadConfig({}), port: 0, dataDir, databaseUrl: `sqlite:${path.join(dataDir, "db.sqlite3")}`, logLevel: "warn", rateLimitPerMinute: 0 };
  // Idle means idle: no heartbeat may answer a poll while the 10,000 are being opened and counted.
  const app = await buildApp(config, { logger: pino({ level: "warn" }), events: { heartbeatMs: 30 * 60_000 } });
  const address = await app.http.listen({ host: "127.0.0.1", port: 0 });
  const { owner } = await createRealm(app.ctx, { name: "Bench", stringId: "", ownerEmail: "owner@bench.test", ownerName: "Owner", password: "bench-password" });
  const all = [owner];
  for (let i = 1; i < users; i++) {
    all.push(await checkCreateUser(app.ctx, { realmId: owner.realm_id, email: `user${i}@bench.test`, fullName: `User ${i}`, password: null, role: 400 }));
  }
  // Rows written directly, in one transaction: the setup is not what is measured.
  await app.ctx.store.write(async (db) => {
    for (let c = 0; c < channels; c++) {
      const { id } = await db
        .insertInto("stream")
        .values({
          realm_id: owner.realm_id,
          name: `channel ${c}`,
          description: `Channel number ${c}`,
          rendered_description: `<p>Channel number ${c}</p>`,
          invite_only: c % 10 === 0 ? 1 : 0,
          is_web_public: 0,
          history_public_to_subscribers: 1,
          stream_post_policy: 1,
          message_retention_days: null,
          can_remove_subscribers_group: 0,
          date_created: Date.now(),
          creator_id: owner.id,
          first_message_id: null,
          deactivated: 0,
          email_token: `bench-channel-${c}`,
        })
        .returning("id")
        .executeTakeFirstOrThrow();
      // Every user is in 20 of the 200 channels.
      const members = all.filter((u) => (u.id + c) % 10 === 0);
      if (members.length > 0) {
        await db
          .insertInto("subscription")
          .values(members.map((u) => ({ user_id: u.id, stream_id: id, active: 1, is_user_active: 1, color: "#76ce90", is_muted: 0, pin_to_top: 0 })))
          .execute();
      }
    }
  });
  const auth = (u: { delivery_email: string; api_key: string }) => basicAuth(u.delivery_email, u.api_key);
  process.on("message", (msg) => {
    if (msg === "stats") {
      const waiting = app.ctx.queues.waitingPolls();
      process.send?.({ queues: app.ctx.queues.size(), waiting, heap: process.memoryUsage().heapUsed });
    }
    if (msg === "gc") {
      globalThis.gc?.();
      process.send?.({ queues: app.ctx.queues.size(), waiting: 0, heap: process.memoryUsage().heapUsed });
    }
    if (msg === "snapshot" && process.env.MEMORY_SNAPSHOT) {
      globalThis.gc?.();
      void import("node:v8").then((v8) => {
        v8.writeHeapSnapshot(process.env.MEMORY_SNAPSHOT);
        process.send?.({ queues: 0, waiting: 0, heap: 0 });
      });
    }
    if (msg === "exit") {
      // Queues are not worth saving here; answering 10,000 polls first lets close finish.
      app.ctx.queues.stop();
      void app.http.close().then(() => {
        fs.rmSync(dataDir, { recursive: true, force: true });
        process.exit(0);
      });
    }
  });
  process.send?.({ ready: { port: Number(new URL(address).port), auths: all.map(auth) } });
}

interface Stats {
  queues: number;
  waiting: number;
  /** The JavaScript heap in use, in bytes (after a collection when asked for with "gc"). */
  heap: number;
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

/** A server child this script started, with its IPC questions. */
interface Child {
  child: ChildProcess;
  port: number;
  auths: string[];
  ask(what: string): Promise<Stats>;
}

async function startChild(args: string[]): Promise<Child> {
  const bin = path.resolve(path.dirname(SCRIPT), "../node_modules/.bin/vite-node");
  // Spawned under the server's flags itself: a re-run would lose the IPC channel.
  const child: ChildProcess = spawn(process.execPath, [...serverFlags(), fs.realpathSync(bin), SCRIPT, "--", ...args], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: { ...process.env, ...serverEnv(), NODE_OPTIONS: "--expose-gc" },
  });
  process.on("exit", () => child.kill());
  const ready = await new Promise<{ port: number; auths: string[] }>((resolve, reject) => {
    child.once("message", (msg) => resolve((msg as { ready: { port: number; auths: string[] } }).ready));
    child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
  const ask = (what: string) =>
    new Promise<Stats>((resolve) => {
      child.once("message", (msg) => resolve(msg as Stats));
      child.send(what);
    });
  return { child, ...ready, ask };
}

/** The naive baseline: bare node:http keeping each parked poll's response and an empty event list. */
async function serveNaive(): Promise<void> {
  const parked = new Map<string, { res: http.ServerResponse; events: unknown[] }>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    const queueId = url.searchParams.get("queue_id") ?? "";
    if (req.headers.authorization === undefined) res.writeHead(401).end();
    else parked.set(queueId, { res, events: [] });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.on("message", (msg) => {
    if (msg === "stats") process.send?.({ queues: parked.size, waiting: parked.size, heap: process.memoryUsage().heapUsed });
    if (msg === "gc") {
      globalThis.gc?.();
      process.send?.({ queues: parked.size, waiting: parked.size, heap: process.memoryUsage().heapUsed });
    }
    if (msg === "exit") {
      for (const { res } of parked.values()) res.end("{}");
      server.close(() => process.exit(0));
    }
  });
  const address = server.address();
  process.send?.({ ready: { port: typeof address === "object" && address ? address.port : 0, auths: [] } });
}

function client(maxSockets: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  const request = (url: string, method: string, headers: Record<string, string>, body?: string) =>
    new Promise<string>((resolve, reject) => {
      const req = http.request(url, { method, agent, headers }, (res) => {
        let text = "";
        res.on("data", (c: Buffer) => (text += c.toString()));
        res.on("end", () => resolve(text));
      });
      req.on("error", reject);
      req.end(body);
    });
  return { agent, request };
}

/** What parking the polls cost a server: bytes per poll, of RSS and of JavaScript heap. */
interface Cost {
  stats: Stats;
  rss: number;
  heap: number;
  rssBefore: number;
  rssAfter: number;
}

/**
 * Opens one long-poll per cursor (in batches: 10,000 at once overflow the listen backlog and get
 * reset), waits until the server holds them all, and measures; `register` makes the queues first.
 */
async function parkPolls(server: Child, request: ReturnType<typeof client>["request"], count: number, register: (i: number) => Promise<{ auth: string; queueId: string }>): Promise<{ cost: Cost; polls: Promise<string>[] }> {
  const base = `http://127.0.0.1:${server.port}/api/v1`;
  const heapBefore = (await server.ask("gc")).heap;
  await sleep(500);
  const rssBefore = rssMb(server.child.pid!);
  const cursors: { auth: string; queueId: string }[] = [];
  for (let i = 0; i < count; i++) cursors.push(await register(i));
  const polls: Promise<string>[] = [];
  let stats = await server.ask("stats");
  for (let start = 0; start < cursors.length; start += 500) {
    for (const c of cursors.slice(start, start + 500)) {
      polls.push(request(`${base}/events?queue_id=${c.queueId}&last_event_id=-1`, "GET", { authorization: c.auth }));
    }
    while (stats.waiting < polls.length) {
      await sleep(50);
      stats = await server.ask("stats");
    }
  }
  const heapAfter = (await server.ask("gc")).heap;
  if (process.env.MEMORY_SNAPSHOT && server.auths.length > 0) await server.ask("snapshot");
  await sleep(500);
  const rssAfter = rssMb(server.child.pid!);
  return { cost: { stats, rss: ((rssAfter - rssBefore) * 1024 * 1024) / count, heap: (heapAfter - heapBefore) / count, rssBefore, rssAfter }, polls };
}

async function stop(server: Child, polls: Promise<string>[]): Promise<void> {
  server.child.send("exit");
  await Promise.allSettled(polls);
  await new Promise((r) => server.child.once("exit", r));
}

async function main(): Promise<void> {
  const users = sized(process.argv[2], 1000, 20);
  const queues = sized(process.argv[3], 10000, 50);
  const channels = sized(process.argv[4], 200, 5);
  const rookery = await startChild(["--serve", String(users), String(channels)]);
  const { agent, request } = client(queues + 10);
  const base = `http://127.0.0.1:${rookery.port}/api/v1`;

  // /register with the full initial state, as a client starting up asks for it.
  const times: number[] = [];
  for (let i = 0; i < (SHORT ? 10 : 200); i++) {
    const auth = rookery.auths[(i * 7) % rookery.auths.length]!;
    const t0 = performance.now();
    const text = await request(`${base}/register`, "POST", { ...FORM, authorization: auth }, "client_capabilities=" + encodeURIComponent('{"notification_settings_null":true}'));
    times.push(performance.now() - t0);
    const { queue_id: queueId } = JSON.parse(text) as { queue_id: string };
    await request(`${base}/events?queue_id=${queueId}`, "DELETE", { authorization: auth });
  }
  times.sort((a, b) => a - b);
  const full = await request(`${base}/register`, "POST", { ...FORM, authorization: rookery.auths[1]! }, "");
  const stateBytes = full.length;
  await request(`${base}/events?queue_id=${(JSON.parse(full) as { queue_id: string }).queue_id}`, "DELETE", { authorization: rookery.auths[1]! });

  const measured = await parkPolls(rookery, request, queues, async (i) => {
    const auth = rookery.auths[i % rookery.auths.length]!;
    const text = await request(`${base}/register`, "POST", { ...FORM, authorization: auth }, "fetch_event_types=%5B%5D&event_types=%5B%22message%22%5D");
    return { auth, queueId: (JSON.parse(text) as { queue_id: string }).queue_id };
  });
  const auths = rookery.auths;
  await stop(rookery, measured.polls);
  agent.destroy();

  // The naive server parks the same requests (the same URLs' length and the same headers).
  const naive = await startChild(["--serve-naive"]);
  const naiveClient = client(queues + 10);
  const baseline = await parkPolls(naive, naiveClient.request, queues, async (i) => ({ auth: auths[i % auths.length]!, queueId: randomUUID() }));
  await stop(naive, baseline.polls);
  naiveClient.agent.destroy();

  const { cost } = measured;
  console.log(`organisation: ${users} users, ${channels} channels; /register response ${(stateBytes / 1024).toFixed(0)} KiB`);
  console.log(`/register (full state)  p50 ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms   p99 ${times[Math.floor(times.length * 0.99)]!.toFixed(1)} ms   (target p50 ≤ 30 ms)`);
  console.log(`RSS before queues ${cost.rssBefore.toFixed(0)} MB; with ${cost.stats.queues} queues and ${cost.stats.waiting} open polls ${cost.rssAfter.toFixed(0)} MB (target ≤ 400 MB)`);
  const row = (name: string, c: Cost) => `${name.padEnd(8)} ${(c.rss / 1024).toFixed(2).padStart(6)} KB RSS   ${(c.heap / 1024).toFixed(2).padStart(6)} KB JavaScript heap`;
  console.log(`per idle queue with its open poll (target ≤ 5 KB):`);
  console.log(row("rookery", cost));
  console.log(row("naive", baseline.cost));
  console.log(`rookery/naive: RSS ${(cost.rss / baseline.cost.rss).toFixed(2)}, heap ${(cost.heap / baseline.cost.heap).toFixed(2)}`);
}

const serveAt = process.argv.indexOf("--serve");
if (serveAt >= 0) await serve(Number(process.argv[serveAt + 1]), Number(process.argv[serveAt + 2]));
else if (process.argv.includes("--serve-naive")) await serveNaive();
else await main();
