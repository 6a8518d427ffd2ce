import { sql, type Kysely, type Migration } from "kysely";
import { dialectOf, withId } from "./helpers.js";

/**
 * Messages scheduled to be sent later (Zulip's ScheduledMessage with delivery_type SEND_LATER).
 * A delivered row stays, marked, as Zulip keeps it; a failed one stays visible to its sender.
 */
export const m011ScheduledMessages: Migration = {
  async up(db: Kysely<unknown>) {
    const d = await dialectOf(db);
    await withId(db.schema.createTable("scheduled_message"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realm.id"))
      .addColumn("sender_id", "integer", (c) => c.notNull().references("user.id"))
      .addColumn("stream_id", "integer", (c) => c.references("stream.id"))
      .addColumn("topic", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("dm_user_ids", "text", (c) => c.notNull().defaultTo("[]"))
      .addColumn("content", "text", (c) => c.notNull())
      .addColumn("rendered_content", "text", (c) => c.notNull())
      .addColumn("client", "text", (c) => c.notNull())
      .addColumn("scheduled_timestamp", "bigint", (c) => c.notNull())
      .addColumn("read_by_sender", "integer", (c) => c.notNull())
      .addColumn("delivered", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("delivered_message_id", "integer")
      .addColumn("failed", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("failure_message", "text")
      .execute();
    // What the scheduler looks for, and what a user's list shows (failed ones included).
    await db.schema
      .createIndex("scheduled_message_pending")
      .on("scheduled_message")
      .columns(["scheduled_timestamp", "id"])
      .where(sql.ref("delivered"), "=", 0)
      .where(sql.ref("failed"), "=", 0)
      .execute();
    await db.schema
      .createIndex("scheduled_message_sender")
      .on("scheduled_message")
      .columns(["sender_id", "scheduled_timestamp", "id"])
      .where(sql.ref("delivered"), "=", 0)
      .execute();
  },
};
