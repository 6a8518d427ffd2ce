import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import type { RealmRow } from "../db/queries/realms.js";
import { activeStreamByName, activeStreamsByIds, addDefaultStream, defaultStreamIds, streamById, type StreamRow } from "../db/queries/streams.js";
import { insertSubscriptions, setSubscriptionsUserActive, subscriberIds, subscriptionRows, subscriptionsOfUser, updateSubscription } from "../db/queries/subscriptions.js";
import type { UserRow } from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";
import { badRequest, insufficientPermission } from "../base/errors.js";
import type { RealmGroups } from "../caches/groups.js";
import { resolvePrincipals } from "../lib/users/principals.js";
import { realmProp } from "../lib/realm/props.js";
import { isAdmin, Role } from "../lib/users/roles.js";
import { canSubscribeOthers, inStreamGroup } from "../lib/channels/permissions.js";
import { canAccessStream, checkStreamName, pickColors } from "../lib/channels/streams.js";
import { notifyNewChannels, notifyNewSubscribers } from "./notification-bot.js";
import { sendAddEvents, sendPeerEvents, sendRemoveEvents, type SubscriptionChange } from "./subscription-events.js";
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
  /** Announce the channels this request creates in the new-channel announcements channel. */
  announce: boolean;
  settings: Omit<NewStream, "name" | "description">;
}

/** The response of POST /users/me/subscriptions at feature level 275 (keys are API emails). */
export interface AddSubscriptionsResult {
  subscribed: Record<string, string[]>;
  already_subscribed: Record<string, string[]>;
  unauthorized?: string[];
}

/** DELETE /users/me/subscriptions, decoded. */
export interface RemoveSubscriptionsInput {
  names: string[];
  principals: (string | number)[] | null;
}

/** The response of DELETE /users/me/subscriptions. */
export type RemoveSubscriptionsResult = {
  removed: string[];
  not_removed: string[];
};

/**
 * Subscribes the caller (or `principals`) to channels, creating missing ones, with Zulip's checks
 * in order: guests refused, names, creation permissions, access to existing private channels,
 * then the principals. Events: see sendAddEvents, plus Notification Bot's messages.
 */
export async function checkAddSubscriptions(ctx: AppContext, actor: UserRow, input: AddSubscriptionsInput): Promise<AddSubscriptionsResult> {
  const plan = await planAdd(ctx, actor, input);
  return write(ctx, (tx, outbox) => addSubscriptionsIn(ctx, tx, outbox, actor, plan));
}

/**
 * Unsubscribes the caller (or `principals`). Removing others (not oneself or one's own bots)
 * needs access to the channel and membership of its can_remove_subscribers_group (administrators).
 * Events: see sendRemoveEvents.
 */
export async function checkRemoveSubscriptions(ctx: AppContext, actor: UserRow, input: RemoveSubscriptionsInput): Promise<RemoveSubscriptionsResult> {
  return write(ctx, (tx, outbox) => removeSubscriptionsIn(tx, outbox, actor, input));
}

/**
 * PATCH /users/me/subscriptions (Zulip's update_subscriptions_backend): the subscribe of
 * checkAddSubscriptions, then the unsubscribe of checkRemoveSubscriptions, in one transaction —
 * either fails and neither happens — answering both results merged. The subscribe runs even with
 * nothing to add, so guests are refused and principals are checked as for POST.
 */
export async function checkUpdateSubscriptions(
  ctx: AppContext,
  actor: UserRow,
  input: { add: AddSubscriptionsInput; remove: RemoveSubscriptionsInput },
): Promise<AddSubscriptionsResult & RemoveSubscriptionsResult> {
  const plan = await planAdd(ctx, actor, input.add);
  return write(ctx, async (tx, outbox) => {
    const added = await addSubscriptionsIn(ctx, tx, outbox, actor, plan);
    return { ...added, ...(await removeSubscriptionsIn(tx, outbox, actor, input.remove)) };
  });
}

/** A subscribe request past the checks that need no transaction. */
interface AddPlan {
  input: AddSubscriptionsInput;
  realm: RealmRow;
  groups: RealmGroups;
  specs: NewStream[];
}

async function planAdd(ctx: AppContext, actor: UserRow, input: AddSubscriptionsInput): Promise<AddPlan> {
  if (actor.role === Role.GUEST) throw badRequest("Not allowed for guest users");
  const realm = await mustGetRealm(ctx, actor.realm_id);
  const specs = input.subscriptions.map((s) => ({
    ...input.settings,
    name: s.name.trim(),
    description: (s.description ?? "").replace(/\n/g, " "),
  }));
  for (const spec of specs) checkStreamName(spec.name);
  return { input, realm, groups: await ctx.groups.of(realm.id), specs };
}

async function addSubscriptionsIn(ctx: AppContext, tx: Db, outbox: Outbox, actor: UserRow, plan: AddPlan): Promise<AddSubscriptionsResult> {
  const { input, realm, groups, specs } = plan;
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
  const actorSubs = await activeStreamIdsOf(tx, actor.id);
  const unauthorized = existing.filter((s) => !canAccessStream(actor, s, actorSubs.has(s.id)));
  if (unauthorized[0] && input.authorizationErrorsFatal) throw badRequest(`Unable to access channel (${unauthorized[0].name}).`);
  const authorized = existing.filter((s) => !unauthorized.includes(s));
  const subscribers = input.principals && input.principals.length > 0 ? await resolvePrincipals(tx, actor, input.principals) : [actor];
  if (subscribers.some((u) => u.id !== actor.id) && !canSubscribeOthers(realm, actor)) throw insufficientPermission();
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
  await notifyNewSubscribers(ctx, tx, outbox, actor, added, created);
  const announcements = input.announce && created.length > 0 ? await newChannelAnnouncementsStream(tx, realm) : undefined;
  await notifyNewChannels(ctx, tx, outbox, actor, created, announcements);
  const result: AddSubscriptionsResult = { subscribed: groupNames(added), already_subscribed: groupNames(already) };
  if (!input.authorizationErrorsFatal) result.unauthorized = unauthorized.map((s) => s.name);
  return result;
}

/**
 * Zulip's order (list_to_streams): principals, every name valid, permission to remove others
 * from each existing channel, then the channels that do not exist.
 */
async function removeSubscriptionsIn(tx: Db, outbox: Outbox, actor: UserRow, input: RemoveSubscriptionsInput): Promise<RemoveSubscriptionsResult> {
  const targets = input.principals && input.principals.length > 0 ? await resolvePrincipals(tx, actor, input.principals) : [actor];
  const others = targets.some((t) => t.id !== actor.id && !(t.is_bot && t.bot_owner_id === actor.id));
  const names = input.names.map((n) => n.trim());
  for (const name of names) checkStreamName(name);
  const streams: StreamRow[] = [];
  const missing: string[] = [];
  for (const name of names) {
    const stream = await activeStreamByName(tx, actor.realm_id, name);
    if (!stream) missing.push(name);
    else if (!streams.some((s) => s.id === stream.id)) streams.push(stream);
  }
  if (others) {
    const mine = await activeStreamIdsOf(tx, actor.id);
    for (const stream of streams) {
      const visible = canAccessStream(actor, stream, mine.has(stream.id)) || isAdmin(actor);
      if (!visible || !(await inStreamGroup(tx, stream.can_remove_subscribers_group, actor))) throw insufficientPermission();
    }
  }
  if (missing.length > 0) throw badRequest(`Channel(s) (${missing.join(", ")}) do not exist`);
  const rows = await subscriptionRows(tx, targets.map((t) => t.id), streams.map((s) => s.id));
  const removed: SubscriptionChange[] = [];
  const notRemoved: SubscriptionChange[] = [];
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
}

/** The realm's new-channel announcements channel, when it names an active one (Zulip's get_new_stream_announcements_stream). */
async function newChannelAnnouncementsStream(tx: Db, realm: RealmRow): Promise<StreamRow | undefined> {
  const id = realmProp(realm, "new_stream_announcements_stream_id");
  if (typeof id !== "number" || id < 0) return undefined;
  const stream = await streamById(tx, id);
  return stream && stream.realm_id === realm.id && stream.deactivated === 0 ? stream : undefined;
}

function groupNames(pairs: readonly SubscriptionChange[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const { user, stream } of pairs) (out[user.email] ??= []).push(stream.name);
  return out;
}

async function activeStreamIdsOf(db: Db, userId: number): Promise<Set<number>> {
  return new Set((await subscriptionsOfUser(db, userId)).filter((s) => s.active).map((s) => s.stream_id));
}

/**
 * Subscribes users to channels (reactivating old rows with their old settings); events as
 * sendAddEvents describes.
 */
export async function bulkAddSubscriptions(
  tx: Db,
  outbox: Outbox,
  users: readonly UserRow[],
  streams: readonly StreamRow[],
  requestedColors: ReadonlyMap<number, string> = new Map(),
  options: { toNewcomers: boolean } = { toNewcomers: true },
): Promise<{ added: SubscriptionChange[]; already: SubscriptionChange[] }> {
  const rows = await subscriptionRows(tx, users.map((u) => u.id), streams.map((s) => s.id));
  const rowOf = (userId: number, streamId: number) => rows.find((r) => r.user_id === userId && r.stream_id === streamId);
  const added: SubscriptionChange[] = [];
  const already: SubscriptionChange[] = [];
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
  if (added.length > 0) await sendAddEvents(tx, outbox, added, options);
  return { added, already };
}

/** Subscribes a new human user to the realm's default channels (no events to the user: its queue does not exist yet). */
export async function subscribeToDefaultStreams(tx: Db, outbox: Outbox, user: UserRow): Promise<void> {
  const streams = await activeStreamsByIds(tx, await defaultStreamIds(tx, user.realm_id));
  if (streams.length > 0) await bulkAddSubscriptions(tx, outbox, [user], streams, new Map(), { toNewcomers: false });
}

/**
 * Marks a user's subscriptions as belonging to an (in)active user. On reactivation the user's
 * channels' audiences get peer_add for them again, as Zulip 9 does; on deactivation no peer event
 * is sent (clients drop the user on the realm_user deactivation event).
 */
export async function doSetSubscriptionsUserActive(tx: Db, outbox: Outbox, user: UserRow, active: boolean): Promise<void> {
  await setSubscriptionsUserActive(tx, user.id, active);
  if (!active) return;
  const ids = [...(await activeStreamIdsOf(tx, user.id))];
  const streams = await activeStreamsByIds(tx, ids);
  if (streams.length === 0) return;
  const revived = { ...user, is_active: 1 };
  await sendPeerEvents(tx, outbox, "peer_add", streams.map((stream) => ({ user: revived, stream })), await subscriberIds(tx, ids));
}
