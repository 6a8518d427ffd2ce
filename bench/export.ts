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
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "../src/db/sqlite-binding.js";
import { buildCommand } from "../test/harness/build.js";
import { runCommand } from "./command-run.js";
import { generate } from "./export-org.js";
import { sized } from "./short.js";

const MESSAGES = sized(process.argv[2], 1_000_000, 5_000);
const CHANNELS = sized(process.argv[3], 200, 20);
const USERS = sized(process.argv[4], 1_000, 100);

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
    const file = await generate(dataDir, { messages: MESSAGES, channels: CHANNELS, users: USERS });
    console.log(`organisation: ${MESSAGES} messages in ${CHANNELS} channels of ${USERS} users, generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const out = path.join(work, "zulip-export-bench.tar.gz");
    const env = { ...process.env, ROOKERY_DATA_DIR: dataDir, ROOKERY_DATABASE_URL: `sqlite:${file}`, ROOKERY_REDIS_URL: "", ROOKERY_LOG_LEVEL: "warn" };
    const run = await runCommand(rookery, ["export", out, "--json"], env);
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
