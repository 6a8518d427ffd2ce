/**
 * POST /register with the complete state (fetch_event_types omitted: every key Zulip 9 sends) in
 * an organisation of 1,000 users and 200 channels, each user subscribed to 20 of them, with a
 * few thousand messages so that unread_msgs, recent_private_conversations and starred_messages
 * have something to say. The baseline, measured in the same run and interleaved with it, is the
 * state of the event types the register response covered before it was completed (OLD_TYPES), so
 * the ratio says what the added keys cost. Prints the median and p90 over real HTTP and the
 * response sizes.
 *
 *   npx vite-node bench/register.ts [runs=40]
 *   npx vite-node bench/register.ts --short     (or ROOKERY_BENCH_SHORT=1; 60 users, 20 channels: seconds)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { createRealm } from "../src/actions/realms.js";
import { checkCreateUser } from "../src/actions/users.js";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { Role } from "../src/lib/users/roles.js";
import { basicAuth } from "./auth.js";
import { runUnderServerFlags } from "./server-flags.js";
import { SHORT, sized } from "./short.js";

runUnderServerFlags(import.meta.filename);

// Short mode (ROOKERY_BENCH_SHORT=1): seconds, not minutes.
const RUNS = sized(process.argv.slice(2).find((a) => /^\d+$/.test(a)), 40, 8);
const USERS = SHORT ? 60 : 1000;
const CHANNELS = SHORT ? 20 : 200;
const CHANNELS_PER_USER = SHORT ? 5 : 20;
const MESSAGES = SHORT ? 200 : 2000;
const STARRED = SHORT ? 10 : 100;

/** The fetch_event_types the register response covered before every documented key was sent. */
const OLD_TYPES = [
  "realm", "realm_user", "realm_user_groups", "subscription", "stream", "default_streams", "user_topic", "muted_topics",
  "user_settings", "update_display_settings", "update_global_notifications", "realm_user_settings_defaults", "presence",
  "user_status", "muted_users", "drafts", "alert_words", "message", "update_message_flags", "recent_private_conversations",
  "custom_profile_fields", "realm_emoji",
];

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
  const auth = (u: { delivery_email: string; api_key: string }) => basicAuth(u.delivery_email, u.api_key);
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
  const directIds: number[] = [];
  for (let m = 0; m < MESSAGES; m++) {
    const sender = users[(m * 7) % USERS]!;
    if (m % 4 === 0) {
      const sent: unknown = await (await post(sender, "/messages", { type: "private", to: JSON.stringify([me.id]), content: `direct ${m}` })).json();
      if (typeof sent === "object" && sent !== null && "id" in sent && typeof sent.id === "number") directIds.push(sent.id);
    } else await post(owner, "/messages", { type: "stream", to: `channel ${m % CHANNELS}`, topic: `topic ${m % 13}`, content: `message ${m}` });
  }
  await post(me, "/messages/flags", { messages: JSON.stringify(directIds.slice(0, STARRED)), op: "add", flag: "starred" });

  // CPU time too: on a machine others share, the wall time also counts the waits for a core.
  const time = async (run: () => Promise<Response>): Promise<{ ms: number; cpuMs: number; bytes: number }> => {
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const res = await run();
    const bytes = (await res.arrayBuffer()).byteLength;
    const cpu = process.cpuUsage(cpu0);
    return { ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, bytes };
  };
  const complete = () => post(me, "/register", {});
  const old = () => post(me, "/register", { fetch_event_types: JSON.stringify(OLD_TYPES) });
  for (let i = 0; i < 5; i++) {
    await time(complete);
    await time(old);
  }
  const completeMs: number[] = [];
  const oldMs: number[] = [];
  const completeCpu: number[] = [];
  const oldCpu: number[] = [];
  let completeBytes = 0;
  let oldBytes = 0;
  for (let i = 0; i < RUNS; i++) {
    const o = await time(old);
    oldMs.push(o.ms);
    oldCpu.push(o.cpuMs);
    oldBytes = o.bytes;
    const c = await time(complete);
    completeMs.push(c.ms);
    completeCpu.push(c.cpuMs);
    completeBytes = c.bytes;
  }
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });

  const p50 = percentile(completeMs, 50);
  const oldP50 = percentile(oldMs, 50);
  console.log(`POST /register, ${USERS} users, ${CHANNELS} channels (${CHANNELS_PER_USER} subscribed), ${RUNS} runs${SHORT ? " (short)" : ""}`);
  const cpu = (xs: number[]) => `CPU p50 ${percentile(xs, 50).toFixed(1)} ms`;
  console.log(`  complete state:            p50 ${p50.toFixed(1)} ms, p90 ${percentile(completeMs, 90).toFixed(1)} ms${SHORT ? "" : " (target p50 ≤ 30)"}, ${cpu(completeCpu)}, ${(completeBytes / 1024).toFixed(0)} KiB`);
  console.log(`  baseline, the old types:   p50 ${oldP50.toFixed(1)} ms, p90 ${percentile(oldMs, 90).toFixed(1)} ms, ${cpu(oldCpu)}, ${(oldBytes / 1024).toFixed(0)} KiB`);
  console.log(`  complete / old: ${(p50 / oldP50).toFixed(2)}× time, ${(completeBytes / oldBytes).toFixed(2)}× bytes`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
