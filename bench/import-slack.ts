/**
 * `rookery import-slack` on a generated Slack export: time, messages per second and peak RSS of
 * the command (the built `rookery`, in a process of its own, with its flags), against a baseline measured in the
 * same run: bulk-inserting the very rows the import wrote (message, user_message, reaction) into
 * an empty copy of the same database with prepared statements, row by row (triggers included).
 *
 *   npx vite-node bench/import-slack.ts [messages] [channels] [users]
 *
 * Defaults: the 1,000,000 messages in 200 channels of 1,000 users (10 members per
 * channel, a thread of 3 replies every 10 messages, a reaction every 5th, a mention every 7th).
 * ROOKERY_BENCH_SHORT=1: 5,000 messages, 20 channels, 100 users.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import yazl from "yazl";
import SQLite from "../src/db/sqlite-binding.js";
import { buildCommand } from "../test/harness/build.js";
import { sized } from "./short.js";
import { runCommand } from "./command-run.js";
import { bulkInsertBaseline } from "./bulk-insert-baseline.js";

const MESSAGES = sized(process.argv[2], 1_000_000, 5_000);
const CHANNELS = sized(process.argv[3], 200, 20);
const USERS = sized(process.argv[4], 1_000, 100);
const MEMBERS = Math.min(10, USERS);
const PER_DAY = 100;
const DAY = 86_400;
const START = 1_700_000_000;

const userId = (n: number) => `U${String(n).padStart(6, "0")}`;
const channelMembers = (c: number) => Array.from({ length: MEMBERS }, (_, k) => userId((c * 5 + k) % USERS));

/** One channel's messages of one day, made when the zip writer reaches the entry. */
function* dayFile(channel: number, day: number, count: number): Generator<Buffer> {
  const members = channelMembers(channel);
  const out: Record<string, unknown>[] = [];
  let rootTs = "";
  for (let i = 0; i < count; i++) {
    const n = day * PER_DAY + i;
    const ts = `${START + day * DAY + i * 60 + (channel % 60)}.${String(channel).padStart(6, "0")}`;
    const m: Record<string, unknown> = { type: "message", ts, user: members[n % members.length], text: `message ${n} of channel ${channel}: *status* update with _details_ and <https://example.com/${n}|a link>` };
    if (n % 7 === 0) m.text = `${String(m.text)} cc <@${members[(n + 1) % members.length]}>`;
    if (n % 5 === 0) m.reactions = [{ name: "+1", users: [members[(n + 2) % members.length]], count: 1 }];
    const inThread = n % 10;
    if (inThread === 0) rootTs = ts;
    if (inThread <= 3 && rootTs !== "") Object.assign(m, { thread_ts: rootTs }, inThread > 0 ? { parent_user_id: members[(n - inThread) % members.length] } : {});
    out.push(m);
  }
  yield Buffer.from(JSON.stringify(out));
}

async function writeExport(file: string): Promise<void> {
  const zip = new yazl.ZipFile();
  const done = new Promise<void>((resolve, reject) => {
    const out = fs.createWriteStream(file);
    out.on("close", () => resolve());
    out.on("error", reject);
    zip.outputStream.pipe(out);
  });
  const users = Array.from({ length: USERS }, (_, n) => ({ id: userId(n), name: `user${n}`, deleted: false, real_name: `User ${n}`, is_primary_owner: n === 0, is_owner: n === 0, profile: { email: `user${n}@example.test`, real_name: `User ${n}` } }));
  zip.addBuffer(Buffer.from(JSON.stringify(users)), "users.json");
  const channels = Array.from({ length: CHANNELS }, (_, c) => ({ id: `C${c}`, name: `channel-${c}`, created: START, creator: userId(0), is_archived: false, members: channelMembers(c), purpose: { value: `Channel ${c}` }, topic: { value: "" } }));
  zip.addBuffer(Buffer.from(JSON.stringify(channels)), "channels.json");
  const perChannel = Math.ceil(MESSAGES / CHANNELS);
  let left = MESSAGES;
  for (let c = 0; c < CHANNELS && left > 0; c++) {
    const mine = Math.min(perChannel, left);
    left -= mine;
    for (let day = 0; day * PER_DAY < mine; day++) {
      const date = new Date((START + day * DAY) * 1000).toISOString().slice(0, 10);
      zip.addReadStream(Readable.from(dayFile(c, day, Math.min(PER_DAY, mine - day * PER_DAY))), `channel-${c}/${date}.json`);
    }
  }
  zip.end();
  await done;
}

async function main(): Promise<void> {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-bench-slack-"));
  const { main: rookery, remove } = await buildCommand("bench-import-slack");
  try {
    const file = path.join(work, "export.zip");
    let started = performance.now();
    await writeExport(file);
    console.log(`export: ${MESSAGES} messages, ${CHANNELS} channels, ${USERS} users, ${(fs.statSync(file).size / 1e6).toFixed(1)} MB zip, written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const dataDir = path.join(work, "data");
    const dbFile = path.join(dataDir, "rookery.sqlite3");
    const env = { ...process.env, ROOKERY_DATA_DIR: dataDir, ROOKERY_DATABASE_URL: `sqlite:${dbFile}`, ROOKERY_LOG_LEVEL: "warn" };
    const run = await runCommand(rookery, ["import-slack", file, "--json"], env, true);
    const rows = run.result;
    console.log(`import-slack: ${run.seconds.toFixed(2)} s (${Math.round(MESSAGES / run.seconds)} messages/s), peak RSS ${run.peakMb.toFixed(0)} MB; imported ${String(rows.messages)} messages, ${String(rows.reactions)} reactions`);
    const db = new SQLite(dbFile);
    db.pragma("wal_checkpoint(TRUNCATE)");
    const userMessages = (db.prepare("SELECT count(*) AS n FROM user_message").get() as { n: number }).n;
    db.close();
    started = performance.now();
    const baseline = bulkInsertBaseline(dbFile, path.join(work, "baseline.sqlite3"));
    console.log(`baseline (bulk insert of the same ${MESSAGES} messages, ${userMessages} user_message rows, ${String(rows.reactions)} reactions): ${baseline.toFixed(2)} s`);
    console.log(`ratio import / bulk insert: ${(run.seconds / baseline).toFixed(2)}×  (issue's goal ≤ 2×); peak RSS ${run.peakMb.toFixed(0)} MB (goal ≤ 300 MB)`);
  } finally {
    remove();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
