import type { Db } from "../../db/index.js";
import type { StreamRow } from "../../db/queries/streams.js";
import { subscriberIds } from "../../db/queries/subscriptions.js";
import { usersOfRealm, type UserRow } from "../../db/queries/users.js";
import { isAdmin, Role } from "../users/roles.js";

/**
 * Who may know a channel and its subscriber list (Zulip's can_access_stream_user_ids and peer
 * sets): every active user for web-public channels; active non-guests plus subscribers for public
 * ones; subscribers plus administrators for private ones.
 */
export function streamAudience(activeUsers: readonly UserRow[], stream: StreamRow, subscribers: readonly number[]): number[] {
  const subs = new Set(subscribers);
  return activeUsers
    .filter((u) => {
      if (subs.has(u.id) || stream.is_web_public) return true;
      return stream.invite_only ? isAdmin(u) : u.role !== Role.GUEST;
    })
    .map((u) => u.id);
}

/** A realm's active users, the pool every audience is drawn from. */
export async function activeRealmUsers(db: Db, realmId: number): Promise<UserRow[]> {
  return (await usersOfRealm(db, realmId)).filter((u) => u.is_active);
}

/** The audience of one channel, reading its current subscribers. */
export async function audienceOf(db: Db, stream: StreamRow, activeUsers?: readonly UserRow[]): Promise<number[]> {
  const users = activeUsers ?? (await activeRealmUsers(db, stream.realm_id));
  const subs = (await subscriberIds(db, [stream.id])).get(stream.id) ?? [];
  return streamAudience(users, stream, subs);
}
