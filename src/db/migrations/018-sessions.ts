import type { Kysely, Migration } from "kysely";

/**
 * Browser sessions (Zulip's Django sessions): one row per signed-in browser, found by the SHA-256
 * digest of its cookie (the cookie itself is never stored), with the CSRF token the page sends back.
 */
export const m018Sessions: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("session")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("user_id", "integer", (c) => c.notNull().references("user.id"))
      .addColumn("csrf_token", "text", (c) => c.notNull())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("expires_at", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("session_user").on("session").columns(["user_id"]).execute();
  },
};
