/**
 * Fan-out: N users each with a registered queue and a long-poll open on a keep-alive connection;
 * one event to all of them: a realm-wide event (a full-name change → realm_user update to
 * everyone), or with `message` a channel message (POST /messages to a channel all N are
 * subscribed to; the naive server publishes a message event of the same size). Prints p50/p99
 * delivery latency (trigger sent → poll answered) and deliveries/s, side by side with a naive
 * in-memory long-poll server (bare node:http, one array per client) driven the same way, and each
 * server's own time from the trigger's arrival to its last answer's 'finish', the GC pauses and
 * the CPU time within it (CPU is the steadier figure when other work shares the machine).
 * Each server runs in a child process (this script with `--serve rookery|naive`), so the
 * clients' work does not slow the server measured; children answer "how many polls wait" over IPC.
 *
 *   npx vite-node bench/events-fanout.ts [clients=10000] [rounds=5] [realm_user|message]
 *
 * ROOKERY_BENCH_SHORT=1: 20 clients, 1 round, both kinds of event unless one is named.
 *
 * FANOUT_PROFILE=<file.cpuprofile> profiles the Rookery server during the rounds (setup excluded);
 * FANOUT_NODE_FLAGS passes flags to both servers' node.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import { PerformanceObserver } from "node:perf_hooks";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { basicAuth } from "./auth.js";
import { benchOrganisation, type BenchUser } from "./org.js";
import { runUnderServerFlags, serverEnv, serverFlags } from "./server-flags.js";
import { SHORT, sized } from "./short.js";

runUnderServerFlags(import.meta.filename);

const SCRIPT = import.meta.filename;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Garbage collection in this process, for the fan-out's window: each pause's start and duration
 * (ms, performance.now() time), so a child can say how much of its fan-out was spent collecting.
 */
function gcPauses(): (from: number, to: number) => number {
  const pauses: { start: number; ms: number }[] = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) pauses.push({ start: entry.startTime, ms: entry.duration });
    if (pauses.length > 10_000) pauses.splice(0, pauses.length - 10_000);
  }).observe({ entryTypes: ["gc"] });
  return (from, to) => pauses.reduce((sum, p) => (p.start >= from && p.start <= to ? sum + p.ms : sum), 0);
}

/**
 * CPU time (user + system) this process spent since `from`: asked once every poll was answered,
 * it is the fan-out's cost, and less disturbed than wall time by other work on the machine.
 */
function cpuMs(from: NodeJS.CpuUsage): number {
  const used = process.cpuUsage(from);
  return (used.user + used.system) / 1000;
}

/** What a child tells the parent once it listens. */
interface Ready {
  port: number;
  users: { id: number; auth: string }[];
}

// ---------------------------------------------------------------- children (the servers)

type EventKind = "realm_user" | "message";

async function serveRookery(clients: number, eventKind: EventKind): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-fanout-"));
  const config = { ...loadConfig({}), port: 0, dataDir, databaseUrl: `sqlite:${path.join(dataDir, "db.sqlite3")}`, logLevel: "warn", rateLimitPerMinute: 0 };
  const app = await buildApp(config, { logger: pino({ level: "warn" }) });
  const address = await app.http.listen({ host: "127.0.0.1", port: 0 });
  // Built in bulk, as POST /users would leave them: creating 10,000 one by one would take the run.
  const users = await benchOrganisation(app, clients, app.ctx.clock.now(), { asCreated: true });
  const owner = users[0];
  if (!owner) throw new Error("no owner");
  const auth = (u: BenchUser) => basicAuth(u.email, u.key);
  if (eventKind === "message") {
    const subscribed = await app.http.inject({
      method: "POST",
      url: "/api/v1/users/me/subscriptions",
      headers: { authorization: auth(owner), "content-type": "application/x-www-form-urlencoded" },
      payload: new URLSearchParams({ subscriptions: JSON.stringify([{ name: "bench" }]), principals: JSON.stringify(users.map((u) => u.id)) }).toString(),
    });
    if (subscribed.statusCode !== 200) throw new Error(subscribed.body);
  }
  const waiting = () => app.ctx.queues.waitingPolls();
  const gcMs = gcPauses();
  // Server-side fan-out time: from the triggering request's arrival (the naive server: its event
  // read) to the last poll's answer written.
  let published = 0;
  let cpuAtPublish = process.cpuUsage();
  let delivering = 0;
  let lastAnswered = 0;
  // And the part of it from the event reaching the queues (after the write, its commit and log).
  const deliver = app.ctx.queues.deliver.bind(app.ctx.queues);
  app.ctx.queues.deliver = (batch) => {
    delivering = performance.now();
    deliver(batch);
  };
  app.http.server.prependListener("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.method !== "GET") {
      published = performance.now();
      cpuAtPublish = process.cpuUsage();
    }
    else if (req.url?.startsWith("/api/v1/events")) res.once("finish", () => (lastAnswered = performance.now()));
  });
  process.on("message", (msg) => {
    if (msg === "waiting") process.send?.({ waiting: waiting(), serverMs: lastAnswered - published, deliveryMs: lastAnswered - delivering, gcMs: gcMs(published, lastAnswered), cpuMs: cpuMs(cpuAtPublish) });
    if (msg === "exit") void app.close().then(() => fs.rmSync(dataDir, { recursive: true, force: true }), () => undefined).then(() => process.exit(0));
  });
  const ready: Ready = { port: Number(new URL(address).port), users: users.map((u) => ({ id: u.id, auth: auth(u) })) };
  if (process.env.FANOUT_PROFILE) await profileUntilExit(process.env.FANOUT_PROFILE);
  process.send?.({ ready });
}

/** Profiles the server from now until it exits (setup excluded) and writes a .cpuprofile. */
async function profileUntilExit(file: string): Promise<void> {
  const { Session } = await import("node:inspector/promises");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.start");
  process.on("message", (msg) => {
    if (msg !== "exit") return;
    void session.post("Profiler.stop").then(({ profile }) => fs.writeFileSync(file, JSON.stringify(profile)));
  });
}

async function serveNaive(clients: number): Promise<void> {
  const queues: unknown[][] = Array.from({ length: clients }, () => []);
  const waiting = new Map<number, http.ServerResponse>();
  const gcMs = gcPauses();
  let published = 0;
  let cpuAtPublish = process.cpuUsage();
  let lastAnswered = 0;
  const answer = (i: number, res: http.ServerResponse) => {
    const body = JSON.stringify({ result: "success", msg: "", events: queues[i], queue_id: String(i) });
    queues[i] = [];
    res.writeHead(200, { "content-type": "application/json" }).end(body);
  };
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/publish") {
      let body = "";
      req.on("data", (c: Buffer) => (body += c.toString()));
      req.on("end", () => {
        const event = JSON.parse(body) as Record<string, unknown>;
        published = performance.now();
        cpuAtPublish = process.cpuUsage();
        queues.forEach((q, i) => q.push({ ...event, id: i }));
        // The last answer's 'finish', as measured on Rookery's side.
        for (const [i, waiter] of waiting) {
          waiter.once("finish", () => (lastAnswered = performance.now()));
          answer(i, waiter);
        }
        waiting.clear();
        res.end("{}");
      });
      return;
    }
    const i = Number(url.searchParams.get("client"));
    if (queues[i]!.length > 0) answer(i, res);
    else waiting.set(i, res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const address = server.address();
  process.on("message", (msg) => {
    if (msg === "waiting") process.send?.({ waiting: waiting.size, serverMs: lastAnswered - published, deliveryMs: lastAnswered - published, gcMs: gcMs(published, lastAnswered), cpuMs: cpuMs(cpuAtPublish) });
    if (msg === "exit") server.close(() => process.exit(0));
  });
  const ready: Ready = { port: typeof address === "object" && address ? address.port : 0, users: queues.map((_, i) => ({ id: i, auth: "" })) };
  process.send?.({ ready });
}

// ---------------------------------------------------------------- parent (the clients)

interface Reply {
  status: number;
  body: string;
  at: number;
}

function client(maxSockets: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  const request = (url: string, method: string, headers: Record<string, string> = {}, body?: string): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const req = http.request(url, { method, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString(), at: performance.now() }));
      });
      req.on("error", reject);
      req.end(body);
    });
  return { request, close: () => agent.destroy() };
}

const FORM = { "content-type": "application/x-www-form-urlencoded" };

/** A child's answer: polls parked now, and the last fan-out's server-side duration. */
interface Status {
  waiting: number;
  serverMs: number;
  /** The part of serverMs from the event reaching the queues. */
  deliveryMs: number;
  /** Garbage collection pauses that began within serverMs. */
  gcMs: number;
  /** CPU time from the trigger until the question (the fan-out's CPU cost). */
  cpuMs: number;
}

/** What one side measured. */
interface Result {
  latencies: number[];
  rates: number[];
  serverMs: number[];
  deliveryMs: number[];
  gcMs: number[];
  cpuMs: number[];
}

class Child {
  private pending: ((msg: Status) => void) | undefined;
  private constructor(readonly process: ChildProcess) {
    process.on("message", (msg) => this.pending?.(msg as Status));
  }

  static async start(kind: string, clients: number, eventKind: EventKind): Promise<{ child: Child; ready: Ready }> {
    const bin = path.resolve(path.dirname(SCRIPT), "../node_modules/.bin/vite-node");
    // FANOUT_NODE_FLAGS (e.g. "--cpu-prof") profiles the servers.
    const flags = (process.env.FANOUT_NODE_FLAGS ?? "").split(" ").filter((f) => f.length > 0);
    // Spawned under the server's flags itself: a re-run would lose the IPC channel.
    const proc = spawn(process.execPath, [...serverFlags(), ...flags, fs.realpathSync(bin), SCRIPT, "--", "--serve", kind, String(clients), eventKind], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      env: { ...process.env, ...serverEnv() },
    });
    const ready = await new Promise<Ready>((resolve, reject) => {
      proc.once("message", (msg) => resolve((msg as { ready: Ready }).ready));
      proc.once("exit", (code) => reject(new Error(`${kind} server exited with ${code}`)));
    });
    return { child: new Child(proc), ready };
  }

  status(): Promise<Status> {
    return new Promise((resolve) => {
      this.pending = resolve;
      this.process.send("waiting");
    });
  }

  stop(): Promise<void> {
    return new Promise((resolve) => {
      this.process.once("exit", () => resolve());
      this.process.send("exit");
    });
  }
}

async function measure(kind: "rookery" | "naive", clients: number, rounds: number, eventKind: EventKind): Promise<Result> {
  const { child, ready } = await Child.start(kind, clients, eventKind);
  const base = `http://127.0.0.1:${ready.port}`;
  const http1 = client(clients + 10);
  const cursors: { queueId: string; last: number; auth: string }[] = [];
  for (const user of ready.users) {
    if (kind === "naive") {
      cursors.push({ queueId: String(user.id), last: -1, auth: "" });
      continue;
    }
    const body = new URLSearchParams({ event_types: JSON.stringify([eventKind]), fetch_event_types: "[]" }).toString();
    const reply = await http1.request(`${base}/api/v1/register`, "POST", { ...FORM, authorization: user.auth }, body);
    const parsed = JSON.parse(reply.body) as { queue_id: string; last_event_id: number };
    cursors.push({ queueId: parsed.queue_id, last: parsed.last_event_id, auth: user.auth });
  }
  const latencies: number[] = [];
  const rates: number[] = [];
  const serverMs: number[] = [];
  const deliveryMs: number[] = [];
  const gcMs: number[] = [];
  const cpuMs: number[] = [];
  for (let round = 0; round <= rounds; round++) {
    const polls = cursors.map((c) =>
      kind === "naive"
        ? http1.request(`${base}/events?client=${c.queueId}`, "GET")
        : http1.request(`${base}/api/v1/events?queue_id=${c.queueId}&last_event_id=${c.last}`, "GET", { authorization: c.auth }),
    );
    while ((await child.status()).waiting < clients) await sleep(5);
    const t0 = performance.now();
    if (kind === "naive") {
      await http1.request(`${base}/publish`, "POST", {}, JSON.stringify(naiveEvent(eventKind, round)));
    } else if (eventKind === "message") {
      const body = new URLSearchParams({ type: "stream", to: "bench", topic: "fan-out", content: `Message ${round} to every subscriber.` }).toString();
      const reply = await http1.request(`${base}/api/v1/messages`, "POST", { ...FORM, authorization: ready.users[0]!.auth }, body);
      if (reply.status !== 200) throw new Error(reply.body);
    } else {
      const body = new URLSearchParams({ full_name: `Renamed ${round}` }).toString();
      const reply = await http1.request(`${base}/api/v1/users/${ready.users[1]!.id}`, "PATCH", { ...FORM, authorization: ready.users[0]!.auth }, body);
      if (reply.status !== 200) throw new Error(reply.body);
    }
    const replies = await Promise.all(polls);
    replies.forEach((reply, i) => {
      const events = (JSON.parse(reply.body) as { events: { id: number }[] }).events;
      if (events.length !== 1) throw new Error(`${kind} client ${i} got ${reply.body}`);
      cursors[i]!.last = events[0]!.id;
    });
    if (round === 0) continue; // warm-up
    const times = replies.map((r) => r.at - t0);
    latencies.push(...times);
    rates.push(replies.length / (Math.max(...times) / 1000));
    const status = await child.status();
    serverMs.push(status.serverMs);
    deliveryMs.push(status.deliveryMs);
    gcMs.push(status.gcMs);
    cpuMs.push(status.cpuMs);
  }
  http1.close();
  await child.stop();
  return { latencies, rates, serverMs, deliveryMs, gcMs, cpuMs };
}

/** The event the naive server hands out: the same shape and size as Rookery's. */
function naiveEvent(eventKind: EventKind, round: number): Record<string, unknown> {
  if (eventKind === "realm_user") return { type: "realm_user", op: "update", person: { user_id: 1, full_name: `Renamed ${round}` } };
  const content = `Message ${round} to every subscriber.`;
  return {
    type: "message",
    flags: [],
    message: {
      id: round, sender_id: 1, sender_full_name: "Owner", sender_email: "owner@bench.test", sender_realm_str: "", avatar_url: null,
      client: "Internal", content: `<p>${content}</p>`, content_type: "text/html", display_recipient: "bench", stream_id: 1,
      subject: "fan-out", topic_links: [], recipient_id: 1, timestamp: 0, type: "stream", is_me_message: false, reactions: [], submessages: [],
    },
  };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

async function main(): Promise<void> {
  const clients = sized(process.argv[2], 10_000, 20);
  const rounds = sized(process.argv[3], 5, 1);
  // Short mode, with no kind named, tries both.
  const kinds: EventKind[] = process.argv[4] !== undefined || !SHORT ? [process.argv[4] === "message" ? "message" : "realm_user"] : ["realm_user", "message"];
  for (const eventKind of kinds) await compare(clients, rounds, eventKind);
}

async function compare(clients: number, rounds: number, eventKind: EventKind): Promise<void> {
  console.log(`fan-out: ${clients} queues with open long-polls, one ${eventKind} event to all, ${rounds} rounds (+1 warm-up)`);
  const naive = await measure("naive", clients, rounds, eventKind);
  const rookery = await measure("rookery", clients, rounds, eventKind);
  const row = (name: string, r: Result) =>
    `${name.padEnd(8)} p50 ${percentile(r.latencies, 50).toFixed(1).padStart(7)} ms   p99 ${percentile(r.latencies, 99).toFixed(1).padStart(7)} ms   ${Math.round(mean(r.rates))
      .toString()
      .padStart(8)} deliveries/s   server-side ${mean(r.serverMs).toFixed(1)} ms, of which delivery ${mean(r.deliveryMs).toFixed(1)} ms; GC ${mean(r.gcMs).toFixed(1)} ms; CPU ${mean(r.cpuMs).toFixed(1)} ms`;
  console.log(row("rookery", rookery));
  console.log(row("naive", naive));
  const ratio = mean(rookery.rates) / mean(naive.rates);
  console.log(`deliveries/s rookery/naive: ${ratio.toFixed(2)} (target ≥ 0.80); rookery p99 ${percentile(rookery.latencies, 99).toFixed(1)} ms (target ≤ 400), naive p99 ${percentile(naive.latencies, 99).toFixed(1)} ms; CPU per fan-out rookery/naive ${(mean(rookery.cpuMs) / mean(naive.cpuMs)).toFixed(2)}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);
}

const serveAt = process.argv.indexOf("--serve");
if (serveAt >= 0) {
  const kind = process.argv[serveAt + 1];
  const clients = Number(process.argv[serveAt + 2]);
  const eventKind = process.argv[serveAt + 3] === "message" ? "message" : "realm_user";
  await (kind === "rookery" ? serveRookery(clients, eventKind) : serveNaive(clients));
} else {
  await main();
}
