import { CompiledQuery, sql, type Insertable, type Selectable, type SqlBool, type Updateable } from "kysely";
import type { Db } from "../index.js";
import { unlinkAttachments } from "./attachments.js";
import { deleteMessageImageUrls } from "./message-image-urls.js";
import type { MessageTable } from "../schema.js";
import { chunks, runInChunks, selectInChunks } from "../chunks.js";

/** A message row as stored. */
export type MessageRow = Selectable<MessageTable>;

/** A message row joined with one user's flags (null = the user has no row for it). */
export type MessageWithFlags = MessageRow & { um_flags: number | null };

/** Ids above this cannot exist (PostgreSQL's integer); queries never bind them. */
export const MAX_STORED_ID = 2_147_483_647;

/** Ids that can name a stored row. */
function storable(ids: readonly number[]): number[] {
  return ids.filter((id) => Number.isInteger(id) && id > 0 && id <= MAX_STORED_ID);
}

/** Recipient types (Zulip's Recipient.PERSONAL / STREAM / DIRECT_MESSAGE_GROUP). */
export const RecipientType = { PERSONAL: 1, STREAM: 2, GROUP: 3 } as const;

/** The recipient id for a channel, a user (1:1 messages) or a group conversation, created on first use. */
export async function recipientId(db: Db, type: number, typeId: number, dmKey = ""): Promise<number> {
  const found = await db
    .selectFrom("recipient")
    .select("id")
    .where("type", "=", type)
    .where("type_id", "=", typeId)
    .where("dm_key", "=", dmKey)
    .executeTakeFirst();
  if (found) return found.id;
  const { id } = await db.insertInto("recipient").values({ type, type_id: typeId, dm_key: dmKey }).returning("id").executeTakeFirstOrThrow();
  return id;
}

/**
 * Who receives a new channel message: the channel's active subscribers, each with whether they
 * muted the sender (one query on the send path).
 */
export async function streamRecipients(db: Db, streamId: number, senderId: number): Promise<{ user_id: number; muted: number | null }[]> {
  return db
    .selectFrom("subscription as s")
    .leftJoin("muted_user as mu", (join) => join.onRef("mu.user_id", "=", "s.user_id").on("mu.muted_user_id", "=", senderId))
    .select(["s.user_id", "mu.muted_user_id as muted"])
    .where("s.stream_id", "=", streamId)
    .where("s.active", "=", 1)
    .where("s.is_user_active", "=", 1)
    .execute();
}

/** Which of `userIds` muted the sender. */
export async function usersMutingSender(db: Db, userIds: readonly number[], senderId: number): Promise<Set<number>> {
  const rows = await selectInChunks(userIds, (slice) =>
    db.selectFrom("muted_user").select("user_id").where("muted_user_id", "=", senderId).where("user_id", "in", slice).execute(),
  );
  return new Set(rows.map((r) => r.user_id));
}

/** Whether the direct-message conversation of these participants (a dm_key) has any message. */
export async function conversationHasMessages(db: Db, realmId: number, dmKey: string): Promise<boolean> {
  const row = await db.selectFrom("message").select("id").where("dm_key", "=", dmKey).where("realm_id", "=", realmId).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Inserts a message and returns its id. */
export async function insertMessage(db: Db, row: Insertable<MessageTable>): Promise<number> {
  const { id } = await db.insertInto("message").values(row).returning("id").executeTakeFirstOrThrow();
  return id;
}

/** Inserts per-user rows for one message. */
export async function insertUserMessages(db: Db, messageId: number, flagsByUser: ReadonlyMap<number, number>): Promise<void> {
  const values: number[] = [];
  for (const [userId, flags] of flagsByUser) values.push(userId, messageId, flags);
  // SQLite caps bound variables per statement; 3 per row.
  for (let i = 0; i < values.length; i += 900) {
    const chunk = values.slice(i, i + 900);
    await db.executeQuery(CompiledQuery.raw(userMessageInsert(db, chunk.length / 3), chunk));
  }
}

// The SQL of an n-row user_message insert, by dialect. Every message sends one; building its
// rows as query-builder nodes cost a send more JavaScript time than any other query.
const userMessageInserts = new WeakMap<object, Map<number, string>>();

function userMessageInsert(db: Db, rows: number): string {
  const adapter = db.getExecutor().adapter;
  let texts = userMessageInserts.get(adapter);
  if (!texts) userMessageInserts.set(adapter, (texts = new Map()));
  let text = texts.get(rows);
  if (text === undefined) {
    const template = Array.from({ length: rows }, () => ({ user_id: 0, message_id: 0, flags: 0 }));
    text = db.insertInto("user_message").values(template).compile().sql;
    texts.set(rows, text);
  }
  return text;
}

/** One message by id. */
export async function messageById(db: Db, id: number): Promise<MessageRow | undefined> {
  if (storable([id]).length === 0) return undefined;
  return db.selectFrom("message").selectAll().where("id", "=", id).executeTakeFirst();
}

/** One user's flags on a message, or undefined when the user has no row. */
export async function userMessageFlags(db: Db, userId: number, messageId: number): Promise<number | undefined> {
  const row = await db
    .selectFrom("user_message")
    .select("flags")
    .where("user_id", "=", userId)
    .where("message_id", "=", messageId)
    .executeTakeFirst();
  return row?.flags;
}

/** Per-user rows of some messages for one user: message id → flags. */
export async function flagsOfMessages(db: Db, userId: number, requested: readonly number[]): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  const ids = storable(requested);
  for (let i = 0; i < ids.length; i += 500) {
    const rows = await db
      .selectFrom("user_message")
      .select(["message_id", "flags"])
      .where("user_id", "=", userId)
      .where("message_id", "in", ids.slice(i, i + 500))
      .execute();
    for (const r of rows) out.set(r.message_id, r.flags);
  }
  return out;
}

/** Messages by id (any order). */
export async function messagesByIds(db: Db, requested: readonly number[]): Promise<MessageRow[]> {
  const out: MessageRow[] = [];
  const ids = storable(requested);
  for (let i = 0; i < ids.length; i += 500) {
    out.push(...(await db.selectFrom("message").selectAll().where("id", "in", ids.slice(i, i + 500)).execute()));
  }
  return out;
}

/** Users holding a row for a message. */
export async function userIdsOfMessage(db: Db, messageId: number): Promise<number[]> {
  const rows = await db.selectFrom("user_message").select("user_id").where("message_id", "=", messageId).execute();
  return rows.map((r) => r.user_id);
}

/** Rows (user, flags) of a message. */
export function userMessagesOf(db: Db, messageId: number): Promise<{ user_id: number; flags: number }[]> {
  return db.selectFrom("user_message").select(["user_id", "flags"]).where("message_id", "=", messageId).execute();
}

/** Ids of a channel topic's messages (case-insensitive topic), oldest first, optionally from an id on. */
export async function topicMessageIds(db: Db, streamId: number, topic: string, fromId = 0): Promise<number[]> {
  const rows = await db
    .selectFrom("message")
    .select("id")
    .where("stream_id", "=", streamId)
    .where((eb) => eb(eb.fn("lower", ["topic"]), "=", topic.toLowerCase()))
    .where("id", ">=", fromId)
    .orderBy("id")
    .execute();
  return rows.map((r) => r.id);
}

/** The newest `limit` ids of a channel topic (any case), newest first; only those `receivedBy` holds a row for, if given. */
export async function newestTopicMessageIds(db: Db, streamId: number, topic: string, limit: number, receivedBy?: number): Promise<number[]> {
  const rows = await db
    .selectFrom("message as m")
    .select("m.id")
    .where("m.stream_id", "=", streamId)
    .where((eb) => eb(eb.fn("lower", ["m.topic"]), "=", topic.toLowerCase()))
    .$if(receivedBy !== undefined, (q) => q.innerJoin("user_message as um", "um.message_id", "m.id").where("um.user_id", "=", receivedBy ?? 0))
    .orderBy("m.id", "desc")
    .limit(limit)
    .execute();
  return rows.map((r) => r.id);
}

/** Sets columns of one message. */
export async function updateMessage(db: Db, id: number, changes: Updateable<MessageTable>): Promise<void> {
  await db.updateTable("message").set(changes).where("id", "=", id).execute();
}

/** Which of these messages the user has a row for. */
export async function receivedMessageIds(db: Db, userId: number, messageIds: readonly number[]): Promise<Set<number>> {
  const out = new Set<number>();
  for (const chunk of chunks(storable(messageIds))) {
    for (const r of await db.selectFrom("user_message").select("message_id").where("user_id", "=", userId).where("message_id", "in", chunk).execute()) out.add(r.message_id);
  }
  return out;
}

/** Gives users rows with these flags for messages, leaving existing rows alone. */
export async function insertUserMessageRows(db: Db, userIds: readonly number[], messageIds: readonly number[], flags: number): Promise<void> {
  const rows = userIds.flatMap((user_id) => messageIds.map((message_id) => ({ user_id, message_id, flags })));
  for (const chunk of chunks(rows)) await db.insertInto("user_message").values(chunk).onConflict((oc) => oc.doNothing()).execute();
}

/** Removes users' rows for messages. */
export async function deleteUserMessageRows(db: Db, userIds: readonly number[], messageIds: readonly number[]): Promise<void> {
  for (const users of chunks(userIds)) {
    for (const messages of chunks(messageIds)) await db.deleteFrom("user_message").where("user_id", "in", users).where("message_id", "in", messages).execute();
  }
}

/** Each user's rows among these messages: user id → (message id → flags). */
export async function userMessageRows(db: Db, userIds: readonly number[], messageIds: readonly number[]): Promise<Map<number, Map<number, number>>> {
  const out = new Map<number, Map<number, number>>();
  for (const users of chunks(userIds)) {
    for (const messages of chunks(messageIds)) {
      const rows = await db.selectFrom("user_message").select(["user_id", "message_id", "flags"]).where("user_id", "in", users).where("message_id", "in", messages).execute();
      for (const r of rows) out.set(r.user_id, (out.get(r.user_id) ?? new Map<number, number>()).set(r.message_id, r.flags));
    }
  }
  return out;
}

/** Replaces one user's flag bits on a message. */
export async function setUserMessageFlags(db: Db, userId: number, messageId: number, flags: number): Promise<void> {
  await db.updateTable("user_message").set({ flags }).where("user_id", "=", userId).where("message_id", "=", messageId).execute();
}

/** Deletes messages with their per-user rows, reactions, submessages and shown images. */
export async function deleteMessages(db: Db, ids: readonly number[]): Promise<void> {
  await unlinkAttachments(db, ids);
  await deleteMessageImageUrls(db, ids);
  await runInChunks(ids, async (slice) => {
    await db.deleteFrom("reaction").where("message_id", "in", slice).execute();
    await db.deleteFrom("submessage").where("message_id", "in", slice).execute();
    await db.deleteFrom("user_message").where("message_id", "in", slice).execute();
    await db.deleteFrom("message").where("id", "in", slice).execute();
  });
}

/** The newest message id the user has a row for, or -1. */
export async function maxReceivedMessageId(db: Db, userId: number): Promise<number> {
  const row = await db
    .selectFrom("user_message")
    .select((eb) => eb.fn.max("message_id").as("max_id"))
    .where("user_id", "=", userId)
    .executeTakeFirst();
  return row?.max_id ?? -1;
}

/** Ids of the messages a user has starred, oldest first, at most `limit`. */
export async function starredMessageIds(db: Db, userId: number, starredBit: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom("user_message")
    .select("message_id")
    .where("user_id", "=", userId)
    .where(sql<SqlBool>`(flags & ${sql.lit(starredBit)}) <> 0`)
    .orderBy("message_id")
    .limit(limit)
    .execute();
  return rows.map((r) => r.message_id);
}

/** Senders of a topic's messages (compared case-insensitively). */
export async function topicSenderIds(db: Db, streamId: number, topic: string): Promise<number[]> {
  const rows = await db
    .selectFrom("message")
    .select("sender_id")
    .distinct()
    .where("stream_id", "=", streamId)
    .where((eb) => eb(eb.fn("lower", ["topic"]), "=", topic.toLowerCase()))
    .execute();
  return rows.map((s) => s.sender_id);
}
