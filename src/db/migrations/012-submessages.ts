import type { Kysely, Migration } from "kysely";
import { dialectOf, withId } from "./helpers.js";

/**
 * Submessages (Zulip's SubMessage): the widget a /poll or /todo message carries, and the votes,
 * options and tasks its readers add to it, in the order they were sent.
 */
export const m012Submessages: Migration = {
  async up(db: Kysely<unknown>) {
    const d = await dialectOf(db);
    await withId(db.schema.createTable("submessage"), d)
      .addColumn("message_id", "integer", (c) => c.notNull().references("message.id").onDelete("cascade"))
      .addColumn("sender_id", "integer", (c) => c.notNull().references("user.id"))
      .addColumn("msg_type", "text", (c) => c.notNull())
      .addColumn("content", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("submessage_message").on("submessage").columns(["message_id", "id"]).execute();
  },
};
