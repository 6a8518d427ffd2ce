import type { Selectable } from "kysely";
import type { Db } from "../index.js";
import type { ReactionTable } from "../schema.js";

/** A reaction row as stored. */
export type ReactionRow = Selectable<ReactionTable>;

/** Reactions of some messages, in insertion order per message. */
export async function reactionsOf(db: Db, messageIds: readonly number[]): Promise<ReactionRow[]> {
  const out: ReactionRow[] = [];
  for (let i = 0; i < messageIds.length; i += 500) {
    out.push(...(await db.selectFrom("reaction").selectAll().where("message_id", "in", messageIds.slice(i, i + 500)).execute()));
  }
  return out;
}

/** Whether the user already reacted with this emoji. */
export async function hasReaction(db: Db, messageId: number, userId: number, reactionType: string, emojiCode: string): Promise<boolean> {
  return (await ownReactionName(db, messageId, userId, emojiCode, reactionType)) !== undefined;
}

/** Adds a reaction. */
export async function insertReaction(db: Db, row: ReactionRow): Promise<void> {
  await db.insertInto("reaction").values(row).execute();
}

/** Removes a reaction; returns the emoji name it had. */
export async function removeReaction(db: Db, messageId: number, userId: number, reactionType: string, emojiCode: string): Promise<void> {
  await db
    .deleteFrom("reaction")
    .where("message_id", "=", messageId)
    .where("user_id", "=", userId)
    .where("reaction_type", "=", reactionType)
    .where("emoji_code", "=", emojiCode)
    .execute();
}

/** Users who reacted to any of these messages. */
export async function reactorIds(db: Db, messageIds: readonly number[]): Promise<Set<number>> {
  const out = new Set<number>();
  for (let i = 0; i < messageIds.length; i += 500) {
    for (const r of await db.selectFrom("reaction").select("user_id").where("message_id", "in", messageIds.slice(i, i + 500)).execute()) out.add(r.user_id);
  }
  return out;
}

/** The name an emoji (code and type) already has in any reaction to a message, if it has one. */
export async function reactionNameOnMessage(db: Db, messageId: number, emojiCode: string, reactionType: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("reaction")
    .select("emoji_name")
    .where("message_id", "=", messageId)
    .where("emoji_code", "=", emojiCode)
    .where("reaction_type", "=", reactionType)
    .executeTakeFirst();
  return row?.emoji_name;
}

/** The name of a user's own reaction with an emoji (code and type) to a message, if it exists. */
export async function ownReactionName(db: Db, messageId: number, userId: number, emojiCode: string, reactionType: string): Promise<string | undefined> {
  const row = await db
    .selectFrom("reaction")
    .select("emoji_name")
    .where("message_id", "=", messageId)
    .where("user_id", "=", userId)
    .where("emoji_code", "=", emojiCode)
    .where("reaction_type", "=", reactionType)
    .executeTakeFirst();
  return row?.emoji_name;
}

/** Users who reacted to any message of a topic (compared case-insensitively). */
export async function topicReactorIds(db: Db, streamId: number, topic: string): Promise<number[]> {
  const rows = await db
    .selectFrom("reaction")
    .innerJoin("message", "message.id", "reaction.message_id")
    .select("reaction.user_id")
    .distinct()
    .where("message.stream_id", "=", streamId)
    .where((eb) => eb(eb.fn("lower", ["message.topic"]), "=", topic.toLowerCase()))
    .execute();
  return rows.map((r) => r.user_id);
}
