import type { Insertable, Selectable } from "kysely";
import type { Db } from "../index.js";
import type { OutgoingMailTable } from "../schema.js";

/** An outgoing mail as stored. */
export type OutgoingMailRow = Selectable<OutgoingMailTable>;

/** Mail status: waiting to be sent (or tried again), or given up on. */
export const MailStatus = { WAITING: 0, FAILED: 2 } as const;

/** Queues a mail; returns its id. */
export async function insertMail(db: Db, row: Insertable<OutgoingMailTable>): Promise<number> {
  const inserted = await db.insertInto("outgoing_mail").values(row).returning("id").executeTakeFirstOrThrow();
  return inserted.id;
}

/** Ids of waiting mail due by `now`, oldest first. */
export async function dueMailIds(db: Db, now: number, limit: number): Promise<number[]> {
  const rows = await db.selectFrom("outgoing_mail").select("id").where("status", "=", MailStatus.WAITING).where("next_attempt_at", "<=", now).orderBy("next_attempt_at").orderBy("id").limit(limit).execute();
  return rows.map((row) => row.id);
}

/** When the earliest waiting mail is due; undefined when none waits. */
export async function nextMailTime(db: Db): Promise<number | undefined> {
  const row = await db.selectFrom("outgoing_mail").select("next_attempt_at").where("status", "=", MailStatus.WAITING).orderBy("next_attempt_at").limit(1).executeTakeFirst();
  return row === undefined ? undefined : Number(row.next_attempt_at);
}

/**
 * Takes a due mail for one attempt: its next attempt moves to `until` and its count of attempts
 * goes up, so no other process tries it meanwhile. The row, or undefined when another took it.
 */
export async function claimMail(db: Db, id: number, now: number, until: number): Promise<OutgoingMailRow | undefined> {
  const result = await db
    .updateTable("outgoing_mail")
    .set((eb) => ({ next_attempt_at: until, attempts: eb("attempts", "+", 1) }))
    .where("id", "=", id)
    .where("status", "=", MailStatus.WAITING)
    .where("next_attempt_at", "<=", now)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  return db.selectFrom("outgoing_mail").selectAll().where("id", "=", id).executeTakeFirst();
}

/** A mail was sent: its row goes. */
export async function deleteMail(db: Db, id: number): Promise<void> {
  await db.deleteFrom("outgoing_mail").where("id", "=", id).execute();
}

/** An attempt failed: the mail waits until `next`. */
export async function retryMailAt(db: Db, id: number, next: number, error: string): Promise<void> {
  await db.updateTable("outgoing_mail").set({ next_attempt_at: next, last_error: error }).where("id", "=", id).execute();
}

/** The last attempt failed: the mail is given up on. */
export async function markMailFailed(db: Db, id: number, error: string): Promise<void> {
  await db.updateTable("outgoing_mail").set({ status: MailStatus.FAILED, last_error: error }).where("id", "=", id).execute();
}
