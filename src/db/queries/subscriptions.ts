import type { Insertable, Selectable, Updateable } from "kysely";
import type { Db } from "../index.js";
import type { SubscriptionTable, UserTopicTable } from "../schema.js";
import { chunks, insertInChunks, selectInChunks } from "../chunks.js";

/** A subscription row as stored (active or not). */
export type SubscriptionRow = Selectable<SubscriptionTable>;

/** A topic visibility row. */
export type UserTopicRow = Selectable<UserTopicTable>;

/** Every subscription row of a user, active or not. */
export function subscriptionsOfUser(db: Db, userId: number): Promise<SubscriptionRow[]> {
  return db.selectFrom("subscription").selectAll().where("user_id", "=", userId).execute();
}

/** One subscription row (active or not). */
export function subscriptionOf(db: Db, userId: number, streamId: number): Promise<SubscriptionRow | undefined> {
  return db.selectFrom("subscription").selectAll().where("user_id", "=", userId).where("stream_id", "=", streamId).executeTakeFirst();
}

/** Rows of these users in these channels (active or not). */
export async function subscriptionRows(db: Db, userIds: readonly number[], streamIds: readonly number[]): Promise<SubscriptionRow[]> {
  const out: SubscriptionRow[] = [];
  for (const users of chunks([...new Set(userIds)])) {
    for (const streams of chunks([...new Set(streamIds)])) {
      out.push(...(await db.selectFrom("subscription").selectAll().where("user_id", "in", users).where("stream_id", "in", streams).execute()));
    }
  }
  return out;
}

/** Active subscribers (active users only) of these channels, as stream id → sorted user ids. */
export async function subscriberIds(db: Db, streamIds: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(streamIds.map((id) => [id, []]));
  const rows = await selectInChunks(streamIds, (slice) =>
    db
      .selectFrom("subscription")
      .select(["stream_id", "user_id"])
      .where("stream_id", "in", slice)
      .where("active", "=", 1)
      .where("is_user_active", "=", 1)
      .orderBy("user_id")
      .execute(),
  );
  // Each channel's rows come from one slice, already sorted.
  for (const row of rows) out.get(row.stream_id)?.push(row.user_id);
  return out;
}

/** Users subscribed to a channel: actively (users active or not), or ever (`everSubscribed`), sorted. */
export async function subscriptionUserIds(db: Db, streamId: number, everSubscribed: boolean): Promise<number[]> {
  let query = db.selectFrom("subscription").select("user_id").where("stream_id", "=", streamId);
  if (!everSubscribed) query = query.where("active", "=", 1);
  return (await query.orderBy("user_id").execute()).map((r) => r.user_id);
}

/** Inserts new subscription rows. */
export async function insertSubscriptions(db: Db, rows: Insertable<SubscriptionTable>[]): Promise<void> {
  await insertInChunks(rows, (slice) => db.insertInto("subscription").values(slice).execute());
}

/** Updates one subscription row. */
export async function updateSubscription(db: Db, userId: number, streamId: number, changes: Updateable<SubscriptionTable>): Promise<void> {
  await db.updateTable("subscription").set(changes).where("user_id", "=", userId).where("stream_id", "=", streamId).execute();
}

/** Marks all of a user's subscription rows as belonging to an (in)active user. */
export async function setSubscriptionsUserActive(db: Db, userId: number, active: boolean): Promise<void> {
  await db.updateTable("subscription").set({ is_user_active: active ? 1 : 0 }).where("user_id", "=", userId).execute();
}

/** A user's topic visibility rows, oldest change first. */
export function userTopicsOfUser(db: Db, userId: number): Promise<UserTopicRow[]> {
  return db.selectFrom("user_topic").selectAll().where("user_id", "=", userId).orderBy("last_updated").orderBy("stream_id").execute();
}

/** One topic visibility row. */
export function userTopicOf(db: Db, userId: number, streamId: number, topicKey: string): Promise<UserTopicRow | undefined> {
  return db
    .selectFrom("user_topic")
    .selectAll()
    .where("user_id", "=", userId)
    .where("stream_id", "=", streamId)
    .where("topic_key", "=", topicKey)
    .executeTakeFirst();
}

/** Every user's visibility policy for one topic (case-insensitive). */
export function topicPolicies(db: Db, streamId: number, topic: string): Promise<{ user_id: number; visibility_policy: number }[]> {
  return db.selectFrom("user_topic").select(["user_id", "visibility_policy"]).where("stream_id", "=", streamId).where("topic_key", "=", topic.toLowerCase()).execute();
}

/** Sets (inserts or replaces) one topic visibility row. */
export async function upsertUserTopic(db: Db, row: UserTopicRow): Promise<void> {
  await db
    .insertInto("user_topic")
    .values(row)
    .onConflict((oc) =>
      oc.columns(["user_id", "stream_id", "topic_key"]).doUpdateSet({
        topic_name: row.topic_name,
        visibility_policy: row.visibility_policy,
        last_updated: row.last_updated,
      }),
    )
    .execute();
}

/** Deletes one topic visibility row (policy 0 is stored as no row). */
export async function deleteUserTopic(db: Db, userId: number, streamId: number, topicKey: string): Promise<void> {
  await db.deleteFrom("user_topic").where("user_id", "=", userId).where("stream_id", "=", streamId).where("topic_key", "=", topicKey).execute();
}

/** The channels a user is actively subscribed to. */
export async function activeSubscribedStreamIds(db: Db, userId: number): Promise<Set<number>> {
  return new Set((await db.selectFrom("subscription").select("stream_id").where("user_id", "=", userId).where("active", "=", 1).execute()).map((r) => r.stream_id));
}

/** The channels a user has muted. */
export async function mutedStreamIds(db: Db, userId: number): Promise<Set<number>> {
  return new Set((await db.selectFrom("subscription").select("stream_id").where("user_id", "=", userId).where("is_muted", "=", 1).execute()).map((r) => r.stream_id));
}
