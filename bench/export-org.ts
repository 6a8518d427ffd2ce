/**
 * The organisation bench/export.ts exports and bench/import-zulip.ts exports then imports: its
 * users, channels and messages inserted directly with prepared statements (a helper, not a bench).
 */
import path from "node:path";
import pino from "pino";
import { createRealm } from "../src/actions/realms.js";
import { createContext } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import SQLite from "../src/db/sqlite-binding.js";
import { registerSearchText } from "../src/db/search-text.js";
import { newStreamEmailToken, randomToken } from "../src/base/secrets.js";

/** The organisation's size: members per channel are min(10, users), a reaction on every 5th message. */
export interface OrgSize {
  messages: number;
  channels: number;
  users: number;
}

/** A fresh data folder with the organisation, its rows inserted directly with prepared statements. */
export async function generate(dataDir: string, { messages: MESSAGES, channels: CHANNELS, users: USERS }: OrgSize): Promise<string> {
  const MEMBERS = Math.min(10, USERS);
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
