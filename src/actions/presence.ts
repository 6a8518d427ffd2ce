import type { AppContext } from "../context.js";
import type { UserRow } from "../db/queries/users.js";
import type { PresenceEvent, QueuedEvent } from "../events/types.js";
import { badRequest } from "../base/errors.js";
import { OFFLINE_THRESHOLD_SECS, USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS } from "../caches/presence.js";
import type { PresenceEntry } from "../events/changes.js";
import { legacyClientPresence, realmPresences } from "../lib/users/presence.js";
import { realmProp } from "../lib/realm/props.js";
import { userSetting } from "../lib/users/settings.js";

/** What POST /users/me/presence was asked. */
export interface PresencePing {
  status: string;
  pingOnly: boolean;
  slimPresence: boolean;
  lastUpdateId: number | undefined;
}

/**
 * Records the caller's presence and answers the realm's presence. The change lives in memory
 * (write-behind; in a cluster, in Redis), so its event is announced directly rather than through a
 * transaction's outbox; the call answers once every process has it.
 * A `presence` event goes to every active user of the realm, unless there are more than 100.
 */
export async function checkUpdatePresence(ctx: AppContext, user: UserRow, ping: PresencePing): Promise<Record<string, unknown>> {
  if (ping.status !== "active" && ping.status !== "idle") throw badRequest(`Invalid status: ${ping.status}`);
  const realm = await ctx.realms.get(user.realm_id);
  const presenceDisabled = realmProp(realm, "presence_disabled") === true;
  // At level 275 a user in invisible mode does not record presence at all.
  let current = false;
  if (userSetting(user, "presence_enabled") === true) {
    const change = await ctx.presence.update(user, ctx.clock.now(), ping.status === "active");
    current = change.read === true;
    if (change.announce && !presenceDisabled) {
      await ctx.presence.announce(ctx.bus, await presenceEvents(ctx, user, change.entry, false));
    }
  }
  if (ping.pingOnly) return {};
  const modern = ping.slimPresence || ping.lastUpdateId !== undefined;
  const { presences, lastUpdateId } = await realmPresences(ctx, user, { modern, lastUpdateId: ping.lastUpdateId, asText: true, current }, presenceDisabled);
  return { presences, server_timestamp: ctx.clock.now() / 1000, presence_last_update_id: lastUpdateId };
}

/**
 * After presence_enabled changed and committed: an "active now" entry (enabled) or an idle entry
 * dated past the offline threshold (disabled), announced even in large realms (Zulip forces it).
 */
export async function doPresenceEnabledChanged(ctx: AppContext, user: UserRow, enabled: boolean): Promise<void> {
  const now = ctx.clock.now();
  const store = ctx.presence;
  const entry = enabled
    ? (await store.update(user, now, true, true)).entry
    : await store.replaceWithIdle(user, now - (OFFLINE_THRESHOLD_SECS + 120) * 1000);
  await store.announce(ctx.bus, await presenceEvents(ctx, user, entry, true));
}

async function presenceEvents(ctx: AppContext, user: UserRow, entry: PresenceEntry, force: boolean): Promise<QueuedEvent[]> {
  // Counting first: in a large realm most presence changes are not announced at all.
  if (!force && activeCount(await ctx.users.ofRealm(user.realm_id)) > USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS) return [];
  const event: PresenceEvent = {
    type: "presence",
    user_id: user.id,
    email: user.email,
    server_timestamp: ctx.clock.now() / 1000,
    presence: { website: legacyClientPresence(entry, user) },
  };
  return [{ event, userIds: [], realm: { id: user.realm_id, except: [] } }];
}

/** Active users of each realm list the user cache holds (a new list comes after any user change). */
const activeCounts = new WeakMap<readonly UserRow[], number>();

/** How many users of the list are active (the cache's lists leave system bots out). */
function activeCount(users: readonly UserRow[]): number {
  let n = activeCounts.get(users);
  if (n === undefined) {
    n = users.reduce((sum, u) => sum + (u.is_active ? 1 : 0), 0);
    activeCounts.set(users, n);
  }
  return n;
}
