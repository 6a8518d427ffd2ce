import type { Db } from "../../db/index.js";
import type { StreamRow } from "../../db/queries/streams.js";
import { subscriberIds, subscriptionRows } from "../../db/queries/subscriptions.js";
import { activeUserIdsWithRoles, usersOfRealm, type UserRow } from "../../db/queries/users.js";
import type { Recipients } from "../../events/outbox.js";
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

/**
 * streamAudience less `without`, read without the whole organisation: for a public channel every
 * active user but the unsubscribed guests (one realm-wide fan-out), for a web-public one every
 * active user, for a private one its subscribers and the administrators.
 */
export async function streamAudienceRecipients(db: Db, stream: StreamRow, subscribers: readonly number[] | undefined, without: readonly number[] = []): Promise<Recipients> {
  const skip = new Set(without);
  if (stream.is_web_public) return { realmId: stream.realm_id, except: [...skip] };
  if (!stream.invite_only) {
    // Only the guests' subscriptions matter: read those when the subscriber list is not at hand.
    const guests = await activeUserIdsWithRoles(db, stream.realm_id, [Role.GUEST]);
    const subs = new Set(subscribers ?? (await subscriptionRows(db, guests, [stream.id])).filter((r) => r.active && r.is_user_active).map((r) => r.user_id));
    for (const id of guests) if (!subs.has(id)) skip.add(id);
    return { realmId: stream.realm_id, except: [...skip] };
  }
  subscribers ??= (await subscriberIds(db, [stream.id])).get(stream.id) ?? [];
  const admins = await activeUserIdsWithRoles(db, stream.realm_id, [Role.OWNER, Role.ADMINISTRATOR]);
  const ids = [...new Set([...subscribers, ...admins])].filter((id) => !skip.has(id)).sort((a, b) => a - b);
  return { userIds: ids };
}

/** Every active user of a realm but its guests (default channels and their groups go to them). */
export async function nonGuestRecipients(db: Db, realmId: number): Promise<Recipients> {
  return { realmId, except: await activeUserIdsWithRoles(db, realmId, [Role.GUEST]) };
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
