import type { Kysely, Migration } from "kysely";
import { dialectOf, withId } from "./helpers.js";

/**
 * Per-user state: personal settings (JSON on the user) and the realm's defaults for new users,
 * presence, status, drafts, alert words and push device tokens.
 */
export const m003UserState: Migration = {
  async up(db: Kysely<unknown>) {
    const d = await dialectOf(db);
    // The whole settings object of each user, written at creation from the realm's defaults.
    await db.schema.alterTable("user").addColumn("settings", "text", (c) => c.notNull().defaultTo("{}")).execute();
    await db.schema
      .createTable("realm_user_default")
      .addColumn("realm_id", "integer", (c) => c.primaryKey().references("realm.id"))
      // Only the defaults an administrator changed; the rest come from the settings catalogue.
      .addColumn("settings", "text", (c) => c.notNull().defaultTo("{}"))
      .execute();
    await db.schema
      .createTable("presence")
      .addColumn("user_id", "integer", (c) => c.primaryKey().references("user.id"))
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realm.id"))
      .addColumn("last_active_time", "bigint")
      .addColumn("last_connected_time", "bigint")
      .addColumn("last_update_id", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex("presence_realm").on("presence").columns(["realm_id", "last_update_id"]).execute();
    await db.schema
      .createTable("user_status")
      .addColumn("user_id", "integer", (c) => c.primaryKey().references("user.id"))
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realm.id"))
      .addColumn("status_text", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("emoji_name", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("emoji_code", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("reaction_type", "text", (c) => c.notNull().defaultTo("unicode_emoji"))
      .addColumn("timestamp", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("user_status_realm").on("user_status").columns(["realm_id"]).execute();
    await withId(db.schema.createTable("draft"), d)
      .addColumn("user_id", "integer", (c) => c.notNull().references("user.id"))
      // "" (no recipient), "stream" or "private".
      .addColumn("type", "text", (c) => c.notNull())
      // JSON list of channel or user ids.
      .addColumn("to_ids", "text", (c) => c.notNull().defaultTo("[]"))
      .addColumn("topic", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("content", "text", (c) => c.notNull())
      .addColumn("last_edit_time", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("draft_user").on("draft").columns(["user_id", "last_edit_time"]).execute();
    await withId(db.schema.createTable("alert_word"), d)
      .addColumn("user_id", "integer", (c) => c.notNull().references("user.id"))
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realm.id"))
      .addColumn("word", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("alert_word_user").on("alert_word").columns(["user_id"]).execute();
    await withId(db.schema.createTable("push_device_token"), d)
      .addColumn("user_id", "integer", (c) => c.notNull().references("user.id"))
      // 1 = APNs, 2 = FCM/GCM, as Zulip numbers them.
      .addColumn("kind", "integer", (c) => c.notNull())
      .addColumn("token", "text", (c) => c.notNull())
      .addColumn("ios_app_id", "text")
      .addColumn("last_updated", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("push_device_token_unique").on("push_device_token").columns(["user_id", "kind", "token"]).unique().execute();
  },
};
