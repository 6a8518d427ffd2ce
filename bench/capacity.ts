/**
 * The capacity model: how many active users one process, one machine and N machines serve.
 *
 * It measures the server CPU time of each request of Zulip's published request mix (Zulip's
 * "Performance and scalability" page, its table of major endpoints, by share of all requests):
 *   POST /users/me/presence 36%, GET /events 44%, GET /messages 3%, GET / 0.3% (the web app's
 *   page load: its data is POST /register's), GET /user_uploads/* 5%, POST /messages/flags 1.5%,
 *   POST /messages 0.5%; the other ~9.7% are counted at the mix's mean cost.
 * Each is run alone against one server holding an organisation of USERS users, all subscribed to
 * one channel with MESSAGES messages, QUEUES of them with an event queue; CPU is read from the
 * server process (and, in cluster mode, from every PostgreSQL and Redis process) before and after.
 *
 * The model: an active client pings presence once a minute (server_presence_ping_interval_seconds
 * is 60), so presence's 36% is one request per active user per minute and every other share
 * scales from it. Capacity is the CPU a core gives in a minute at a planned utilisation of 50%
 * (headroom for the daily peak and for bursts), divided by the CPU an active user costs a minute.
 *
 *   npx vite-node bench/capacity.ts [seconds-per-endpoint=5] [users=500]
 *
 * With ROOKERY_TEST_PG_URL and ROOKERY_TEST_REDIS_URL it also measures one process in cluster mode
 * (PostgreSQL and Redis), for the machine and N-machine figures; without them it says so.
 * ROOKERY_BENCH_SHORT=1: 40 users, 1-second runs.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { freshBenchDatabase, type BenchDatabase } from "./backends.js";
import { basicAuth } from "./auth.js";
import type { BenchUser } from "./org.js";
import { runUnderServerFlags } from "./server-flags.js";
import { SHORT, sized } from "./short.js";

runUnderServerFlags(import.meta.filename);

const SECONDS = sized(process.argv[2], 5, 1);
const USERS = sized(process.argv[3], 500, 40);
const MESSAGES = SHORT ? 100 : 2000;
const QUEUES = Math.min(USERS, 100);
const CONNECTIONS = 8;
/** The planned utilisation of a core. */
const UTILISATION = 0.5;
const pgUrl = process.env.ROOKERY_TEST_PG_URL;
const redisUrl = process.env.ROOKERY_TEST_REDIS_URL;

/** What the server child hands the driver. */
interface Setup {
  url: string;
  users: BenchUser[];
  queues: string[];
  messageIds: number[];
  upload: string;
}

/** Child: a server (SQLite, or cluster mode when BENCH_DATABASE_URL and BENCH_REDIS_URL are set) with the organisation; prints `ready <setup file>`. */
async function serve(): Promise<void> {
  const { buildApp } = await import("../src/app.js");
  const { loadConfig } = await import("../src/config.js");
  const { benchOrganisation } = await import("./org.js");
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-capacity-"));
  const cluster = process.env.BENCH_REDIS_URL ? { databaseUrl: process.env.BENCH_DATABASE_URL!, redisUrl: process.env.BENCH_REDIS_URL, redisPrefix: process.env.BENCH_REDIS_PREFIX! } : {};
  const config = { ...loadConfig({}), host: "127.0.0.1", port: 0, dataDir, databaseUrl: `sqlite:${path.join(dataDir, "bench.sqlite3")}`, logLevel: "silent", rateLimitPerMinute: 0, ...cluster };
  // A clock the driver may speed up (presence: see the mix).
  const pace = { base: Date.now(), real: Date.now(), speed: 1 };
  const clock = { now: () => pace.base + (Date.now() - pace.real) * pace.speed };
  const app = await buildApp(config, { clock, logger: pino({ level: "silent" }) });
  const url = await app.http.listen({ host: "127.0.0.1", port: 0 });
  await app.listening(url);
  // BENCH_JOIN: another process of the same cluster, serving nothing.
  const { default: Fastify } = await import("fastify");
  // The driver reads this process's CPU time here, between runs.
  const control = Fastify();
  control.get("/cpu", async () => process.cpuUsage());
  control.get("/speed/:speed", async (request) => {
    Object.assign(pace, { base: clock.now(), real: Date.now(), speed: Number((request.params as { speed: string }).speed) });
    return {};
  });
  const controlUrl = await control.listen({ host: "127.0.0.1", port: 0 });
  const file = path.join(dataDir, "setup.json");
  if (process.env.BENCH_JOIN) {
    fs.writeFileSync(file, JSON.stringify({ url, users: [], queues: [], messageIds: [], upload: "" } satisfies Setup));
    process.stdout.write(`ready ${file} ${controlUrl}\n`);
    return;
  }
  const users = await benchOrganisation(app, USERS, clock.now());
  const owner = users[0]!;
  const call = async (user: BenchUser, method: string, route: string, form: Record<string, string> = {}, body?: FormData) => {
    const query = method === "GET" ? `?${new URLSearchParams(form)}` : "";
    const res = await fetch(`${url}/api/v1${route}${query}`, { method, headers: { authorization: basicAuth(user.email, user.key) }, body: body ?? (method === "GET" ? undefined : new URLSearchParams(form)) });
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  await call(owner, "POST", "/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "general" }]), principals: JSON.stringify(users.map((u) => u.id)) });
  const messageIds: number[] = [];
  for (let i = 0; i < MESSAGES; i++) {
    const sender = users[i % users.length]!;
    const sent = await call(sender, "POST", "/messages", { type: "stream", to: "general", topic: `topic ${i % 20}`, content: `message ${i} with **some** _Markdown_ and a [link](https://example.com/${i})` });
    messageIds.push(Number(sent.id));
  }
  const form = new FormData();
  form.append("file", new Blob([Buffer.alloc(20_000, "rookery ")], { type: "text/plain" }), "notes.txt");
  const upload = String((await call(owner, "POST", "/user_uploads", {}, form)).url);
  await call(owner, "POST", "/messages", { type: "stream", to: "general", topic: "files", content: `[notes](${upload})` });
  const queues: string[] = [];
  for (const user of users.slice(0, QUEUES)) queues.push(String((await call(user, "POST", "/register", { event_types: JSON.stringify(["message", "update_message_flags"]) })).queue_id));
  fs.writeFileSync(file, JSON.stringify({ url, users, queues, messageIds, upload } satisfies Setup));
  process.stdout.write(`ready ${file} ${controlUrl}\n`);
}

interface RequestSpec {
  method: string;
  path: string;
  setupRequest: (req: Record<string, unknown>) => Record<string, unknown>;
  onResponse?: (status: number, body: string) => void;
}
interface Result {
  requests: { total: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (opts: { url: string; connections: number; duration: number; requests: RequestSpec[] }) => Promise<Result>;
// autocannon ships no type declarations; this is the part of its API used here.
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

/** One endpoint of the mix: its share of all requests and the request it sends, the next user in turn each time. */
interface Endpoint {
  name: string;
  share: number;
  /** How much faster than real time the server's clock runs meanwhile. */
  speed?: number;
  request(setup: Setup, n: number): { method: string; path: string; body?: string; user: number };
}

const form = (fields: Record<string, string | number>) => new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])).toString();
const channel = encodeURIComponent(JSON.stringify([{ operator: "channel", operand: "general" }]));

/**
 * Presence pings by the first `active` users only: the answer lists every user who has pinged, so
 * its cost grows with the active users. A client pings once a minute, so each of its pings moves
 * its user's times (they move when 55 s old); here each user pings many times a second, so the
 * server's clock runs 60,000× faster for these runs: a millisecond is a minute, and at either
 * number of users each ping comes a minute or more after the user's previous one.
 */
const presence = (active: (s: Setup) => number): Endpoint["request"] => (s, n) => ({ method: "POST", path: "/api/v1/users/me/presence", body: form({ status: "active", last_update_id: -1 }), user: n % active(s) });
const FEW = (s: Setup) => Math.max(1, Math.floor(s.users.length / 5));
const PRESENCE_SPEED = 60_000;

/** The mix; presence last (its fast clock would expire the event queues), at a fifth of the users (only they have pinged yet), then at all of them. */
const MIX: Endpoint[] = [
  {
    name: "GET /events",
    share: 0.44,
    request: (s, n) => ({ method: "GET", path: `/api/v1/events?queue_id=${encodeURIComponent(s.queues[n % s.queues.length]!)}&last_event_id=-1&dont_block=true`, user: n % s.queues.length }),
  },
  { name: "GET /messages (100, newest)", share: 0.03, request: (s, n) => ({ method: "GET", path: `/api/v1/messages?anchor=newest&num_before=100&num_after=0&narrow=${channel}`, user: n % s.users.length }) },
  { name: "POST /register (the page load)", share: 0.003, request: (s, n) => ({ method: "POST", path: "/api/v1/register", body: "", user: n % s.users.length }) },
  { name: "GET /user_uploads/* (20 KB)", share: 0.05, request: (s, n) => ({ method: "GET", path: s.upload, user: n % s.users.length }) },
  {
    name: "POST /messages/flags (5 read)",
    share: 0.015,
    request: (s, n) => ({ method: "POST", path: "/api/v1/messages/flags", body: form({ op: Math.floor(n / s.users.length) % 2 === 0 ? "add" : "remove", flag: "read", messages: JSON.stringify(s.messageIds.slice(-5)) }), user: n % s.users.length }),
  },
  { name: "POST /messages (to the channel)", share: 0.005, request: (s, n) => ({ method: "POST", path: "/api/v1/messages", body: form({ type: "stream", to: "general", topic: "load", content: `load ${n} with **Markdown**` }), user: n % s.users.length }) },
  { name: "POST /users/me/presence (1/5)", share: 0, speed: PRESENCE_SPEED, request: presence(FEW) },
  { name: "POST /users/me/presence", share: 0.36, speed: PRESENCE_SPEED, request: presence((s) => s.users.length) },
];

/** The share of all requests the measured endpoints make up; the rest is counted at their mean cost (presence's part excepted, as it grows with the users). */
const MEASURED_SHARE = MIX.reduce((sum, e) => sum + e.share, 0);
const PRESENCE_SHARE = 0.36;

interface Server {
  child: ChildProcess;
  setup: Setup;
  controlUrl: string;
}

function startServer(env: Record<string, string>): Promise<Server> {
  const child = spawn("npx", ["vite-node", import.meta.filename, "--serve"], { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"], detached: true });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const match = /ready (\S+) (\S+)/.exec(out);
      if (match?.[1] && match[2]) resolve({ child, setup: JSON.parse(fs.readFileSync(match[1], "utf8")) as Setup, controlUrl: match[2] });
    });
    child.on("exit", (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

/** CPU ms used so far by a server process (it answers on its control address). */
async function serverCpuMs(server: Server): Promise<number> {
  const usage = (await (await fetch(`${server.controlUrl}/cpu`)).json()) as { user: number; system: number };
  return (usage.user + usage.system) / 1000;
}

/** Clock ticks per second of /proc's CPU times. */
const TICKS_PER_SECOND = Number(spawnSync("getconf", ["CLK_TCK"]).stdout.toString()) || 100;

/**
 * CPU ms used so far by every process named `name` (Redis's), or whose command line matches
 * `pattern` (PostgreSQL's: the bench database's backends and the server's own writers, leaving out
 * the backends of other databases on a shared server). A backend that exits between two readings
 * takes its CPU time with it (the sum can even go back): on a busy shared server, PostgreSQL's
 * figures are not to be trusted.
 */
function processCpuMs(name: string, pattern?: string): number {
  const select = pattern === undefined ? `pgrep -x ${name}` : `pgrep -f '${pattern}'`;
  const ticks = spawnSync("sh", ["-c", `for p in $(${select}); do cut -d' ' -f14,15 /proc/$p/stat; done`]).stdout.toString();
  return ticks.split(/\s+/).filter(Boolean).reduce((sum, t) => sum + Number(t), 0) * (1000 / TICKS_PER_SECOND);
}

/**
 * CPU ms per request of each endpoint: the server's own; in cluster mode also PostgreSQL's,
 * Redis's, and that of another process of the cluster that serves nothing (it reads the shared
 * stream: every process pays this for every request any process serves).
 */
interface Cost {
  server: number;
  database: number;
  redis: number;
  other: number;
}

async function measure(server: Server, other?: Server, databaseName?: string): Promise<Cost[]> {
  const cluster = other !== undefined;
  const postgres = `^postgres: (checkpointer|background writer|walwriter|[^ ]+ ${databaseName ?? ""} )`;
  const costs: Cost[] = [];
  for (const endpoint of MIX) {
    let n = 0;
    const spec: RequestSpec = {
      method: "GET",
      path: "/",
      setupRequest: (req) => {
        const r = endpoint.request(server.setup, n++);
        const user = server.setup.users[r.user]!;
        const headers: Record<string, string> = { authorization: basicAuth(user.email, user.key) };
        if (r.body !== undefined) headers["content-type"] = "application/x-www-form-urlencoded";
        return { ...req, method: r.method, path: r.path, headers, body: r.body };
      },
    };
    const read = async (): Promise<Cost> => ({
      server: await serverCpuMs(server),
      database: cluster ? processCpuMs("postgres", postgres) : 0,
      redis: cluster ? processCpuMs("redis-server") : 0,
      other: other ? await serverCpuMs(other) : 0,
    });
    await fetch(`${server.controlUrl}/speed/${endpoint.speed ?? 1}`);
    // A short run first, so that what is measured is the warm server (not in short mode, whose figures mean nothing).
    if (!SHORT) await autocannon({ url: server.setup.url, connections: CONNECTIONS, duration: 1, requests: [spec] });
    const before = await read();
    const result = await autocannon({ url: server.setup.url, connections: CONNECTIONS, duration: SECONDS, requests: [spec] });
    // Work written behind (presence) is done within a second.
    await new Promise((resolve) => setTimeout(resolve, SHORT ? 200 : 1200));
    const after = await read();
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${endpoint.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    const count = result.requests.total;
    costs.push({ server: (after.server - before.server) / count, database: (after.database - before.database) / count, redis: (after.redis - before.redis) / count, other: (after.other - before.other) / count });
  }
  return costs;
}

/**
 * What an active user costs a minute, in CPU ms, as `fixed + perActive × U` for U active users:
 * each endpoint's requests per user-minute times its cost, the unmeasured rest of the mix at the
 * mean of the rest; presence's cost per ping is a line through its two measurements (a fifth of
 * the users active, all of them), since every answer lists the users who have pinged.
 */
function perUserMinute(costs: Cost[], part: keyof Cost, users: number): { fixed: number; perActive: number } {
  const [few, all] = [costs[MIX.length - 2]![part], costs[MIX.length - 1]![part]];
  const perActive = Math.max(0, (all - few) / (users - Math.max(1, Math.floor(users / 5))));
  const presenceBase = all - perActive * users;
  const rest = MIX.slice(0, -2);
  const restShare = rest.reduce((sum, e) => sum + e.share, 0);
  const restMs = rest.reduce((sum, e, i) => sum + (e.share / PRESENCE_SHARE) * costs[i]![part], 0);
  // The unmeasured share of all requests, at the measured rest's mean cost per request.
  const unmeasured = ((1 - MEASURED_SHARE) / PRESENCE_SHARE) * (restMs / (restShare / PRESENCE_SHARE));
  return { fixed: presenceBase + restMs + unmeasured, perActive };
}

/** The most active users `cores` cores at UTILISATION carry, when each costs `fixed + perActive × U` ms a minute. */
function capacity(cores: number, cost: { fixed: number; perActive: number }): number {
  const budget = 60_000 * UTILISATION * cores;
  if (cost.perActive === 0) return budget / cost.fixed;
  return (-cost.fixed + Math.sqrt(cost.fixed * cost.fixed + 4 * cost.perActive * budget)) / (2 * cost.perActive);
}

const sum = (...parts: { fixed: number; perActive: number }[]) => ({ fixed: parts.reduce((t, p) => t + p.fixed, 0), perActive: parts.reduce((t, p) => t + p.perActive, 0) });
const scale = (p: { fixed: number; perActive: number }, k: number) => ({ fixed: p.fixed * k, perActive: p.perActive * k });
const round = (n: number) => (n >= 1000 ? Math.round(n / 100) * 100 : Math.round(n)).toLocaleString("en");
const show = (p: { fixed: number; perActive: number }) => `${p.fixed.toFixed(3)} ms + ${(p.perActive * 1000).toFixed(3)} µs × active users`;

function table(costs: Cost[], cluster: boolean): void {
  for (const [i, e] of MIX.entries()) {
    const c = costs[i]!;
    const extra = cluster ? `, PostgreSQL ${c.database.toFixed(3)} ms, Redis ${c.redis.toFixed(3)} ms, each other process ${c.other.toFixed(3)} ms` : "";
    console.log(`  ${e.name.padEnd(32)} ${(e.share * 100).toFixed(1).padStart(5)}%  ${(e.share / PRESENCE_SHARE).toFixed(3)}/user-min  server ${c.server.toFixed(3)} ms${extra}`);
  }
}

async function stop(server: Server): Promise<void> {
  const exited = new Promise((resolve) => server.child.once("exit", resolve));
  if (server.child.pid !== undefined) process.kill(-server.child.pid, "SIGTERM");
  await exited;
}

async function drive(): Promise<void> {
  const cores = os.availableParallelism();
  console.log(`capacity: ${USERS} users, ${MESSAGES} messages, ${QUEUES} event queues, ${SECONDS} s per endpoint, ${CONNECTIONS} connections; requests per active user-minute from Zulip's mix (presence once a minute = 36%)`);
  const single = await startServer({});
  let one: Cost[];
  try {
    one = await measure(single);
  } finally {
    await stop(single);
  }
  console.log("one process on SQLite (CPU per request):");
  table(one, false);
  const sqlite = perUserMinute(one, "server", USERS);
  console.log(`  an active user costs a minute ${show(sqlite)} of CPU → one process (one core at ${UTILISATION * 100}%): ${round(capacity(1, sqlite))} active users`);

  if (!pgUrl || !redisUrl) {
    console.log("cluster figures skipped: set ROOKERY_TEST_PG_URL and ROOKERY_TEST_REDIS_URL (PostgreSQL and Redis)");
    return;
  }
  const database: BenchDatabase = await freshBenchDatabase(pgUrl, redisUrl, "rookery_bench_capacity");
  let clustered: Cost[];
  try {
    const env = { BENCH_DATABASE_URL: database.url, BENCH_REDIS_URL: redisUrl, BENCH_REDIS_PREFIX: database.redisPrefix };
    const member = await startServer(env);
    const idle = await startServer({ ...env, BENCH_JOIN: "1" });
    try {
      clustered = await measure(member, idle, new URL(database.url).pathname.slice(1));
    } finally {
      await Promise.all([stop(member), stop(idle)]);
    }
  } finally {
    await database.drop();
  }
  console.log("one process in cluster mode, a second one idle, PostgreSQL and Redis on this machine (CPU per request):");
  table(clustered, true);
  const server = perUserMinute(clustered, "server", USERS);
  const other = perUserMinute(clustered, "other", USERS);
  const db = perUserMinute(clustered, "database", USERS);
  const redis = perUserMinute(clustered, "redis", USERS);
  console.log(`  an active user costs a minute, in CPU: Rookery ${show(server)}; each other Rookery process ${show(other)}; PostgreSQL ${show(db)}; Redis ${show(redis)}`);
  console.log(`  one process (one core, PostgreSQL and Redis elsewhere): ${round(capacity(1, server))} active users`);
  const machine = (processes: number) => sum(server, scale(other, processes - 1), db, redis);
  console.log(`  one machine of ${cores} cores with ${cores} processes, PostgreSQL and Redis: ${round(capacity(cores, machine(cores)))} active users`);
  for (const machines of [1, 2, 4, 8]) {
    // Each of `machines` machines of 8 cores runs 8 processes; PostgreSQL has a machine of 8 cores, Redis one core.
    const processes = machines * 8;
    const rookery = capacity(processes, sum(server, scale(other, processes - 1)));
    const ceiling = Math.min(capacity(8, db), capacity(1, redis));
    console.log(`  ${machines} machine${machines > 1 ? "s" : ""} of 8 cores for Rookery (${processes} processes), PostgreSQL on 8 cores, Redis on 1: ${round(Math.min(rookery, ceiling))} active users (Rookery ${round(rookery)}, PostgreSQL ${round(capacity(8, db))}, Redis ${round(capacity(1, redis))})`);
  }
}

if (process.argv.includes("--serve")) await serve();
else await drive();
