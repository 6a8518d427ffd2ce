import type { Insertable, Selectable, Updateable } from "kysely";
import type { Db } from "../index.js";
import type { ScheduledMessageTable } from "../schema.js";

/** A scheduled message row as stored. */
export type ScheduledMessageRow = Selectable<ScheduledMessageTable>;

/** A user's scheduled messages not yet sent (failed ones included), soonest first. */
export function pendingScheduledMessagesOf(db: Db, userId: number): Promise<ScheduledMessageRow[]> {
  return db
    .selectFrom("scheduled_message")
    .selectAll()
    .where("sender_id", "=", userId)
    .where("delivered", "=", 0)
    .orderBy("scheduled_timestamp")
    .orderBy("id")
    .execute();
}

/** One scheduled message of a user, delivered or not. */
export function scheduledMessageOf(db: Db, userId: number, id: number): Promise<ScheduledMessageRow | undefined> {
  return db.selectFrom("scheduled_message").selectAll().where("sender_id", "=", userId).where("id", "=", id).executeTakeFirst();
}

/** One scheduled message, whoever's it is. */
export function scheduledMessageById(db: Db, id: number): Promise<ScheduledMessageRow | undefined> {
  return db.selectFrom("scheduled_message").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Inserts a scheduled message and returns it with its id. */
export async function insertScheduledMessage(db: Db, row: Insertable<ScheduledMessageTable>): Promise<ScheduledMessageRow> {
  return db.insertInto("scheduled_message").values(row).returningAll().executeTakeFirstOrThrow();
}

/** Changes a scheduled message and returns it as it now is. */
export async function updateScheduledMessage(db: Db, id: number, changes: Updateable<ScheduledMessageTable>): Promise<ScheduledMessageRow> {
  return db.updateTable("scheduled_message").set(changes).where("id", "=", id).returningAll().executeTakeFirstOrThrow();
}

/** Deletes one scheduled message. */
export async function deleteScheduledMessage(db: Db, id: number): Promise<void> {
  await db.deleteFrom("scheduled_message").where("id", "=", id).execute();
}

/** Up to `limit` messages due at `now` that are neither sent nor failed, in delivery order. */
export function dueScheduledMessages(db: Db, now: number, limit: number): Promise<ScheduledMessageRow[]> {
  return db
    .selectFrom("scheduled_message")
    .selectAll()
    .where("delivered", "=", 0)
    .where("failed", "=", 0)
    .where("scheduled_timestamp", "<=", now)
    .orderBy("scheduled_timestamp")
    .orderBy("id")
    .limit(limit)
    .execute();
}

/** When the next message waiting to be sent is due (undefined: none waits). */
export async function nextScheduledTime(db: Db): Promise<number | undefined> {
  const row = await db
    .selectFrom("scheduled_message")
    .select("scheduled_timestamp")
    .where("delivered", "=", 0)
    .where("failed", "=", 0)
    .orderBy("scheduled_timestamp")
    .limit(1)
    .executeTakeFirst();
  return row?.scheduled_timestamp;
}

/** The rendered content of a realm's scheduled messages not yet sent that link uploads. */
export async function unsentScheduledContentsLinkingUploads(db: Db, realmId: number): Promise<string[]> {
  const rows = await db
    .selectFrom("scheduled_message")
    .select("rendered_content")
    .where("realm_id", "=", realmId)
    .where("delivered", "=", 0)
    .where("rendered_content", "like", "%/user_uploads/%")
    .execute();
  return rows.map((r) => r.rendered_content);
}
