import type { Kysely, Migration } from "kysely";
import { dialectOf, withId } from "./helpers.js";

/**
 * Signups through a reusable link waiting for their address to be confirmed (Zulip's
 * PreregistrationUser with a multiuse_invite): what the link granted is copied when the address is
 * submitted. Status 0 pending, 1 used.
 */
export const m009SignupConfirmations: Migration = {
  async up(db: Kysely<unknown>) {
    const d = await dialectOf(db);
    await withId(db.schema.createTable("signup_confirmation"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realm.id"))
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("multiuse_invite_id", "integer", (c) => c.notNull().references("multiuse_invite.id"))
      .addColumn("invited_as", "integer", (c) => c.notNull())
      .addColumn("stream_ids", "text", (c) => c.notNull().defaultTo("[]"))
      .addColumn("include_realm_default_subscriptions", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("key", "text", (c) => c.notNull().unique())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("expiry_date", "bigint", (c) => c.notNull())
      .addColumn("status", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("created_user_id", "integer", (c) => c.references("user.id"))
      .execute();
  },
};
