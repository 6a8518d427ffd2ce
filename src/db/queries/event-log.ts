import { sql } from "kysely";
import type { Db } from "../index.js";

/** Appends one log entry at `seq` (JSON text). */
export async function insertLogEntry(db: Db, seq: number, entry: string): Promise<void> {
  await db.insertInto("event_log").values({ seq, entry }).execute();
}

/** Up to `limit` log entries after `seq`, oldest first. */
export async function logEntriesAfter(db: Db, seq: number, limit: number): Promise<{ seq: number; entry: string }[]> {
  const rows = await db.selectFrom("event_log").select(["seq", "entry"]).where("seq", ">", seq).orderBy("seq").limit(limit).execute();
  return rows.map((row) => ({ seq: Number(row.seq), entry: row.entry }));
}

/** The highest position the log or a queue has reached (0 when both are empty). */
export async function highestLogPosition(db: Db): Promise<number> {
  const log = await db.selectFrom("event_log").select((eb) => eb.fn.max("seq").as("top")).executeTakeFirst();
  const queues = await db.selectFrom("event_queue").select((eb) => eb.fn.max("pos").as("top")).executeTakeFirst();
  return Math.max(Number(log?.top ?? 0), Number(queues?.top ?? 0));
}

/** Every saved queue, with the log position its state is at. */
export async function savedQueues(db: Db): Promise<{ id: string; pos: number; state: string }[]> {
  const rows = await db.selectFrom("event_queue").select(["id", "pos", "state"]).orderBy("pos").execute();
  return rows.map((row) => ({ id: row.id, pos: Number(row.pos), state: row.state }));
}

/** Records a new queue; a row already there (written by a checkpoint) is newer and stays. */
export async function insertQueue(db: Db, id: string, pos: number, state: string): Promise<void> {
  await db.insertInto("event_queue").values({ id, pos, state }).onConflict((oc) => oc.column("id").doNothing()).execute();
}

/** Writes queues' states at their positions (one statement). */
export async function upsertQueues(db: Db, rows: readonly { id: string; pos: number; state: string }[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto("event_queue")
    .values([...rows])
    .onConflict((oc) => oc.column("id").doUpdateSet({ pos: sql`excluded.pos`, state: sql`excluded.state` }))
    .execute();
}

/** Forgets a queue. */
export async function deleteQueue(db: Db, id: string): Promise<void> {
  await db.deleteFrom("event_queue").where("id", "=", id).execute();
}

/** Moves queues whose state has not changed since their row was written to position `pos` (one statement). */
export async function advanceQueues(db: Db, ids: readonly string[], pos: number): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable("event_queue").set({ pos }).where("id", "in", [...ids]).execute();
}

/**
 * After a checkpoint wrote or advanced every live queue to `pos`: forgets the queues it did not
 * (gone since their last row), and answers the highest log position no saved queue still needs.
 */
export async function forgetQueuesBefore(db: Db, pos: number): Promise<number> {
  await db.deleteFrom("event_queue").where("pos", "<", pos).execute();
  const oldest = await db.selectFrom("event_queue").select((eb) => eb.fn.min("pos").as("low")).executeTakeFirst();
  return oldest?.low === null || oldest?.low === undefined ? pos : Math.min(pos, Number(oldest.low));
}

/** The lowest position in the log, or undefined when it is empty. */
export async function oldestLogEntry(db: Db): Promise<number | undefined> {
  const row = await db.selectFrom("event_log").select((eb) => eb.fn.min("seq").as("low")).executeTakeFirst();
  return row?.low === null || row?.low === undefined ? undefined : Number(row.low);
}

/** Deletes the log entries up to `seq`. */
export async function deleteLogThrough(db: Db, seq: number): Promise<void> {
  await db.deleteFrom("event_log").where("seq", "<=", seq).execute();
}
