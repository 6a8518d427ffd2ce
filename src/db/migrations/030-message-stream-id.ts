import type { Kysely, Migration } from "kysely";

/**
 * A channel's messages in id order. A channel narrow reads its page by id from an anchor; without
 * this index SQLite took the (stream, topic) index, read every message of the channel and sorted
 * them: 20 ms for a page of a 10,000-message channel, against 5 ms for a topic's page.
 */
export const m030MessageStreamId: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex("message_stream_id").on("message").columns(["stream_id", "id"]).execute();
  },
};
