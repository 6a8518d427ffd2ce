import { sql, type SqlBool } from "kysely";
import type { Db } from "../index.js";

/** Where unread messages are looked for: all of a user's, one channel's, or one topic's (any case). */
export interface UnreadScope {
  streamId?: number;
  topic?: string;
  /** The newest `limit` only. */
  limit?: number;
}

/** Ids of the user's unread messages in a scope: the newest first when limited, else oldest first. */
export async function unreadMessageIds(db: Db, userId: number, scope: UnreadScope = {}): Promise<number[]> {
  let query = db
    .selectFrom("user_message as um")
    .select("um.message_id")
    .where("um.user_id", "=", userId)
    .where(sql<SqlBool>`(um.flags & 1) = 0`);
  if (scope.streamId !== undefined) {
    const { streamId, topic } = scope;
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom("message as m")
          .select("m.id")
          .whereRef("m.id", "=", "um.message_id")
          .where("m.stream_id", "=", streamId)
          .$if(topic !== undefined, (q) => q.where((e) => e(e.fn("lower", ["m.topic"]), "=", (topic ?? "").toLowerCase()))),
      ),
    );
  }
  const rows = await (scope.limit === undefined ? query.orderBy("um.message_id") : query.orderBy("um.message_id", "desc").limit(scope.limit)).execute();
  return rows.map((r) => r.message_id);
}

/** Sets the read flag on some of a user's messages. */
export async function setReadFlag(db: Db, userId: number, messageIds: readonly number[]): Promise<void> {
  for (let i = 0; i < messageIds.length; i += 500) {
    await db
      .updateTable("user_message")
      .set((eb) => ({ flags: eb("flags", "|", 1) }))
      .where("user_id", "=", userId)
      .where("message_id", "in", messageIds.slice(i, i + 500))
      .execute();
  }
}

/** Whether the user holds a row for any message of a channel's topic (any case). */
export async function receivedInTopic(db: Db, userId: number, streamId: number, topic: string): Promise<boolean> {
  const row = await db
    .selectFrom("user_message as um")
    .innerJoin("message as m", "m.id", "um.message_id")
    .select("um.message_id")
    .where("um.user_id", "=", userId)
    .where("m.stream_id", "=", streamId)
    .where((eb) => eb(eb.fn("lower", ["m.topic"]), "=", topic.toLowerCase()))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Active users other than the sender who have the message marked read, leaving out those the
 * viewer muted and those who muted the viewer; in id order.
 */
export async function readersOf(db: Db, messageId: number, senderId: number, viewerId: number): Promise<number[]> {
  const rows = await db
    .selectFrom("user_message as um")
    .innerJoin("user as u", "u.id", "um.user_id")
    .select("um.user_id")
    .where("um.message_id", "=", messageId)
    .where(sql<SqlBool>`(um.flags & 1) <> 0`)
    .where("u.is_active", "=", 1)
    .where("um.user_id", "<>", senderId)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom("muted_user as mu")
            .select("mu.user_id")
            .where((m) =>
              m.or([
                m.and([m("mu.user_id", "=", m.ref("um.user_id")), m("mu.muted_user_id", "=", viewerId)]),
                m.and([m("mu.user_id", "=", viewerId), m("mu.muted_user_id", "=", m.ref("um.user_id"))]),
              ]),
            ),
        ),
      ),
    )
    .orderBy("um.user_id")
    .execute();
  return rows.map((r) => r.user_id);
}

/** Inserts a user's rows for messages they never received (historical rows), all with `flags`, 300 at a time. */
export async function insertHistoricalRows(db: Db, userId: number, messageIds: readonly number[], flags: number): Promise<void> {
  for (let i = 0; i < messageIds.length; i += 300) {
    await db.insertInto("user_message").values(messageIds.slice(i, i + 300).map((id) => ({ user_id: userId, message_id: id, flags }))).execute();
  }
}

/** Sets (`adding`) or clears one flag bit on a user's rows for some messages, 500 at a time. */
export async function changeFlagBit(db: Db, userId: number, messageIds: readonly number[], bit: number, adding: boolean): Promise<void> {
  for (let i = 0; i < messageIds.length; i += 500) {
    await db
      .updateTable("user_message")
      .set((eb) => ({ flags: adding ? eb("flags", "|", bit) : eb("flags", "&", ~bit) }))
      .where("user_id", "=", userId)
      .where("message_id", "in", messageIds.slice(i, i + 500))
      .execute();
  }
}
