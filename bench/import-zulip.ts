/**
 * `rookery import` of an export in Zulip's format: bench/export.ts's organisation is generated,
 * exported with `rookery export --with-secrets`, then imported into an empty data folder by the
 * built command (in a process of its own, with its flags): time, messages per second and peak RSS,
 * against a baseline measured in the same run: bulk-inserting the very rows the import wrote
 * (message, user_message, reaction) into an emptied copy of the database with prepared statements
 * (bench/bulk-insert-baseline.ts, as bench/import-slack.ts).
 *
 *   npx vite-node bench/import-zulip.ts [messages] [channels] [users]
 *
 * Defaults: the 1,000,000 messages in 200 channels of 1,000 users.
 * ROOKERY_BENCH_SHORT=1: 5,000 messages, 20 channels, 100 users.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "../src/db/sqlite-binding.js";
import { buildCommand } from "../test/harness/build.js";
import { bulkInsertBaseline } from "./bulk-insert-baseline.js";
import { runCommand } from "./command-run.js";
import { generate } from "./export-org.js";
import { sized } from "./short.js";

const MESSAGES = sized(process.argv[2], 1_000_000, 5_000);
const CHANNELS = sized(process.argv[3], 200, 20);
const USERS = sized(process.argv[4], 1_000, 100);

const env = (dataDir: string, file: string): NodeJS.ProcessEnv => ({ ...process.env, ROOKERY_DATA_DIR: dataDir, ROOKERY_DATABASE_URL: `sqlite:${file}`, ROOKERY_REDIS_URL: "", ROOKERY_LOG_LEVEL: "warn" });

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-bench-import-zulip-"));
  const { main: rookery, remove } = await buildCommand("bench-import-zulip");
  try {
    const source = path.join(work, "source");
    fs.mkdirSync(source);
    let started = performance.now();
    const sourceDb = await generate(source, { messages: MESSAGES, channels: CHANNELS, users: USERS });
    console.log(`organisation: ${MESSAGES} messages in ${CHANNELS} channels of ${USERS} users, generated in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const archive = path.join(work, "zulip-export-bench.tar.gz");
    const exported = await runCommand(rookery, ["export", archive, "--with-secrets", "--json"], env(source, sourceDb));
    console.log(`export: ${exported.seconds.toFixed(2)} s, peak RSS ${exported.peakMb.toFixed(0)} MB, archive ${(fs.statSync(archive).size / 1e6).toFixed(1)} MB`);
    fs.rmSync(source, { recursive: true, force: true });

    const target = path.join(work, "target");
    fs.mkdirSync(target);
    const targetDb = path.join(target, "rookery.sqlite3");
    const run = await runCommand(rookery, ["import", archive, "--json"], env(target, targetDb), true);
    console.log(`import: ${run.seconds.toFixed(2)} s (${Math.round(MESSAGES / run.seconds)} messages/s), peak RSS ${run.peakMb.toFixed(0)} MB; imported ${String(run.result.messages)} messages`);
    const db = new SQLite(targetDb);
    db.pragma("wal_checkpoint(TRUNCATE)");
    const count = (table: string) => (db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
    const [userMessages, reactions] = [count("user_message"), count("reaction")];
    db.close();
    started = performance.now();
    const baseline = bulkInsertBaseline(targetDb, path.join(work, "baseline.sqlite3"));
    console.log(`baseline (bulk insert of the same ${MESSAGES} messages, ${userMessages} user_message rows, ${reactions} reactions): ${baseline.toFixed(2)} s`);
    console.log(`ratio import / bulk insert: ${(run.seconds / baseline).toFixed(2)}×  (issue's goal ≤ 2×); peak RSS ${run.peakMb.toFixed(0)} MB (goal ≤ 300 MB)`);
  } finally {
    remove();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
