import type { Kysely, Migration } from "kysely";
import { dialectOf, withId } from "./helpers.js";

/** Organisations, users and custom profile fields. */
export const m001Foundation: Migration = {
  async up(db: Kysely<unknown>) {
    const d = await dialectOf(db);
    await withId(db.schema.createTable("realm"), d)
      .addColumn("string_id", "text", (c) => c.notNull().unique())
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("date_created", "bigint", (c) => c.notNull())
      .addColumn("deactivated", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("props", "text", (c) => c.notNull().defaultTo("{}"))
      .execute();
    await withId(db.schema.createTable("user"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realm.id"))
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("delivery_email", "text", (c) => c.notNull())
      .addColumn("full_name", "text", (c) => c.notNull())
      .addColumn("password_hash", "text")
      .addColumn("api_key", "text", (c) => c.notNull().unique())
      .addColumn("role", "integer", (c) => c.notNull())
      .addColumn("is_active", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("is_bot", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("bot_type", "integer")
      .addColumn("bot_owner_id", "integer", (c) => c.references("user.id"))
      .addColumn("is_billing_admin", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("date_joined", "bigint", (c) => c.notNull())
      .addColumn("timezone", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("avatar_source", "text", (c) => c.notNull().defaultTo("G"))
      .addColumn("avatar_version", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("email_address_visibility", "integer", (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.createIndex("user_realm_delivery_email").on("user").columns(["realm_id", "delivery_email"]).execute();
    await db.schema.createIndex("user_realm_email").on("user").columns(["realm_id", "email"]).execute();
    await withId(db.schema.createTable("custom_profile_field"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realm.id"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("hint", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("field_type", "integer", (c) => c.notNull())
      .addColumn("field_data", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("order", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("display_in_profile_summary", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("required", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema
      .createTable("custom_profile_field_value")
      .addColumn("user_id", "integer", (c) => c.notNull().references("user.id"))
      .addColumn("field_id", "integer", (c) => c.notNull().references("custom_profile_field.id").onDelete("cascade"))
      .addColumn("value", "text", (c) => c.notNull())
      .addColumn("rendered_value", "text")
      .addPrimaryKeyConstraint("custom_profile_field_value_pk", ["user_id", "field_id"])
      .execute();
  },
};
