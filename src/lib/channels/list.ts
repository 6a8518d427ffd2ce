import type { Db } from "../../db/index.js";
import { activeStreamsByIds, activeStreamsOfRealm, defaultStreamIds } from "../../db/queries/streams.js";
import { subscriberIds, subscriptionsOfUser } from "../../db/queries/subscriptions.js";
import type { UserRow } from "../../db/queries/users.js";
import type { ApiStream } from "../../events/types.js";
import { isAdmin, Role } from "../users/roles.js";
import { apiStream, apiSubscription } from "./streams.js";

/** The sources GET /streams unites (its include_* flags). */
export interface StreamSources {
  includePublic: boolean;
  includeWebPublic: boolean;
  includeSubscribed: boolean;
  includeAllActive: boolean;
  includeDefault: boolean;
  includeOwnerSubscribed: boolean;
}

/**
 * GET /streams (Zulip 9's do_get_streams): the union of the chosen sources, sorted by name.
 * Guests never get public channels as such; include_owner_subscribed applies to bots only;
 * include_default also marks every channel with is_default.
 */
export async function listStreams(db: Db, user: UserRow, sources: StreamSources): Promise<ApiStream[]> {
  const all = await activeStreamsOfRealm(db, user.realm_id);
  const defaults = new Set(await defaultStreamIds(db, user.realm_id));
  const subscribed = await activeStreamIds(db, user.id);
  const ownerId = sources.includeOwnerSubscribed && user.is_bot ? user.bot_owner_id : null;
  const ownerSubscribed = ownerId !== null ? await activeStreamIds(db, ownerId) : new Set<number>();
  const includePublic = sources.includePublic && user.role !== Role.GUEST;
  const chosen = all.filter(
    (s) =>
      (sources.includeAllActive && isAdmin(user)) ||
      (sources.includeSubscribed && subscribed.has(s.id)) ||
      (includePublic && !s.invite_only) ||
      (sources.includeWebPublic && s.is_web_public === 1) ||
      (sources.includeDefault && defaults.has(s.id)) ||
      ownerSubscribed.has(s.id),
  );
  return chosen.sort(byName).map((s) => (sources.includeDefault ? { ...apiStream(s), is_default: defaults.has(s.id) } : apiStream(s)));
}

/** GET /users/me/subscriptions: active subscriptions to active channels, sorted by name. */
export async function listSubscriptions(db: Db, user: UserRow, includeSubscribers: boolean): Promise<ApiStream[]> {
  const rows = (await subscriptionsOfUser(db, user.id)).filter((r) => r.active);
  const rowByStream = new Map(rows.map((r) => [r.stream_id, r]));
  const streams = await activeStreamsByIds(db, [...rowByStream.keys()]);
  const subscribers = includeSubscribers ? await subscriberIds(db, streams.map((s) => s.id)) : undefined;
  const out: ApiStream[] = [];
  for (const stream of streams.sort(byName)) {
    const row = rowByStream.get(stream.id);
    if (row) out.push(apiSubscription(stream, row, subscribers ? (subscribers.get(stream.id) ?? []) : undefined));
  }
  return out;
}

async function activeStreamIds(db: Db, userId: number): Promise<Set<number>> {
  return new Set((await subscriptionsOfUser(db, userId)).filter((s) => s.active).map((s) => s.stream_id));
}

/** Channel names compared as Zulip sorts them (code point order). */
export function byName(a: { name: string }, b: { name: string }): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}
