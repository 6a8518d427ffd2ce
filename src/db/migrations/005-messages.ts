import { sql, type Kysely, type Migration } from "kysely";
import { dialectOf, withId } from "./helpers.js";

/**
 * Message recipients (Zulip's Recipient: one per channel, per user for 1:1 messages, per group
 * conversation) and the indexes the narrow queries rely on.
 */
export const m005Messages: Migration = {
  async up(db: Kysely<unknown>) {
    const d = await dialectOf(db);
    await withId(db.schema.createTable("recipient"), d)
      // 1 = a user (personal), 2 = a channel, 3 = a group direct-message conversation.
      .addColumn("type", "integer", (c) => c.notNull())
      .addColumn("type_id", "integer", (c) => c.notNull())
      // Group conversations: the dm_key of message; "" otherwise.
      .addColumn("dm_key", "text", (c) => c.notNull().defaultTo(""))
      .execute();
    await db.schema.createIndex("recipient_type").on("recipient").columns(["type", "type_id", "dm_key"]).unique().execute();
    await db.schema.alterTable("message").addColumn("recipient_id", "integer", (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable("message").addColumn("last_moved_time", "bigint").execute();
    // Topics compare case-insensitively, so the channel+topic narrow needs the folded key indexed.
    await sql`CREATE INDEX message_stream_topic_key ON message (stream_id, lower(topic), id)`.execute(db);
    // Partial indexes for the per-user flag narrows (is:unread, is:starred, is:mentioned).
    await sql`CREATE INDEX user_message_unread ON user_message (user_id, message_id) WHERE (flags & 1) = 0`.execute(db);
    await sql`CREATE INDEX user_message_starred ON user_message (user_id, message_id) WHERE (flags & 2) <> 0`.execute(db);
    await sql`CREATE INDEX user_message_mentioned ON user_message (user_id, message_id) WHERE (flags & 120) <> 0`.execute(db);
  },
};
