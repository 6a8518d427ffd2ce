/**
 * Memory and /register cost of event queues, on a server in a child process (this script with
 * `--serve`): an organisation of 1,000 users and 200 channels (each user subscribed to 20).
 * Prints the /register p50/p99 (full initial state), then RSS before and after 10,000 idle
 * queues each with an open long-poll, and the bytes per queue.
 *
 *   npx vite-node bench/events-memory.ts [users=1000] [queues=10000] [channels=200]
 *
 * ROOKERY_BENCH_SHORT=1: 20 users, 50 queues, 5 channels, 10 /register calls.
 */
import { spawn, type ChildProcess } from "node:child_process";
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
      const waiting = all.reduce((n, u) => n + app.ctx.queues.ofUser(u.id).filter((q) => q.isWaiting()).length, 0);
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

async function main(): Promise<void> {
  const users = sized(process.argv[2], 1000, 20);
  const queues = sized(process.argv[3], 10000, 50);
  const channels = sized(process.argv[4], 200, 5);
  const bin = path.resolve(path.dirname(SCRIPT), "../node_modules/.bin/vite-node");
  // Spawned under the server's flags itself: a re-run would lose the IPC channel.
  const child: ChildProcess = spawn(process.execPath, [...serverFlags(), fs.realpathSync(bin), SCRIPT, "--", "--serve", String(users), String(channels)], {
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
  const agent = new http.Agent({ keepAlive: true, maxSockets: queues + 10, maxFreeSockets: queues + 10 });
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
  const base = `http://127.0.0.1:${ready.port}/api/v1`;

  // /register with the full initial state, as a client starting up asks for it.
  const times: number[] = [];
  for (let i = 0; i < (SHORT ? 10 : 200); i++) {
    const auth = ready.auths[(i * 7) % ready.auths.length]!;
    const t0 = performance.now();
    const text = await request(`${base}/register`, "POST", { ...FORM, authorization: auth }, "client_capabilities=" + encodeURIComponent('{"notification_settings_null":true}'));
    times.push(performance.now() - t0);
    const { queue_id: queueId } = JSON.parse(text) as { queue_id: string };
    await request(`${base}/events?queue_id=${queueId}`, "DELETE", { authorization: auth });
  }
  times.sort((a, b) => a - b);
  const full = await request(`${base}/register`, "POST", { ...FORM, authorization: ready.auths[1]! }, "");
  const stateBytes = full.length;
  await request(`${base}/events?queue_id=${(JSON.parse(full) as { queue_id: string }).queue_id}`, "DELETE", { authorization: ready.auths[1]! });

  const heapBefore = (await ask("gc")).heap;
  await sleep(500);
  const before = rssMb(child.pid!);
  const cursors: { auth: string; queueId: string }[] = [];
  for (let i = 0; i < queues; i++) {
    const auth = ready.auths[i % ready.auths.length]!;
    const text = await request(`${base}/register`, "POST", { ...FORM, authorization: auth }, "fetch_event_types=%5B%5D&event_types=%5B%22message%22%5D");
    cursors.push({ auth, queueId: (JSON.parse(text) as { queue_id: string }).queue_id });
  }
  // Connections are opened in batches: 10,000 at once overflow the listen backlog and get reset.
  const polls: Promise<string>[] = [];
  let stats = await ask("stats");
  for (let start = 0; start < cursors.length; start += 500) {
    for (const c of cursors.slice(start, start + 500)) {
      polls.push(request(`${base}/events?queue_id=${c.queueId}&last_event_id=-1`, "GET", { authorization: c.auth }));
    }
    while (stats.waiting < polls.length) {
      await sleep(50);
      stats = await ask("stats");
    }
  }
  const heapAfter = (await ask("gc")).heap;
  if (process.env.MEMORY_SNAPSHOT) await ask("snapshot");
  await sleep(500);
  const after = rssMb(child.pid!);

  console.log(`organisation: ${users} users, ${channels} channels; /register response ${(stateBytes / 1024).toFixed(0)} KiB`);
  console.log(`/register (full state)  p50 ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms   p99 ${times[Math.floor(times.length * 0.99)]!.toFixed(1)} ms   (target p50 ≤ 30 ms)`);
  console.log(`RSS before queues ${before.toFixed(0)} MB; with ${stats.queues} queues and ${stats.waiting} open polls ${after.toFixed(0)} MB (target ≤ 400 MB)`);
  console.log(`per queue with its open poll: ${(((after - before) * 1024 * 1024) / queues).toFixed(0)} bytes (target ≤ 5 KB), of which JavaScript heap ${((heapAfter - heapBefore) / queues).toFixed(0)} bytes`);

  child.send("exit");
  await Promise.allSettled(polls);
  agent.destroy();
  await new Promise((r) => child.once("exit", r));
}

const serveAt = process.argv.indexOf("--serve");
if (serveAt >= 0) await serve(Number(process.argv[serveAt + 1]), Number(process.argv[serveAt + 2]));
else await main();
