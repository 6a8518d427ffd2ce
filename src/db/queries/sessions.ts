import type { Insertable, Selectable } from "kysely";
import type { Db } from "../index.js";
import type { SessionTable } from "../schema.js";

/** A browser session as stored. */
export type SessionRow = Selectable<SessionTable>;

/** The session whose cookie has this digest, expired or not. */
export function sessionById(db: Db, id: string): Promise<SessionRow | undefined> {
  return db.selectFrom("session").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Records a new session. */
export async function insertSession(db: Db, row: Insertable<SessionTable>): Promise<void> {
  await db.insertInto("session").values(row).execute();
}

/** Ends one session. */
export async function deleteSession(db: Db, id: string): Promise<void> {
  await db.deleteFrom("session").where("id", "=", id).execute();
}

/** Ends every session of a user, but `keep` (the browser that changed the password). */
export async function deleteSessionsOfUser(db: Db, userId: number, keep?: string): Promise<void> {
  let query = db.deleteFrom("session").where("user_id", "=", userId);
  if (keep !== undefined) query = query.where("id", "!=", keep);
  await query.execute();
}

/** Moves a session's expiry (a browser that keeps coming back stays signed in). */
export async function extendSession(db: Db, id: string, expiresAt: number): Promise<void> {
  await db.updateTable("session").set({ expires_at: expiresAt }).where("id", "=", id).execute();
}

/** Removes sessions that expired before `now`. */
export async function deleteExpiredSessions(db: Db, now: number): Promise<void> {
  await db.deleteFrom("session").where("expires_at", "<=", now).execute();
}
