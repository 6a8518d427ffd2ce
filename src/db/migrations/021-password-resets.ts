import type { Kysely, Migration } from "kysely";
import { dialectOf, withId } from "./helpers.js";

/**
 * One-time password-reset links. Only a digest of the link's token is kept (sha256, hex), so the
 * table alone opens no account. Status 0 pending, 1 used, 2 revoked (as invitations).
 */
export const m021PasswordResets: Migration = {
  async up(db: Kysely<unknown>) {
    const d = await dialectOf(db);
    await withId(db.schema.createTable("password_reset"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realm.id"))
      .addColumn("user_id", "integer", (c) => c.notNull().references("user.id"))
      .addColumn("token_digest", "text", (c) => c.notNull().unique())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("expiry_date", "bigint", (c) => c.notNull())
      .addColumn("status", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex("password_reset_user").on("password_reset").column("user_id").execute();
  },
};
