import type { Kysely, Migration } from "kysely";
import { dialectOf, withId } from "./helpers.js";

/**
 * Outgoing mail waiting to be sent or tried again (status 0), or given up on after a day of
 * tries (status 2). A sent mail's row is deleted.
 */
export const m022OutgoingMail: Migration = {
  async up(db: Kysely<unknown>) {
    const d = await dialectOf(db);
    await withId(db.schema.createTable("outgoing_mail"), d)
      .addColumn("to_address", "text", (c) => c.notNull())
      .addColumn("subject", "text", (c) => c.notNull())
      .addColumn("body", "text", (c) => c.notNull())
      .addColumn("realm_id", "integer", (c) => c.references("realm.id"))
      .addColumn("sender_id", "integer", (c) => c.references("user.id"))
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("next_attempt_at", "bigint", (c) => c.notNull())
      .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("last_error", "text")
      .addColumn("status", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex("outgoing_mail_due").on("outgoing_mail").columns(["status", "next_attempt_at"]).execute();
  },
};
