import type { Kysely, Migration } from "kysely";

/**
 * The images of other sites each message shows through /thumbnail, by a digest of the URL
 * (sha256, hex): the proxy fetches a URL only for a reader of a message that shows it.
 */
export const m023MessageImageUrls: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("message_image_url")
      .addColumn("url_digest", "text", (c) => c.notNull())
      .addColumn("message_id", "integer", (c) => c.notNull())
      .addPrimaryKeyConstraint("message_image_url_pk", ["url_digest", "message_id"])
      .execute();
    await db.schema.createIndex("message_image_url_message").on("message_image_url").column("message_id").execute();
  },
};
