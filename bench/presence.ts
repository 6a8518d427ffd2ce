/**
 * Presence pings in an organisation of 1,000 users (POST /users/me/presence, each user sending
 * its own last_update_id, taken from its previous answer), against a baseline measured in the same
 * run on the same server: GET /users/me with the same users, and a bare Fastify answering a tiny
 * JSON body in the same process. The server runs in a child process, autocannon in this one. Each
 * run reports requests per second and the server's CPU time per request (read from the server
 * process before and after), and from that how many one core would serve: on a shared or busy
 * machine the throughput measures the machine, the CPU time the server. Two scenarios:
 *   steady — real time: most pings change nothing (the common case between two minutes);
 *   churn  — the server's clock runs 600× faster, so nearly every ping moves the user's times,
 *            takes a new update id, is written behind, and every answer carries the changes since
 *            that user's previous ping.
 *
 *   npx vite-node bench/presence.ts [seconds-per-run] [connections] [rounds]
 * Target: ≥ 5,000 pings/s of one process under churn (one core's worth of the server's CPU time).
 * ROOKERY_BENCH_SHORT=1: 50 users, one round of 1-second runs.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { basicAuth } from "./auth.js";
import { runUnderServerFlags } from "./server-flags.js";
import { SHORT, sized } from "./short.js";

runUnderServerFlags(import.meta.filename);

const SECONDS = sized(process.argv[2], 8, 1);
const CONNECTIONS = Number(process.argv[3] ?? 8);
const ROUNDS = sized(process.argv[4], 2, 1);
const USERS = SHORT ? 50 : 1000;
const ID_FIELD = '"presence_last_update_id":';

interface Credentials {
  url: string;
  /** Answers the server process's CPU time (process.cpuUsage). */
  cpuUrl: string;
  /** A bare Fastify answering a tiny JSON body, in the same process: the floor of any endpoint. */
  helloUrl: string;
  users: { email: string; key: string }[];
}

/** Child: a Rookery server on SQLite with 1,000 users; prints `ready <credentials file>`. */
async function serve(): Promise<void> {
  const { buildApp } = await import("../src/app.js");
  const { loadConfig } = await import("../src/config.js");
  const { benchOrganisation } = await import("./org.js");
  const speed = Number(process.env.BENCH_CLOCK_SPEED ?? 1);
  const origin = Date.now();
  const clock = { now: () => origin + (Date.now() - origin) * speed };
  const dataDir = process.env.BENCH_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), "rookery-presence-"));
  const config = { ...loadConfig({}), host: "127.0.0.1", port: 0, dataDir, databaseUrl: `sqlite:${path.join(dataDir, "bench.sqlite3")}`, logLevel: "silent", rateLimitPerMinute: 0 };
  const app = await buildApp(config, { clock, logger: pino({ level: "silent" }) });
  const users = (await benchOrganisation(app, USERS, clock.now())).map(({ email, key }) => ({ email, key }));
  const url = await app.http.listen({ host: "127.0.0.1", port: 0 });
  const { default: Fastify } = await import("fastify");
  const hello = Fastify();
  hello.get("/api/v1/users/me", async () => ({ result: "success", msg: "", hello: "world" }));
  hello.post("/api/v1/users/me/presence", async () => ({ result: "success", msg: "", hello: "world" }));
  const helloUrl = await hello.listen({ host: "127.0.0.1", port: 0 });
  const control = Fastify();
  control.get("/cpu", async () => process.cpuUsage());
  const cpuUrl = `${await control.listen({ host: "127.0.0.1", port: 0 })}/cpu`;
  const file = path.join(dataDir, "credentials.json");
  fs.writeFileSync(file, JSON.stringify({ url, cpuUrl, helloUrl, users } satisfies Credentials));
  process.stdout.write(`ready ${file}\n`);
}

interface RequestSpec {
  method: string;
  path: string;
  setupRequest: (req: Record<string, unknown>, context: Record<string, unknown>) => Record<string, unknown>;
  onResponse?: (status: number, body: string, context: Record<string, unknown>) => void;
}
interface Result {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  non2xx: number;
  errors: number;
}
type Autocannon = (opts: { url: string; connections: number; duration: number; requests: RequestSpec[] }) => Promise<Result>;
// autocannon ships no type declarations; this is the part of its API used here.
const autocannon = createRequire(import.meta.url)("autocannon") as Autocannon;

function startServer(speed: number): Promise<{ child: ChildProcess; creds: Credentials }> {
  const child = spawn("npx", ["vite-node", path.join(import.meta.dirname, "presence.ts"), "--serve"], {
    env: { ...process.env, BENCH_CLOCK_SPEED: String(speed) },
    stdio: ["ignore", "pipe", "inherit"],
    // Its own process group, so stopping it stops npx's children too.
    detached: true,
  });
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout?.on("data", (d: Buffer) => {
      out += d.toString();
      const match = /ready (\S+)/.exec(out);
      if (match?.[1]) resolve({ child, creds: JSON.parse(fs.readFileSync(match[1], "utf8")) as Credentials });
    });
    child.on("exit", (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

/** The server process's CPU time so far, in µs. */
async function serverCpu(creds: Credentials): Promise<number> {
  const usage = (await (await fetch(creds.cpuUrl)).json()) as { user: number; system: number };
  return usage.user + usage.system;
}

/** A run's figures: autocannon's, and the server's CPU µs per request. */
type Measured = Result & { cpuUs: number };

/** One autocannon run in which each request is the next user in turn. */
async function run(creds: Credentials, kind: "presence" | "me" | "hello", lastIds: number[]): Promise<Measured> {
  let next = 0;
  const request: RequestSpec = {
    method: kind === "presence" ? "POST" : "GET",
    // The hello server ignores authentication; it still receives the same headers.
    path: kind === "presence" ? "/api/v1/users/me/presence" : "/api/v1/users/me",
    setupRequest(req, context) {
      const i = next++ % creds.users.length;
      context.user = i;
      const user = creds.users[i] as { email: string; key: string };
      const headers: Record<string, string> = { authorization: basicAuth(user.email, user.key) };
      if (kind !== "presence") return { ...req, headers };
      headers["content-type"] = "application/x-www-form-urlencoded";
      return { ...req, headers, body: `status=active&last_update_id=${lastIds[i] ?? -1}` };
    },
    onResponse(status, body, context) {
      if (kind !== "presence" || status !== 200 || typeof context.user !== "number") return;
      // Neither JSON.parse nor a scan of the whole answer (tens of KB under churn): the load
      // generator must stay cheaper than the server. The id is the answer's last field.
      const at = body.lastIndexOf(ID_FIELD);
      if (at !== -1) lastIds[context.user] = parseInt(body.slice(at + ID_FIELD.length), 10);
    },
  };
  const before = await serverCpu(creds);
  const result = await autocannon({ url: kind === "hello" ? creds.helloUrl : creds.url, connections: CONNECTIONS, duration: SECONDS, requests: [request] });
  // Presence's write-behind runs within a second of the run: part of the pings' cost.
  if (kind === "presence") await new Promise((resolve) => setTimeout(resolve, 1200));
  const cpuUs = ((await serverCpu(creds)) - before) / Math.max(1, result.requests.total);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${kind}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return { ...result, cpuUs };
}

/** Every user pings once, in turn, so the realm has 1,000 presence rows and each user an id. */
async function warmUp(creds: Credentials, lastIds: number[]): Promise<void> {
  for (let i = 0; i < creds.users.length; i++) {
    const res = await fetch(`${creds.url}/api/v1/users/me/presence`, {
      method: "POST",
      headers: { authorization: basicAuth(creds.users[i]!.email, creds.users[i]!.key), "content-type": "application/x-www-form-urlencoded" },
      body: `status=active&last_update_id=${lastIds[i] ?? -1}`,
    });
    lastIds[i] = ((await res.json()) as { presence_last_update_id: number }).presence_last_update_id;
  }
}

async function scenario(name: string, speed: number): Promise<void> {
  const { child, creds } = await startServer(speed);
  try {
    const lastIds: number[] = [];
    console.log(`[${name}] server ready at ${creds.url}; warming up`);
    await warmUp(creds, lastIds);
    await warmUp(creds, lastIds);
    console.log(`[${name}] warm; measuring`);
    const perCore = (r: Measured) => Math.round(1e6 / r.cpuUs);
    const fmt = (r: Measured) => `${r.requests.average.toFixed(0)} req/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms; server CPU ${r.cpuUs.toFixed(0)} µs/request = ${perCore(r).toLocaleString("en")}/s per core`;
    for (let round = 1; round <= ROUNDS; round++) {
      // Alternated in each round, so load from elsewhere on the machine hits all three alike.
      const hello = await run(creds, "hello", lastIds);
      const me = await run(creds, "me", lastIds);
      const ping = await run(creds, "presence", lastIds);
      console.log(`[${name} ${round}] bare Fastify hello (same process):        ${fmt(hello)}`);
      console.log(`[${name} ${round}] GET /users/me (${USERS.toLocaleString("en")} users in turn):       ${fmt(me)}`);
      console.log(`[${name} ${round}] POST /users/me/presence + last_update_id:  ${fmt(ping)}`);
      const ratio = (a: Result, b: Result) => (a.requests.average / b.requests.average).toFixed(3);
      const cpuRatio = (a: Measured, b: Measured) => (b.cpuUs / a.cpuUs).toFixed(3);
      console.log(`[${name} ${round}] ratios: pings/hello ${ratio(ping, hello)}, pings/users-me ${ratio(ping, me)}; per core of CPU: pings/hello ${cpuRatio(ping, hello)}, pings/users-me ${cpuRatio(ping, me)}`);
      console.log(`[${name} ${round}] one process: ${perCore(ping).toLocaleString("en")} pings/s per core of CPU (target ≥ 5,000), ${ping.requests.average.toFixed(0)}/s measured on this machine`);
    }
  } finally {
    if (child.pid !== undefined) process.kill(-child.pid, "SIGTERM");
  }
}

async function drive(): Promise<void> {
  console.log(`${os.cpus().length} cores, ${CONNECTIONS} connections, ${SECONDS} s per run, ${USERS} users`);
  if (!process.argv.includes("--churn-only")) await scenario("steady", 1);
  if (!process.argv.includes("--steady-only")) await scenario("churn", 600);
}

if (process.argv.includes("--serve")) await serve();
else await drive();
