import { sql } from "kysely";
import type { Db } from "../index.js";
import { runInChunks } from "../chunks.js";

/** Whom a user has muted, in muting order, with the time of muting (ms). */
export function mutedUsersOf(db: Db, userId: number): Promise<{ muted_user_id: number; date_muted: number }[]> {
  return db
    .selectFrom("muted_user")
    .select(["muted_user_id", "date_muted"])
    .where("user_id", "=", userId)
    .orderBy("date_muted")
    .orderBy("muted_user_id")
    .execute();
}

/** Whether `userId` has muted `mutedUserId`. */
export async function isMuted(db: Db, userId: number, mutedUserId: number): Promise<boolean> {
  const row = await db
    .selectFrom("muted_user")
    .select("user_id")
    .where("user_id", "=", userId)
    .where("muted_user_id", "=", mutedUserId)
    .executeTakeFirst();
  return row !== undefined;
}

/** Records a mute. */
export async function insertMute(db: Db, userId: number, mutedUserId: number, now: number): Promise<void> {
  await db.insertInto("muted_user").values({ user_id: userId, muted_user_id: mutedUserId, date_muted: now }).execute();
}

/** Removes a mute. */
export async function deleteMute(db: Db, userId: number, mutedUserId: number): Promise<void> {
  await db.deleteFrom("muted_user").where("user_id", "=", userId).where("muted_user_id", "=", mutedUserId).execute();
}

/** Ids of unread messages sent by `senderId` that `userId` received; flags bit 1 is "read". */
export async function unreadFromSender(db: Db, userId: number, senderId: number): Promise<number[]> {
  const rows = await db
    .selectFrom("user_message")
    .innerJoin("message", "message.id", "user_message.message_id")
    .select("user_message.message_id")
    .where("user_message.user_id", "=", userId)
    .where("message.sender_id", "=", senderId)
    .where(sql<number>`${sql.ref("user_message.flags")} & 1`, "=", 0)
    .orderBy("user_message.message_id")
    .execute();
  return rows.map((r) => r.message_id);
}

/** Sets the read flag on messages of a user. */
export async function markRead(db: Db, userId: number, messageIds: readonly number[]): Promise<void> {
  await runInChunks(messageIds, (slice) =>
    db
      .updateTable("user_message")
      .set((eb) => ({ flags: eb("flags", "|", 1) }))
      .where("user_id", "=", userId)
      .where("message_id", "in", slice)
      .execute(),
  );
}
