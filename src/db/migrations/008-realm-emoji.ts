import type { Kysely, Migration } from "kysely";
import { dialectOf, withId } from "./helpers.js";

/** Custom (realm) emoji, and pending email-address changes awaiting their confirmation link. */
export const m008RealmEmoji: Migration = {
  async up(db: Kysely<unknown>) {
    const d = await dialectOf(db);
    await withId(db.schema.createTable("realm_emoji"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realm.id"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("author_id", "integer", (c) => c.references("user.id"))
      .addColumn("file_name", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("is_animated", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("deactivated", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex("realm_emoji_realm_name").on("realm_emoji").columns(["realm_id", "name"]).execute();
    await withId(db.schema.createTable("email_change"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realm.id"))
      .addColumn("user_id", "integer", (c) => c.notNull().references("user.id"))
      .addColumn("old_email", "text", (c) => c.notNull())
      .addColumn("new_email", "text", (c) => c.notNull())
      .addColumn("key", "text", (c) => c.notNull().unique())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("expiry_date", "bigint", (c) => c.notNull())
      .addColumn("status", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex("email_change_user").on("email_change").columns(["user_id"]).execute();
  },
};
