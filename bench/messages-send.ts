/**
 * POST /messages into a 50-subscriber channel on SQLite (autocannon in a worker thread, with 10
 * then 50 clients sending at once), then a raw better-sqlite3 loop inserting the same rows (one
 * message and 50 per-user rows, one transaction per message) on the same database in the same
 * run. Prints each rate and the ratios. More clients sending at once share more commits.
 *
 *   npx vite-node bench/messages-send.ts [seconds]
 *
 * ROOKERY_BENCH_SHORT=1: 1-second runs.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import autocannon from "autocannon";
import SQLite from "../src/db/sqlite-binding.js";
import pino from "pino";
import { createRealm } from "../src/actions/realms.js";
import { checkCreateUser } from "../src/actions/users.js";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { registerSearchText } from "../src/db/search-text.js";
import { Role } from "../src/lib/users/roles.js";
import { basicAuth } from "./auth.js";
import { runUnderServerFlags } from "./server-flags.js";
import { sized } from "./short.js";

runUnderServerFlags(import.meta.filename);

const SECONDS = sized(process.argv[2], 10, 1);

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-bench-send-"));
  const file = path.join(dataDir, "bench.sqlite3");
  const config = { ...loadConfig({}), dataDir, databaseUrl: `sqlite:${file}`, logLevel: "warn", rateLimitPerMinute: 0 };
  const app = await buildApp(config, { logger: pino({ level: "warn" }) });
  const { owner } = await createRealm(app.ctx, { name: "Bench", stringId: "", ownerEmail: "owner@zulip.com", ownerName: "Owner", password: "bench-password" });
  const ids = [owner.id];
  for (let i = 1; i < 50; i++) {
    ids.push((await checkCreateUser(app.ctx, { realmId: owner.realm_id, email: `user${i}@zulip.com`, fullName: `User ${i}`, password: null, role: Role.MEMBER })).id);
  }
  const base = `${await app.http.listen({ host: "127.0.0.1", port: 0 })}/api/v1`;
  const authorization = basicAuth(owner.delivery_email, owner.api_key);
  const form = { authorization, "content-type": "application/x-www-form-urlencoded" };
  const sub = await fetch(`${base}/users/me/subscriptions`, {
    method: "POST",
    headers: form,
    body: new URLSearchParams({ subscriptions: JSON.stringify([{ name: "bench" }]), principals: JSON.stringify(ids) }).toString(),
  });
  if (sub.status !== 200) throw new Error(await sub.text());
  const body = new URLSearchParams({ type: "stream", to: "bench", topic: "load", content: "Hello **world**, a message of ordinary length for a benchmark." }).toString();

  const rates: Record<number, number> = {};
  let sent = 0;
  for (const connections of [10, 50]) {
    const result = await autocannon({ url: `${base}/messages`, method: "POST", headers: form, body, connections, duration: SECONDS, workers: 1 });
    if (result.non2xx > 0 || result.errors > 0) throw new Error(`${result.non2xx} non-2xx, ${result.errors} errors`);
    rates[connections] = result.requests.total / SECONDS;
    sent = Math.max(sent, result.requests.total);
  }
  const row = await app.ctx.db.selectFrom("message").selectAll().orderBy("id", "desc").limit(1).executeTakeFirstOrThrow();
  await app.close();

  // The baseline: the same rows through better-sqlite3 directly, one transaction per message.
  const db = new SQLite(file);
  // The message_search triggers (migration 007) index these rows too, as they do the API's.
  registerSearchText(db);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  const insertMessage = db.prepare(
    "INSERT INTO message (realm_id, sender_id, stream_id, topic, dm_key, content, rendered_content, date_sent, client, recipient_id) VALUES (?, ?, ?, ?, '', ?, ?, ?, ?, ?)",
  );
  const insertUm = db.prepare("INSERT INTO user_message (user_id, message_id, flags) VALUES (?, ?, ?)");
  const one = db.transaction(() => {
    const id = Number(insertMessage.run(row.realm_id, row.sender_id, row.stream_id, row.topic, row.content, row.rendered_content, Date.now(), row.client, row.recipient_id).lastInsertRowid);
    for (const userId of ids) insertUm.run(userId, id, 0);
  });
  const t0 = performance.now();
  for (let i = 0; i < sent; i++) one();
  const rawRate = sent / ((performance.now() - t0) / 1000);
  db.close();
  fs.rmSync(dataDir, { recursive: true, force: true });

  for (const [connections, rate] of Object.entries(rates)) {
    console.log(`POST /messages, 50 subscribers, ${connections} clients: ${rate.toFixed(0)} messages/s (target ≥ 1,500); ratio to raw ${(rate / rawRate).toFixed(2)} (target ≥ 0.5)`);
  }
  console.log(`raw better-sqlite3, same rows, one transaction per message: ${rawRate.toFixed(0)} messages/s (${sent} messages)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
