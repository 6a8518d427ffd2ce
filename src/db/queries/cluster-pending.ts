import type { Db } from "../index.js";

/** Records a commit of `processId` at `seq` (inside the commit's own transaction). */
export async function insertPending(db: Db, processId: string, seq: number, created: number, commitText: string): Promise<void> {
  await db.insertInto("cluster_pending").values({ process_id: processId, seq, created, commit_text: commitText }).execute();
}

/** Forgets the commits `seqs` of `processId` (one statement). */
export async function deletePending(db: Db, processId: string, seqs: readonly number[]): Promise<void> {
  if (seqs.length === 0) return;
  await db.deleteFrom("cluster_pending").where("process_id", "=", processId).where("seq", "in", [...seqs]).execute();
}

/** The processes other than `except` with a commit recorded before `before` (ms), each with its oldest commit's time. */
export async function processesPendingBefore(db: Db, except: string, before: number): Promise<{ processId: string; oldest: number }[]> {
  const rows = await db
    .selectFrom("cluster_pending")
    .select((eb) => ["process_id", eb.fn.min("created").as("oldest")])
    .where("process_id", "<>", except)
    .groupBy("process_id")
    .having((eb) => eb.fn.min("created"), "<", before)
    .execute();
  return rows.map((row) => ({ processId: row.process_id, oldest: Number(row.oldest) }));
}

/** Up to `limit` commits of `processId` after `seq`, oldest first. */
export async function pendingAfter(db: Db, processId: string, seq: number, limit: number): Promise<{ seq: number; commitText: string }[]> {
  const rows = await db.selectFrom("cluster_pending").select(["seq", "commit_text"]).where("process_id", "=", processId).where("seq", ">", seq).orderBy("seq").limit(limit).execute();
  return rows.map((row) => ({ seq: Number(row.seq), commitText: row.commit_text }));
}
