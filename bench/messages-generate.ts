/**
 * Builds a SQLite database with 1,000,000 messages for bench/messages-read.ts: one organisation,
 * 20 members, 10 public channels of 100 topics each, every message received (and unread) by
 * hamlet. Rows go in through better-sqlite3 prepared statements, 10,000 per transaction.
 *
 *   npx vite-node bench/messages-generate.ts [file] [count]
 *
 * ROOKERY_BENCH_SHORT=1: 20,000 messages, in a file of its own (BENCH_FILE in short.ts).
 */
import fs from "node:fs";
import path from "node:path";
import SQLite from "../src/db/sqlite-binding.js";
import pino from "pino";
import { createRealm } from "../src/actions/realms.js";
import { checkCreateUser } from "../src/actions/users.js";
import { createContext } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { registerSearchText } from "../src/db/search-text.js";
import { Role } from "../src/lib/users/roles.js";
import { newStreamEmailToken } from "../src/base/secrets.js";
import { MESSAGES_FILE, sized } from "./short.js";

const FILE = process.argv[2] ?? MESSAGES_FILE;
const COUNT = sized(process.argv[3], 1_000_000, 20_000);
const WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima", "mike", "november", "oscar", "papa"];

async function main(): Promise<void> {
  for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(FILE + suffix, { force: true });
  const config = { ...loadConfig({}), dataDir: path.dirname(FILE), databaseUrl: `sqlite:${FILE}`, logLevel: "warn" };
  const ctx = await createContext(config, { logger: pino({ level: "warn" }) });
  const { owner } = await createRealm(ctx, { name: "Bench", stringId: "", ownerEmail: "desdemona@zulip.com", ownerName: "Desdemona", password: "bench-password" });
  const users = [owner];
  for (let i = 0; i < 19; i++) {
    const name = i === 0 ? "hamlet" : `user${i}`;
    users.push(await checkCreateUser(ctx, { realmId: owner.realm_id, email: `${name}@zulip.com`, fullName: name, password: i === 0 ? "bench-password" : null, role: Role.MEMBER }));
  }
  await ctx.store.close();

  const db = new SQLite(FILE);
  // The message_search triggers (migration 007) index every row inserted here.
  registerSearchText(db);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = OFF");
  const now = Date.now();
  const insertStream = db.prepare("INSERT INTO stream (realm_id, name, date_created, creator_id, email_token) VALUES (?, ?, ?, ?, ?)");
  const insertRecipient = db.prepare("INSERT INTO recipient (type, type_id, dm_key) VALUES (2, ?, '')");
  const insertSub = db.prepare("INSERT INTO subscription (user_id, stream_id, color) VALUES (?, ?, '#76ce90')");
  const streams: { id: number; recipient: number }[] = [];
  db.transaction(() => {
    for (let s = 0; s < 10; s++) {
      const id = Number(insertStream.run(owner.realm_id, `channel${s}`, now, owner.id, newStreamEmailToken()).lastInsertRowid);
      streams.push({ id, recipient: Number(insertRecipient.run(id).lastInsertRowid) });
      for (const u of users) insertSub.run(u.id, id);
    }
  })();
  const hamlet = users[1];
  if (!hamlet) throw new Error("no hamlet");
  const insertMessage = db.prepare(
    "INSERT INTO message (realm_id, sender_id, stream_id, topic, dm_key, content, rendered_content, date_sent, client, recipient_id) VALUES (?, ?, ?, ?, '', ?, ?, ?, 'bench', ?)",
  );
  const insertUm = db.prepare("INSERT INTO user_message (user_id, message_id, flags) VALUES (?, ?, 0)");
  // mulberry32: small, seeded, and without the short cycles of a plain LCG's low bits.
  let seed = 12345;
  const rand = (n: number) => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) % n;
  };
  const t0 = performance.now();
  for (let done = 0; done < COUNT; done += 10_000) {
    db.transaction(() => {
      for (let i = done; i < Math.min(done + 10_000, COUNT); i++) {
        const stream = streams[rand(streams.length)] ?? streams[0];
        if (!stream) return;
        const words = Array.from({ length: 6 + rand(10) }, () => WORDS[rand(WORDS.length)]).join(" ");
        const content = i % 1000 === 0 ? `${words} zanzibar` : words;
        const sender = users[rand(users.length)] ?? owner;
        const id = Number(insertMessage.run(owner.realm_id, sender.id, stream.id, `topic ${rand(100)}`, content, `<p>${content}</p>`, now - (COUNT - i) * 1000, stream.recipient).lastInsertRowid);
        insertUm.run(hamlet.id, id);
      }
    })();
  }
  db.pragma("wal_checkpoint(TRUNCATE)");
  db.exec("ANALYZE");
  db.close();
  console.log(`${COUNT} messages in ${((performance.now() - t0) / 1000).toFixed(1)} s → ${FILE}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
