import type { Kysely, Migration } from "kysely";

/**
 * Event queues that outlive the process: `event_log` holds every commit's events once (with the
 * description of their recipients), numbered in the order the queues received them; `event_queue`
 * holds each queue as it was at a log position. A queue is rebuilt by replaying the log past its
 * position. Entries every queue has passed are deleted.
 */
export const m028EventLog: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("event_log")
      .addColumn("seq", "bigint", (c) => c.primaryKey())
      .addColumn("entry", "text", (c) => c.notNull())
      .execute();
    await db.schema
      .createTable("event_queue")
      .addColumn("id", "text", (c) => c.primaryKey())
      .addColumn("pos", "bigint", (c) => c.notNull())
      .addColumn("state", "text", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("event_queue_pos").on("event_queue").column("pos").execute();
  },
};
