import type { Selectable } from "kysely";
import type { Db } from "../index.js";
import type { SubmessageTable } from "../schema.js";

/** A submessage row as stored. */
export type SubmessageRow = Selectable<SubmessageTable>;

/** Submessages of some messages, by message then in the order they were added. */
export async function submessagesOf(db: Db, messageIds: readonly number[]): Promise<SubmessageRow[]> {
  const out: SubmessageRow[] = [];
  for (let i = 0; i < messageIds.length; i += 500) {
    const chunk = messageIds.slice(i, i + 500);
    out.push(...(await db.selectFrom("submessage").selectAll().where("message_id", "in", chunk).orderBy("message_id").orderBy("id").execute()));
  }
  return out;
}

/** Adds a submessage and returns its id. */
export async function insertSubmessage(db: Db, row: Omit<SubmessageRow, "id">): Promise<number> {
  const { id } = await db.insertInto("submessage").values(row).returning("id").executeTakeFirstOrThrow();
  return id;
}

/** Whether this user has added any submessage to the message. */
export async function hasSubmessageFrom(db: Db, messageId: number, senderId: number): Promise<boolean> {
  const row = await db.selectFrom("submessage").select("id").where("message_id", "=", messageId).where("sender_id", "=", senderId).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** The content of the message's first `widget` submessage, if it has one. */
export async function widgetContentOf(db: Db, messageId: number): Promise<string | undefined> {
  const row = await db
    .selectFrom("submessage")
    .select("content")
    .where("message_id", "=", messageId)
    .where("msg_type", "=", "widget")
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
  return row?.content;
}

/** Whether the message carries any submessage (Zulip's is_widget_message). */
export async function hasSubmessages(db: Db, messageId: number): Promise<boolean> {
  const row = await db.selectFrom("submessage").select("id").where("message_id", "=", messageId).limit(1).executeTakeFirst();
  return row !== undefined;
}
