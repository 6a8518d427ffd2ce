import type { Kysely, Migration } from "kysely";
import { dialectOf, withId } from "./helpers.js";

/**
 * Uploaded files (Zulip's Attachment), the messages that link them, and the image facts and
 * generated thumbnails of those that are images (Zulip's ImageAttachment).
 */
export const m016Attachments: Migration = {
  async up(db: Kysely<unknown>) {
    const d = await dialectOf(db);
    await withId(db.schema.createTable("attachment"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realm.id"))
      .addColumn("owner_id", "integer", (c) => c.notNull().references("user.id"))
      .addColumn("path_id", "text", (c) => c.notNull().unique())
      .addColumn("file_name", "text", (c) => c.notNull())
      .addColumn("size", "bigint", (c) => c.notNull())
      .addColumn("content_type", "text", (c) => c.notNull())
      .addColumn("create_time", "bigint", (c) => c.notNull())
      .addColumn("is_realm_public", "integer")
      .addColumn("is_web_public", "integer")
      .execute();
    await db.schema.createIndex("attachment_owner").on("attachment").columns(["owner_id"]).execute();
    await db.schema.createIndex("attachment_realm").on("attachment").columns(["realm_id"]).execute();
    await db.schema
      .createTable("attachment_message")
      .addColumn("attachment_id", "integer", (c) => c.notNull().references("attachment.id"))
      .addColumn("message_id", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("attachment_message_pk", ["attachment_id", "message_id"])
      .execute();
    await db.schema.createIndex("attachment_message_message").on("attachment_message").columns(["message_id"]).execute();
    await withId(db.schema.createTable("image_attachment"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realm.id"))
      .addColumn("path_id", "text", (c) => c.notNull().unique())
      .addColumn("original_width_px", "integer", (c) => c.notNull())
      .addColumn("original_height_px", "integer", (c) => c.notNull())
      .addColumn("frames", "integer", (c) => c.notNull())
      .addColumn("thumbnail_metadata", "text", (c) => c.notNull().defaultTo("[]"))
      .execute();
  },
};
