/**
 * POST /register (every event type, full initial state) in an organisation of 1,000 users and
 * 200 channels, each user subscribed to 20 of them, with a few thousand messages so that
 * unread_msgs and recent_private_conversations have something to say. Prints the median and
 * p90 over real HTTP, the response size, and GET /users/me measured in the same run as the
 * baseline.
 *
 *   npx vite-node bench/register.ts [runs=40]
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { createRealm } from "../src/actions/realms.js";
import { checkCreateUser } from "../src/actions/users.js";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { Role } from "../src/lib/roles.js";
import { runUnderServerFlags } from "./server-flags.js";
import { SHORT, sized } from "./short.js";

runUnderServerFlags(import.meta.filename);

// ROOKERY_BENCH_SHORT=1: 30 users, 20 channels, 100 messages, 3 runs.
const RUNS = sized(process.argv[2], 40, 3);
const USERS = SHORT ? 30 : 1000;
const CHANNELS = SHORT ? 20 : 200;
const CHANNELS_PER_USER = 20;

const percentile = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-bench-register-"));
  const config = { ...loadConfig({}), dataDir, databaseUrl: `sqlite:${path.join(dataDir, "db.sqlite3")}`, logLevel: "warn", rateLimitPerMinute: 0 };
  const app = await buildApp(config, { logger: pino({ level: "warn" }) });
  const base = `${await app.http.listen({ host: "127.0.0.1", port: 0 })}/api/v1`;
  const { owner } = await createRealm(app.ctx, { name: "Bench", stringId: "", ownerEmail: "owner@bench.test", ownerName: "Owner", password: "bench-password" });
  const users = [owner];
  for (let i = 1; i < USERS; i++) {
    users.push(await checkCreateUser(app.ctx, { realmId: owner.realm_id, email: `user${i}@bench.test`, fullName: `User ${i}`, password: null, role: Role.MEMBER }));
  }
  const auth = (u: { delivery_email: string; api_key: string }) => "Basic " + Buffer.from(`${u.delivery_email}:${u.api_key}`).toString("base64");
  const post = async (who: (typeof users)[number], p: string, params: Record<string, string>) => {
    const res = await fetch(`${base}${p}`, {
      method: "POST",
      headers: { authorization: auth(who), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(params).toString(),
    });
    if (res.status !== 200) throw new Error(`${p}: ${await res.text()}`);
    return res;
  };
  for (let c = 0; c < CHANNELS; c++) {
    // Channel c's subscribers: every user u with (u + c) % (CHANNELS / CHANNELS_PER_USER) === 0 — 20 channels each.
    const members = users.filter((_, u) => (u + c) % (CHANNELS / CHANNELS_PER_USER) === 0).map((u) => u.id);
    await post(owner, "/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: `channel ${c}`, description: `Channel number ${c}` }]), principals: JSON.stringify([...new Set([owner.id, ...members])]) });
  }
  const me = users[10]!;
  for (let m = 0; m < (SHORT ? 100 : 2000); m++) {
    const sender = users[(m * 7) % USERS]!;
    if (m % 4 === 0) await post(sender, "/messages", { type: "private", to: JSON.stringify([me.id]), content: `direct ${m}` });
    else await post(owner, "/messages", { type: "stream", to: `channel ${m % CHANNELS}`, topic: `topic ${m % 13}`, content: `message ${m}` });
  }

  const time = async (run: () => Promise<Response>): Promise<{ ms: number; bytes: number }> => {
    const t0 = performance.now();
    const res = await run();
    const bytes = (await res.arrayBuffer()).byteLength;
    return { ms: performance.now() - t0, bytes };
  };
  const register = () => post(me, "/register", {});
  const usersMe = () => fetch(`${base}/users/me`, { headers: { authorization: auth(me) } });
  for (let i = 0; i < 5; i++) await time(register);
  const registerMs: number[] = [];
  const baselineMs: number[] = [];
  let bytes = 0;
  for (let i = 0; i < RUNS; i++) {
    baselineMs.push((await time(usersMe)).ms);
    const r = await time(register);
    registerMs.push(r.ms);
    bytes = r.bytes;
  }
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });

  const p50 = percentile(registerMs, 50);
  console.log(`POST /register, ${USERS} users, ${CHANNELS} channels (${CHANNELS_PER_USER} subscribed), ${RUNS} runs: p50 ${p50.toFixed(1)} ms, p90 ${percentile(registerMs, 90).toFixed(1)} ms (target p50 ≤ 30), ${(bytes / 1024).toFixed(0)} KiB`);
  console.log(`GET /users/me baseline: p50 ${percentile(baselineMs, 50).toFixed(2)} ms; register / baseline ${(p50 / percentile(baselineMs, 50)).toFixed(0)}×`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
