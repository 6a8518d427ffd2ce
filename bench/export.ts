/**
 * `rookery export` of a generated organisation: time, messages per second and peak RSS of the
 * command (the built `rookery`, in a process of its own), against a baseline measured in the same
 * run: reading the same rows (message, user_message, reaction) with plain SELECTs and turning each
 * into JSON, without writing anything.
 *
 *   npx vite-node bench/export.ts [messages] [channels] [users]
 *
 * Defaults: the 1,000,000 messages in 200 channels of 1,000 users (10 members per channel,
 * so 10 user_message rows per message, a reaction on every 5th message).
 * ROOKERY_BENCH_SHORT=1: 5,000 messages, 20 channels, 100 users.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { createRealm } from "../src/actions/realms.js";
import { createContext } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import SQLite from "../src/db/sqlite-binding.js";
import { registerSearchText } from "../src/db/search-text.js";
import { newStreamEmailToken, randomToken } from "../src/base/secrets.js";
import { buildCommand } from "../test/harness/build.js";
import { sized } from "./short.js";

const MESSAGES = sized(process.argv[2], 1_000_000, 5_000);
const CHANNELS = sized(process.argv[3], 200, 20);
const USERS = sized(process.argv[4], 1_000, 100);
const MEMBERS = Math.min(10, USERS);

/** A fresh data folder with the organisation, its rows inserted directly with prepared statements. */
async function generate(dataDir: string): Promise<string> {
  const file = path.join(dataDir, "rookery.sqlite3");
  const config = { ...loadConfig({}), dataDir, databaseUrl: `sqlite:${file}`, logLevel: "warn" };
  const ctx = await createContext(config, { logger: pino({ level: "warn" }) });
  const { owner } = await createRealm(ctx, { name: "Bench", stringId: "", ownerEmail: "owner@bench.test", ownerName: "Owner", password: "bench-password" });
  await ctx.store.close();
  const db = new SQLite(file);
  registerSearchText(db);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF");
  const now = Date.now();
  const users: number[] = [owner.id];
  const insertUser = db.prepare(
    "INSERT INTO user (realm_id, email, delivery_email, full_name, password_hash, api_key, role, is_active, is_bot, is_billing_admin, date_joined, timezone, avatar_source, avatar_version, email_address_visibility) VALUES (?, ?, ?, ?, NULL, ?, 400, 1, 0, 0, ?, '', 'G', 1, 1)",
  );
  const insertStream = db.prepare("INSERT INTO stream (realm_id, name, date_created, creator_id, email_token) VALUES (?, ?, ?, ?, ?)");
  const insertRecipient = db.prepare("INSERT INTO recipient (type, type_id, dm_key) VALUES (2, ?, '')");
  const insertSub = db.prepare("INSERT INTO subscription (user_id, stream_id, color) VALUES (?, ?, '#76ce90')");
  const channels: { id: number; recipient: number; members: number[] }[] = [];
  db.transaction(() => {
    for (let i = 1; i < USERS; i++) users.push(Number(insertUser.run(owner.realm_id, `user${i}@bench.test`, `user${i}@bench.test`, `User ${i}`, randomToken(32), now).lastInsertRowid));
    for (let c = 0; c < CHANNELS; c++) {
      const id = Number(insertStream.run(owner.realm_id, `channel-${c}`, now, owner.id, newStreamEmailToken()).lastInsertRowid);
      const members = Array.from({ length: MEMBERS }, (_, k) => users[(c * 5 + k) % users.length] ?? owner.id);
      for (const member of members) insertSub.run(member, id);
      channels.push({ id, recipient: Number(insertRecipient.run(id).lastInsertRowid), members });
    }
  })();
  const insertMessage = db.prepare(
    "INSERT INTO message (realm_id, sender_id, stream_id, topic, dm_key, content, rendered_content, date_sent, client, recipient_id) VALUES (?, ?, ?, ?, '', ?, ?, ?, 'bench', ?)",
  );
  const insertUm = db.prepare("INSERT INTO user_message (user_id, message_id, flags) VALUES (?, ?, ?)");
  const insertReaction = db.prepare("INSERT INTO reaction (message_id, user_id, emoji_name, emoji_code, reaction_type) VALUES (?, ?, '+1', '1f44d', 'unicode_emoji')");
  for (let done = 0; done < MESSAGES; done += 10_000) {
    db.transaction(() => {
      for (let n = done; n < Math.min(done + 10_000, MESSAGES); n++) {
        const channel = channels[n % channels.length];
        if (!channel) return;
        const sender = channel.members[n % channel.members.length] ?? owner.id;
        const content = `message ${n} of channel ${channel.id}: **status** update with _details_`;
        const id = Number(insertMessage.run(owner.realm_id, sender, channel.id, `topic ${n % 50}`, content, `<p>${content}</p>`, now - (MESSAGES - n) * 1000, channel.recipient).lastInsertRowid);
        for (const member of channel.members) insertUm.run(member, id, member === sender ? 1 : 0);
        if (n % 5 === 0) insertReaction.run(id, channel.members[(n + 1) % channel.members.length] ?? owner.id);
      }
    })();
  }
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.exec("ANALYZE");
  db.close();
  return file;
}

/** Runs the built command and samples its peak RSS (VmHWM) until it exits. */
async function runExport(main: string, out: string, env: NodeJS.ProcessEnv): Promise<{ seconds: number; peakMb: number; result: Record<string, unknown> }> {
  const started = performance.now();
  const child = spawn("node", [main, "export", out, "--json"], { env });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  let peakKb = 0;
  const sample = setInterval(() => {
    try {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, "utf8"));
      if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
    } catch {
      // The process has just ended.
    }
  }, 50);
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  clearInterval(sample);
  if (code !== 0) throw new Error(`export failed (${code}): ${stderr}`);
  return { seconds: (performance.now() - started) / 1000, peakMb: peakKb / 1024, result: JSON.parse(stdout) as Record<string, unknown> };
}

/** The baseline: every exported row read with a plain SELECT and turned into JSON, nothing written. */
function selectBaseline(file: string): { seconds: number; rows: number } {
  const db = new SQLite(file, { readonly: true });
  const started = performance.now();
  let rows = 0;
  let bytes = 0;
  for (const table of ["message", "user_message", "reaction"]) {
    for (const row of db.prepare(`SELECT * FROM ${table}`).iterate()) {
      bytes += JSON.stringify(row).length;
      rows += 1;
    }
  }
  const seconds = (performance.now() - started) / 1000;
  db.close();
  if (bytes === 0) throw new Error("nothing read");
  return { seconds, rows };
}

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-bench-export-"));
  const { main: rookery, remove } = await buildCommand("bench-export");
  try {
    const dataDir = path.join(work, "data");
    fs.mkdirSync(dataDir);
    let started = performance.now();
    const file = await generate(dataDir);
    console.log(`organisation: ${MESSAGES} messages in ${CHANNELS} channels of ${USERS} users, generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const out = path.join(work, "zulip-export-bench.tar.gz");
    const env = { ...process.env, ROOKERY_DATA_DIR: dataDir, ROOKERY_DATABASE_URL: `sqlite:${file}`, ROOKERY_REDIS_URL: "", ROOKERY_LOG_LEVEL: "warn" };
    const run = await runExport(rookery, out, env);
    console.log(`export: ${run.seconds.toFixed(2)} s (${Math.round(MESSAGES / run.seconds)} messages/s), peak RSS ${run.peakMb.toFixed(0)} MB, archive ${(fs.statSync(out).size / 1e6).toFixed(1)} MB; exported ${String(run.result.messages)} messages`);
    started = performance.now();
    const baseline = selectBaseline(file);
    console.log(`baseline (plain SELECT of the same ${baseline.rows} rows, each to JSON): ${baseline.seconds.toFixed(2)} s`);
    console.log(`ratio export / SELECT: ${(run.seconds / baseline.seconds).toFixed(2)}×; peak RSS ${run.peakMb.toFixed(0)} MB`);
  } finally {
    remove();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
