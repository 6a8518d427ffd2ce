/**
 * `rookery import-slack` on a generated Slack export: time, messages per second and peak RSS of
 * the command (the built `rookery`, in a process of its own, with its flags), against a baseline measured in the
 * same run: bulk-inserting the very rows the import wrote (message, user_message, reaction) into
 * an empty copy of the same database with prepared statements, row by row (triggers included).
 *
 *   npx vite-node bench/import-slack.ts [messages] [channels] [users]
 *
 * Defaults: the issue's 1,000,000 messages in 200 channels of 1,000 users (10 members per
 * channel, a thread of 3 replies every 10 messages, a reaction every 5th, a mention every 7th).
 * ROOKERY_BENCH_SHORT=1: 5,000 messages, 20 channels, 100 users.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import yazl from "yazl";
import SQLite from "../src/db/sqlite-binding.js";
import { registerSearchText } from "../src/db/search-text.js";
import { buildCommand } from "../test/harness/build.js";
import { sized } from "./short.js";

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

/** Runs the built command and samples its peak RSS (VmHWM) until it exits. */
async function runImport(main: string, file: string, env: NodeJS.ProcessEnv): Promise<{ seconds: number; peakMb: number; result: Record<string, unknown> }> {
  // As the installed command runs: with the environment and node flags of its first line.
  const words = (fs.readFileSync(main, "utf8").split("\n", 1)[0] ?? "").replace(/^#!\/usr\/bin\/env -S /, "").split(" ");
  const nodeAt = words.indexOf("node");
  const shebangEnv = Object.fromEntries(words.slice(0, Math.max(0, nodeAt)).map((w) => w.split("=", 2) as [string, string]));
  const started = performance.now();
  const child = spawn("node", [...words.slice(nodeAt + 1), main, "import-slack", file, "--json"], { env: { ...env, ...shebangEnv } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
    process.stderr.write(d);
  });
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
  if (code !== 0) throw new Error(`import-slack failed (${code}): ${stderr}`);
  return { seconds: (performance.now() - started) / 1000, peakMb: peakKb / 1024, result: JSON.parse(stdout) as Record<string, unknown> };
}

/**
 * The baseline: the same rows inserted directly into an emptied copy of the database, as
 * bench/messages-generate.ts builds its database: prepared statements, row by row, read from the
 * imported database in id order, in one transaction, with the import's page cache (64 MiB).
 */
function bulkInsertBaseline(imported: string, copy: string): number {
  fs.copyFileSync(imported, copy);
  const db = new SQLite(copy);
  registerSearchText(db);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  db.pragma("cache_size = -65536");
  db.exec("DELETE FROM reaction; DELETE FROM attachment_message; DELETE FROM user_message; UPDATE stream SET first_message_id = NULL; DELETE FROM message;");
  const source = new SQLite(imported, { readonly: true });
  const started = performance.now();
  const columns = (table: string) => (db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[]).map((c) => c.name);
  db.transaction(() => {
    for (const [table, order] of [["message", "id"], ["user_message", "message_id, user_id"], ["reaction", "message_id"]] as const) {
      const names = columns(table);
      const insert = db.prepare(`INSERT INTO ${table} (${names.map((n) => `"${n}"`).join(", ")}) VALUES (${names.map(() => "?").join(", ")})`);
      for (const row of source.prepare(`SELECT ${names.map((n) => `"${n}"`).join(", ")} FROM ${table} ORDER BY ${order}`).raw().iterate()) insert.run(...(row as unknown[]));
    }
  })();
  const seconds = (performance.now() - started) / 1000;
  source.close();
  db.close();
  return seconds;
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
    const run = await runImport(rookery, file, env);
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
