import type { Kysely, Migration } from "kysely";
import { dialectOf, withId } from "./helpers.js";

/**
 * Realm configuration Zulip keeps beside the realm: linkifiers (applied in their `ordering`),
 * code playgrounds, and named groups of channels offered to new users (default channel groups).
 */
export const m010RealmConfig: Migration = {
  async up(db: Kysely<unknown>) {
    const d = await dialectOf(db);
    await withId(db.schema.createTable("realm_filter"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realm.id"))
      .addColumn("pattern", "text", (c) => c.notNull())
      .addColumn("url_template", "text", (c) => c.notNull())
      .addColumn("ordering", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex("realm_filter_realm_pattern").on("realm_filter").columns(["realm_id", "pattern"]).unique().execute();
    await withId(db.schema.createTable("realm_playground"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realm.id"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("pygments_language", "text", (c) => c.notNull())
      .addColumn("url_template", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex("realm_playground_realm_language_name")
      .on("realm_playground")
      .columns(["realm_id", "pygments_language", "name"])
      .unique()
      .execute();
    await withId(db.schema.createTable("default_stream_group"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realm.id"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
      .execute();
    await db.schema.createIndex("default_stream_group_realm_name").on("default_stream_group").columns(["realm_id", "name"]).unique().execute();
    await db.schema
      .createTable("default_stream_group_stream")
      .addColumn("group_id", "integer", (c) => c.notNull().references("default_stream_group.id").onDelete("cascade"))
      .addColumn("stream_id", "integer", (c) => c.notNull().references("stream.id"))
      .addPrimaryKeyConstraint("default_stream_group_stream_pk", ["group_id", "stream_id"])
      .execute();
    await db.schema.createIndex("default_stream_group_stream_stream").on("default_stream_group_stream").columns(["stream_id"]).execute();
  },
};
