import type { Kysely, Migration } from "kysely";

/**
 * Cluster mode: a commit's events and cache changes, written in its own transaction by the process
 * that made it, until that process has put them on the shared stream. A process killed between its
 * commit and that append leaves its rows here, and another process appends them for it
 * (cluster/pending.ts).
 */
export const m029ClusterPending: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable("cluster_pending")
      .addColumn("process_id", "text", (c) => c.notNull())
      .addColumn("seq", "bigint", (c) => c.notNull())
      .addColumn("created", "bigint", (c) => c.notNull())
      .addColumn("commit_text", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("cluster_pending_pkey", ["process_id", "seq"])
      .execute();
  },
};
