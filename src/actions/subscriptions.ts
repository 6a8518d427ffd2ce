import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import { activeStreamByName, activeStreamsByIds, addDefaultStream, defaultStreamIds, type StreamRow } from "../db/queries/streams.js";
import {
  insertSubscriptions,
  setSubscriptionsUserActive,
  subscriberIds,
  subscriptionRows,
  subscriptionsOfUser,
  updateSubscription,
  type SubscriptionRow,
} from "../db/queries/subscriptions.js";
import type { UserRow } from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";
import { badRequest } from "../http/errors.js";
import { isAdmin, Role } from "../lib/roles.js";
import { activeRealmUsers, streamAudience } from "../lib/stream-audience.js";
import { resolvePrincipals } from "../lib/principals.js";
import { canSubscribeOthers, inStreamGroup } from "../lib/stream-permissions.js";
import { apiStream, apiSubscription, canAccessStream, checkStreamName, pickColors } from "../lib/streams.js";
import { notifyNewSubscribers } from "./notification-bot.js";
import { checkCanCreateStream, doCreateStream, mustGetRealm, notifyDefaultStreams, type NewStream } from "./streams.js";

/** One entry of the `subscriptions` parameter of POST /users/me/subscriptions. */
export interface SubscriptionRequest {
  name: string;
  color?: string;
  description?: string;
}

/** POST /users/me/subscriptions, decoded. Channel settings apply only to channels this request creates. */
export interface AddSubscriptionsInput {
  subscriptions: SubscriptionRequest[];
  principals: (string | number)[] | null;
  authorizationErrorsFatal: boolean;
  isDefaultStream: boolean;
  settings: Omit<NewStream, "name" | "description">;
}

/** The response of POST /users/me/subscriptions at feature level 275 (keys are API emails). */
export interface AddSubscriptionsResult {
  subscribed: Record<string, string[]>;
  already_subscribed: Record<string, string[]>;
  unauthorized?: string[];
}

/**
 * Subscribes the caller (or `principals`) to channels, creating missing ones, with Zulip's checks
 * in order: guests refused, names, creation permissions, access to existing private channels,
 * then the principals.
 */
export async function checkAddSubscriptions(ctx: AppContext, actor: UserRow, input: AddSubscriptionsInput): Promise<AddSubscriptionsResult> {
  if (actor.role === Role.GUEST) throw badRequest("Not allowed for guest users");
  const realm = await mustGetRealm(ctx, actor.realm_id);
  const specs = input.subscriptions.map((s) => ({
    ...input.settings,
    name: s.name.trim(),
    description: (s.description ?? "").replace(/\n/g, " "),
  }));
  for (const spec of specs) checkStreamName(spec.name);
  const groups = await ctx.groups.of(realm.id);
  return write(ctx, async (tx, outbox) => {
    const existing: StreamRow[] = [];
    const missing: NewStream[] = [];
    for (const spec of specs) {
      const stream = await activeStreamByName(tx, actor.realm_id, spec.name);
      if (stream) {
        if (!existing.some((e) => e.id === stream.id)) existing.push(stream);
      } else if (!missing.some((m) => m.name.toLowerCase() === spec.name.toLowerCase())) {
        checkCanCreateStream(groups, realm, actor, spec, input.isDefaultStream);
        missing.push(spec);
      }
    }
    const actorSubs = new Set((await subscriptionsOfUser(tx, actor.id)).filter((s) => s.active).map((s) => s.stream_id));
    const unauthorized = existing.filter((s) => !canAccessStream(actor, s, actorSubs.has(s.id)));
    if (unauthorized[0] && input.authorizationErrorsFatal) throw badRequest(`Unable to access channel (${unauthorized[0].name}).`);
    const authorized = existing.filter((s) => !unauthorized.includes(s));
    const subscribers = input.principals && input.principals.length > 0 ? await resolvePrincipals(tx, actor, input.principals) : [actor];
    if (subscribers.some((u) => u.id !== actor.id) && !canSubscribeOthers(realm, actor)) throw badRequest("Insufficient permission");
    const created: StreamRow[] = [];
    for (const spec of missing) created.push(await doCreateStream(ctx, tx, outbox, actor, spec));
    if (input.isDefaultStream) {
      for (const stream of created) await addDefaultStream(tx, actor.realm_id, stream.id);
      if (created.length > 0) await notifyDefaultStreams(tx, outbox, actor.realm_id);
    }
    const streams = [...authorized, ...created];
    const colors = new Map<number, string>();
    for (const s of input.subscriptions) {
      const stream = streams.find((st) => st.name.toLowerCase() === s.name.trim().toLowerCase());
      if (stream && s.color !== undefined) colors.set(stream.id, s.color);
    }
    const { added, already } = await bulkAddSubscriptions(tx, outbox, subscribers, streams, colors);
    // `announce` posts nowhere: Rookery has no new-channel announcements channel (realm setting -1).
    await notifyNewSubscribers(ctx, tx, outbox, actor, added, created);
    const result: AddSubscriptionsResult = { subscribed: groupNames(added), already_subscribed: groupNames(already) };
    if (!input.authorizationErrorsFatal) result.unauthorized = unauthorized.map((s) => s.name);
    return result;
  });
}

function groupNames(pairs: readonly { user: UserRow; stream: StreamRow }[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const { user, stream } of pairs) (out[user.email] ??= []).push(stream.name);
  return out;
}

/**
 * Subscribes users to channels (reactivating old rows with their old settings). Events, in
 * Zulip's order: stream create to new subscribers who could not see the channel before (non-admins
 * in private channels, guests in public ones); subscription add (with subscribers) to each
 * subscriber; peer_add to the channel's audience other than the new subscribers — one event per
 * new subscriber for private channels, one per channel otherwise.
 */
export async function bulkAddSubscriptions(
  tx: Db,
  outbox: Outbox,
  users: readonly UserRow[],
  streams: readonly StreamRow[],
  requestedColors: ReadonlyMap<number, string> = new Map(),
): Promise<{ added: { user: UserRow; stream: StreamRow }[]; already: { user: UserRow; stream: StreamRow }[] }> {
  const rows = await subscriptionRows(tx, users.map((u) => u.id), streams.map((s) => s.id));
  const rowOf = (userId: number, streamId: number) => rows.find((r) => r.user_id === userId && r.stream_id === streamId);
  const added: { user: UserRow; stream: StreamRow }[] = [];
  const already: { user: UserRow; stream: StreamRow }[] = [];
  for (const user of users) {
    const fresh = streams.filter((s) => !rowOf(user.id, s.id));
    const used = (await subscriptionsOfUser(tx, user.id)).map((r) => r.color);
    const colors = pickColors(used, requestedColors, fresh.map((s) => s.id));
    const inserts = fresh.map((s) => ({ user_id: user.id, stream_id: s.id, active: 1, is_user_active: user.is_active, color: colors.get(s.id) ?? "#c2c2c2", is_muted: 0, pin_to_top: 0 }));
    await insertSubscriptions(tx, inserts);
    for (const stream of streams) {
      const row = rowOf(user.id, stream.id);
      if (row?.active) {
        already.push({ user, stream });
        continue;
      }
      if (row) await updateSubscription(tx, user.id, stream.id, { active: 1, is_user_active: user.is_active });
      added.push({ user, stream });
    }
  }
  if (added.length > 0) await sendAddEvents(tx, outbox, added);
  return { added, already };
}

async function sendAddEvents(tx: Db, outbox: Outbox, added: readonly { user: UserRow; stream: StreamRow }[]): Promise<void> {
  const streams = uniqueStreams(added.map((a) => a.stream));
  const subscribers = await subscriberIds(tx, streams.map((s) => s.id));
  for (const stream of streams) {
    const newcomers = added.filter((a) => a.stream.id === stream.id).map((a) => a.user);
    const blind = newcomers.filter((u) => (stream.invite_only ? !isAdmin(u) : !stream.is_web_public && u.role === Role.GUEST));
    outbox.send({ type: "stream", op: "create", streams: [apiStream(stream)] }, blind.map((u) => u.id));
  }
  for (const user of uniqueUsers(added.map((a) => a.user))) {
    const mine = added.filter((a) => a.user.id === user.id).map((a) => a.stream);
    const rows = await subscriptionRows(tx, [user.id], mine.map((s) => s.id));
    const subs = mine.map((s) => apiSubscription(s, mustFind(rows, s.id), subscribers.get(s.id) ?? []));
    outbox.send({ type: "subscription", op: "add", subscriptions: subs }, [user.id]);
  }
  await sendPeerEvents(tx, outbox, "peer_add", added, subscribers);
}

/**
 * peer_add / peer_remove to a channel's audience (computed on its subscribers after the change),
 * minus the users whose subscription changed.
 */
async function sendPeerEvents(
  tx: Db,
  outbox: Outbox,
  op: "peer_add" | "peer_remove",
  changed: readonly { user: UserRow; stream: StreamRow }[],
  subscribers: ReadonlyMap<number, number[]>,
): Promise<void> {
  const realmUsers = await activeRealmUsers(tx, changed[0]?.user.realm_id ?? 0);
  for (const stream of uniqueStreams(changed.map((a) => a.stream))) {
    const altered = changed.filter((a) => a.stream.id === stream.id).map((a) => a.user.id).sort((a, b) => a - b);
    const peers = streamAudience(realmUsers, stream, subscribers.get(stream.id) ?? []).filter((id) => !altered.includes(id));
    if (stream.invite_only) {
      for (const id of altered) outbox.send({ type: "subscription", op, stream_ids: [stream.id], user_ids: [id] }, peers);
    } else {
      outbox.send({ type: "subscription", op, stream_ids: [stream.id], user_ids: altered }, peers);
    }
  }
}

/** DELETE /users/me/subscriptions, decoded. */
export interface RemoveSubscriptionsInput {
  names: string[];
  principals: (string | number)[] | null;
}

/**
 * Unsubscribes the caller (or `principals`). Removing others (not oneself or one's own bots)
 * needs access to the channel and membership of its can_remove_subscribers_group (administrators).
 * Events: subscription remove to each unsubscribed user; peer_remove to the remaining audience;
 * stream delete to users who can no longer see the channel (non-admins leaving a private channel,
 * guests leaving a public one).
 */
export async function checkRemoveSubscriptions(ctx: AppContext, actor: UserRow, input: RemoveSubscriptionsInput): Promise<{ removed: string[]; not_removed: string[] }> {
  const names = input.names.map((n) => n.trim());
  return write(ctx, async (tx, outbox) => {
    const targets = input.principals && input.principals.length > 0 ? await resolvePrincipals(tx, actor, input.principals) : [actor];
    const others = targets.some((t) => t.id !== actor.id && !(t.is_bot && t.bot_owner_id === actor.id));
    const streams: StreamRow[] = [];
    const missing: string[] = [];
    for (const name of names) {
      const stream = await activeStreamByName(tx, actor.realm_id, name);
      if (!stream) missing.push(name);
      else if (!streams.some((s) => s.id === stream.id)) streams.push(stream);
    }
    if (missing.length > 0) throw badRequest(`Channel(s) (${missing.join(", ")}) do not exist`);
    if (others) {
      const mine = new Set((await subscriptionsOfUser(tx, actor.id)).filter((s) => s.active).map((s) => s.stream_id));
      for (const stream of streams) {
        const visible = canAccessStream(actor, stream, mine.has(stream.id)) || isAdmin(actor);
        if (!visible || !(await inStreamGroup(tx, stream.can_remove_subscribers_group, actor))) throw badRequest("Insufficient permission");
      }
    }
    const rows = await subscriptionRows(tx, targets.map((t) => t.id), streams.map((s) => s.id));
    const removed: { user: UserRow; stream: StreamRow }[] = [];
    const notRemoved: { user: UserRow; stream: StreamRow }[] = [];
    for (const user of targets) {
      for (const stream of streams) {
        const row = rows.find((r) => r.user_id === user.id && r.stream_id === stream.id);
        if (!row?.active) {
          notRemoved.push({ user, stream });
          continue;
        }
        await updateSubscription(tx, user.id, stream.id, { active: 0 });
        removed.push({ user, stream });
      }
    }
    if (removed.length > 0) await sendRemoveEvents(tx, outbox, removed);
    return { removed: removed.map((r) => r.stream.name), not_removed: notRemoved.map((r) => r.stream.name) };
  });
}

async function sendRemoveEvents(tx: Db, outbox: Outbox, removed: readonly { user: UserRow; stream: StreamRow }[]): Promise<void> {
  for (const user of uniqueUsers(removed.map((r) => r.user))) {
    const mine = removed.filter((r) => r.user.id === user.id).map((r) => ({ name: r.stream.name, stream_id: r.stream.id }));
    outbox.send({ type: "subscription", op: "remove", subscriptions: mine }, [user.id]);
  }
  const streams = uniqueStreams(removed.map((r) => r.stream));
  const subscribers = await subscriberIds(tx, streams.map((s) => s.id));
  await sendPeerEvents(tx, outbox, "peer_remove", removed, subscribers);
  for (const stream of streams) {
    const leavers = removed.filter((r) => r.stream.id === stream.id).map((r) => r.user);
    const blind = leavers.filter((u) => u.is_active && (stream.invite_only ? !isAdmin(u) : !stream.is_web_public && u.role === Role.GUEST));
    outbox.send({ type: "stream", op: "delete", streams: [apiStream(stream)] }, blind.map((u) => u.id));
  }
}

/** Subscribes a new human user to the realm's default channels (no events to the user: its queue does not exist yet). */
export async function subscribeToDefaultStreams(tx: Db, outbox: Outbox, user: UserRow): Promise<void> {
  const streams = await activeStreamsByIds(tx, await defaultStreamIds(tx, user.realm_id));
  if (streams.length > 0) await bulkAddSubscriptions(tx, outbox, [user], streams);
}

function uniqueStreams(streams: readonly StreamRow[]): StreamRow[] {
  return [...new Map(streams.map((s) => [s.id, s])).values()];
}

function uniqueUsers(users: readonly UserRow[]): UserRow[] {
  return [...new Map(users.map((u) => [u.id, u])).values()];
}

function mustFind(rows: readonly SubscriptionRow[], streamId: number): SubscriptionRow {
  const row = rows.find((r) => r.stream_id === streamId);
  if (!row) throw new Error("subscription vanished");
  return row;
}

/**
 * Marks a user's subscriptions as belonging to an (in)active user. On reactivation the user's
 * channels' audiences get peer_add for them again, as Zulip 9 does; on deactivation no peer event
 * is sent (clients drop the user on the realm_user deactivation event).
 */
export async function doSetSubscriptionsUserActive(tx: Db, outbox: Outbox, user: UserRow, active: boolean): Promise<void> {
  await setSubscriptionsUserActive(tx, user.id, active);
  if (!active) return;
  const ids = (await subscriptionsOfUser(tx, user.id)).filter((s) => s.active).map((s) => s.stream_id);
  const streams = await activeStreamsByIds(tx, ids);
  if (streams.length === 0) return;
  const revived = { ...user, is_active: 1 };
  await sendPeerEvents(tx, outbox, "peer_add", streams.map((stream) => ({ user: revived, stream })), await subscriberIds(tx, ids));
}
