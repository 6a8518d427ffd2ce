import type { Db } from "../index.js";
import type { UserRow } from "./users.js";
import { selectInChunks } from "../chunks.js";

/** The active users actively subscribed to a channel (whom a channel typing notification may reach). */
export function activeSubscribers(db: Db, streamId: number): Promise<UserRow[]> {
  return db
    .selectFrom("subscription")
    .innerJoin("user", "user.id", "subscription.user_id")
    .selectAll("user")
    .where("subscription.stream_id", "=", streamId)
    .where("subscription.active", "=", 1)
    .where("user.is_active", "=", 1)
    .execute();
}

/** The users of `realmId` among `ids`, active or not. */
export function usersByIds(db: Db, realmId: number, ids: readonly number[]): Promise<UserRow[]> {
  return selectInChunks(ids, (slice) => db.selectFrom("user").selectAll().where("realm_id", "=", realmId).where("id", "in", slice).execute());
}
