/**
 * kill -9 with N event queues: a server (a child process on SQLite) holds N queues, registered
 * with /register by U users (N/U each) and each holding events the client has not acknowledged;
 * the child is killed with SIGKILL and started again on the same database. Then every client polls
 * once (`GET /events` with its queue and last event id, as a client does after a dropped
 * connection) and, when told BAD_EVENT_QUEUE_ID, registers again, as clients do. Prints the time
 * from the kill until every client is served again, and the /register calls it caused.
 *
 * Baseline, in the same run: the same crash with the saved queues deleted before the start (what
 * a server that keeps queues only in memory does), so every client registers again.
 *
 *   npx vite-node bench/queues-crash.ts [queues=10000] [users=1000]
 *
 * ROOKERY_BENCH_SHORT=1: 100 queues of 20 users.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import SQLite from "../src/db/sqlite-binding.js";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { basicAuth } from "./auth.js";
import { benchOrganisation } from "./org.js";
import { runUnderServerFlags, serverEnv, serverFlags } from "./server-flags.js";
import { sized } from "./short.js";

runUnderServerFlags(import.meta.filename);

const SCRIPT = import.meta.filename;
/** Requests the clients have in flight at once. */
const CONCURRENCY = 32;

interface Ready {
  port: number;
  users: string[];
}

// ---------------------------------------------------------------- the server (child)

async function serve(dataDir: string, users: number): Promise<void> {
  const config = { ...loadConfig({}), port: 0, dataDir, databaseUrl: `sqlite:${path.join(dataDir, "db.sqlite3")}`, logLevel: "warn", rateLimitPerMinute: 0 };
  const app = await buildApp(config, { logger: pino({ level: "warn" }) });
  const address = await app.http.listen({ host: "127.0.0.1", port: 0 });
  const members = users > 0 ? await benchOrganisation(app, users, app.ctx.clock.now(), { asCreated: true }) : [];
  const ready: Ready = { port: Number(new URL(address).port), users: members.map((u) => basicAuth(u.email, u.key)) };
  process.send?.({ ready });
}

function startServer(dataDir: string, users: number): Promise<{ child: ChildProcess; ready: Ready }> {
  const bin = path.resolve(path.dirname(SCRIPT), "../node_modules/.bin/vite-node");
  const child = spawn(process.execPath, [...serverFlags(), fs.realpathSync(bin), SCRIPT, "--", "--serve", dataDir, String(users)], {
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: { ...process.env, ...serverEnv() },
  });
  return new Promise((resolve, reject) => {
    child.once("message", (msg) => resolve({ child, ready: (msg as { ready: Ready }).ready }));
    child.once("exit", (code) => reject(new Error(`server exited with ${code}`)));
  });
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await exited;
}

// ---------------------------------------------------------------- the clients (parent)

interface Holder {
  auth: string;
  queueId: string;
  lastEventId: number;
}

async function call(port: number, auth: string, method: string, route: string, params: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const query = new URLSearchParams(params).toString();
  const url = `http://127.0.0.1:${port}/api/v1${route}`;
  const res =
    method === "GET"
      ? await fetch(`${url}?${query}`, { headers: { authorization: auth } })
      : await fetch(url, { method, headers: { authorization: auth, "content-type": "application/x-www-form-urlencoded" }, body: query });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Runs `work` over `items`, CONCURRENCY at a time. */
async function pool<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(CONCURRENCY, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

async function register(port: number, auth: string): Promise<Holder> {
  const res = await call(port, auth, "POST", "/register", {});
  if (res.status !== 200) throw new Error(`register: ${JSON.stringify(res.body)}`);
  return { auth, queueId: res.body.queue_id as string, lastEventId: res.body.last_event_id as number };
}

/** Every client polls once; those whose queue is gone register again. */
async function serveAgain(port: number, holders: Holder[]): Promise<number> {
  let registers = 0;
  await pool(holders, async (holder) => {
    const res = await call(port, holder.auth, "GET", "/events", { queue_id: holder.queueId, last_event_id: String(holder.lastEventId), dont_block: "true" });
    if (res.status === 200) return;
    if (res.body.code !== "BAD_EVENT_QUEUE_ID") throw new Error(`poll: ${JSON.stringify(res.body)}`);
    registers++;
    Object.assign(holder, await register(port, holder.auth));
  });
  return registers;
}

async function main(): Promise<void> {
  const queues = sized(process.argv[2], 10_000, 100);
  const users = Math.min(queues, sized(process.argv[3], 1000, 20));
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-queues-crash-"));
  try {
    const first = await startServer(dataDir, users);
    let { child } = first;
    let port = first.ready.port;
    const auths = first.ready.users;
    const started = performance.now();
    const holders: Holder[] = Array.from({ length: queues }, (_, i) => ({ auth: auths[i % auths.length]!, queueId: "", lastEventId: -1 }));
    await pool(holders, async (holder) => void Object.assign(holder, await register(port, holder.auth)));
    console.log(`${queues} queues of ${users} users registered in ${((performance.now() - started) / 1000).toFixed(1)} s`);

    const results: Record<string, { seconds: number; registers: number; afterUp: number }> = {};
    for (const mode of ["durable", "baseline"] as const) {
      // A few messages each client has not acknowledged.
      for (let i = 0; i < 5; i++) {
        const sent = await call(port, auths[0]!, "POST", "/messages", { type: "stream", to: "general", topic: "crash", content: `before the crash ${i}` });
        if (sent.status !== 200) throw new Error(`send: ${JSON.stringify(sent.body)}`);
      }
      const killedAt = performance.now();
      await kill(child);
      if (mode === "baseline") {
        // What a server that keeps its queues only in memory comes back with: none.
        const db = new SQLite(path.join(dataDir, "db.sqlite3"));
        db.exec("delete from event_queue; delete from event_log");
        db.close();
      }
      ({ child, ready: { port } } = await startServer(dataDir, 0));
      const up = (performance.now() - killedAt) / 1000;
      const registers = await serveAgain(port, holders);
      const seconds = (performance.now() - killedAt) / 1000;
      results[mode] = { seconds, registers, afterUp: seconds - up };
      console.log(`${mode}: server up ${up.toFixed(1)} s after the kill; every client served again after ${seconds.toFixed(1)} s (${(seconds - up).toFixed(2)} s after it was up); /register calls: ${registers}`);
    }
    const durable = results.durable!;
    const baseline = results.baseline!;
    console.log(
      `kill -9 with ${queues} queues: every client served again in ${durable.seconds.toFixed(1)} s with ${durable.registers} /register calls (target 0); ` +
        `baseline (queues lost): ${baseline.seconds.toFixed(1)} s with ${baseline.registers}; time ratio ${(durable.seconds / baseline.seconds).toFixed(2)}, counted from the server being up ${(durable.afterUp / baseline.afterUp).toFixed(2)}`,
    );
    await kill(child);
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

const serveAt = process.argv.indexOf("--serve");
if (serveAt >= 0) {
  void serve(process.argv[serveAt + 1]!, Number(process.argv[serveAt + 2]));
} else {
  await main();
}
