/**
 * Scheduled messages all due at the same second, sent by the server's own timer (the real clock),
 * into a 50-subscriber channel on SQLite from 10 senders: the time from that second until the
 * last one is committed and announced (target ≤ 2 s for 1,000). The baseline, in the same run:
 * the same number of messages sent with POST /messages one after another from one client.
 *
 *   npx vite-node bench/scheduled-messages.ts [count]      (default 1,000)
 *   ROOKERY_BENCH_SHORT=1 npx vite-node bench/scheduled-messages.ts   (100, a few seconds)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pino from "pino";
import { createRealm } from "../src/actions/realms.js";
import { checkCreateUser } from "../src/actions/users.js";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import type { UserRow } from "../src/db/queries/users.js";
import { Role } from "../src/lib/users/roles.js";
import { basicAuth } from "./auth.js";
import { runUnderServerFlags } from "./server-flags.js";
import { sized } from "./short.js";

runUnderServerFlags(import.meta.filename);

const COUNT = sized(process.argv.find((a) => /^\d+$/.test(a)), 1000, 100);
const SENDERS = 10;
const CONTENT = "Hello **world**, a message of ordinary length for a benchmark.";

async function main(): Promise<void> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-bench-scheduled-"));
  const config = { ...loadConfig({}), dataDir, databaseUrl: `sqlite:${path.join(dataDir, "bench.sqlite3")}`, logLevel: "warn", rateLimitPerMinute: 0 };
  const app = await buildApp(config, { logger: pino({ level: "warn" }) });
  const { owner } = await createRealm(app.ctx, { name: "Bench", stringId: "", ownerEmail: "owner@zulip.com", ownerName: "Owner", password: "bench-password" });
  const users: UserRow[] = [owner];
  for (let i = 1; i < 50; i++) {
    users.push(await checkCreateUser(app.ctx, { realmId: owner.realm_id, email: `user${i}@zulip.com`, fullName: `User ${i}`, password: null, role: Role.MEMBER }));
  }
  const base = `${await app.http.listen({ host: "127.0.0.1", port: 0 })}/api/v1`;
  const post = async (user: UserRow, route: string, params: Record<string, string>) => {
    const res = await fetch(`${base}${route}`, {
      method: "POST",
      headers: { authorization: basicAuth(user.delivery_email, user.api_key), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(params).toString(),
    });
    if (res.status !== 200) throw new Error(`${route}: ${await res.text()}`);
  };
  await post(owner, "/users/me/subscriptions", { subscriptions: JSON.stringify([{ name: "bench" }]), principals: JSON.stringify(users.map((u) => u.id)) });
  const streamId = (await app.ctx.db.selectFrom("stream").select("id").where("name", "=", "bench").executeTakeFirstOrThrow()).id;

  // Baseline: the same number of messages, POST /messages one after another from one client.
  let t0 = performance.now();
  for (let i = 0; i < COUNT; i++) await post(owner, "/messages", { type: "stream", to: "bench", topic: "baseline", content: CONTENT });
  const baselineMs = performance.now() - t0;

  // Every message is due at the same whole second, late enough for all to be scheduled before it.
  const dueSecond = Math.ceil((Date.now() + baselineMs + 2000) / 1000);
  const senders = users.slice(1, SENDERS + 1);
  let sentAt = 0;
  let sent = 0;
  const allSent = new Promise<void>((resolve) => {
    app.ctx.bus.subscribe((commit) => {
      for (const item of commit.events) {
        if (item.event.type !== "message" || item.event.message.subject !== "scheduled") continue;
        sent++;
        if (sent === COUNT) {
          sentAt = Date.now();
          resolve();
        }
      }
    });
  });
  t0 = performance.now();
  await Promise.all(
    senders.map(async (sender, s) => {
      for (let i = s; i < COUNT; i += SENDERS) {
        await post(sender, "/scheduled_messages", { type: "stream", to: String(streamId), topic: "scheduled", content: CONTENT, scheduled_delivery_timestamp: String(dueSecond) });
      }
    }),
  );
  const scheduleMs = performance.now() - t0;
  if (Date.now() >= dueSecond * 1000) throw new Error("scheduling took past the due second; nothing measured");
  if (sent > 0) throw new Error("messages were sent before their time");
  let timer: NodeJS.Timeout | undefined;
  const tooLate = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`only ${sent} of ${COUNT} sent after 30 s`)), dueSecond * 1000 - Date.now() + 30_000);
  });
  // The timer is cleared once all are sent: left running, it would keep the process alive 30 s more.
  await Promise.race([allSent, tooLate]).finally(() => clearTimeout(timer));
  const deliveryMs = sentAt - dueSecond * 1000;
  const pending = await app.ctx.db.selectFrom("scheduled_message").select((eb) => eb.fn.countAll<number>().as("n")).where("delivered", "=", 0).executeTakeFirstOrThrow();
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  if (Number(pending.n) !== 0) throw new Error(`${pending.n} scheduled messages left unsent`);

  console.log(`${COUNT} scheduled messages due at the same second (50 subscribers, ${SENDERS} senders), all sent ${deliveryMs} ms after it (target ≤ 2,000 ms): ${((COUNT / Math.max(deliveryMs, 1)) * 1000).toFixed(0)} messages/s`);
  console.log(`baseline, POST /messages one after another from one client: ${baselineMs.toFixed(0)} ms for ${COUNT} (${((COUNT / baselineMs) * 1000).toFixed(0)} messages/s); ratio ${(baselineMs / Math.max(deliveryMs, 1)).toFixed(2)}`);
  console.log(`(scheduling them with POST /scheduled_messages, ${SENDERS} clients: ${scheduleMs.toFixed(0)} ms)`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
