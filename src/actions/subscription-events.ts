import type { Db } from "../db/index.js";
import type { StreamRow } from "../db/queries/streams.js";
import { subscriberIds, subscriptionRows, type SubscriptionRow } from "../db/queries/subscriptions.js";
import type { UserRow } from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";
import { isAdmin, Role } from "../lib/users/roles.js";
import { streamAudienceRecipients } from "../lib/channels/audience.js";
import { apiStream, apiSubscription } from "../lib/channels/streams.js";

/** One user's subscription to one channel that an action changed. */
export interface SubscriptionChange {
  user: UserRow;
  stream: StreamRow;
}

/**
 * Events of new subscriptions, in Zulip's order: stream create to new subscribers who could not
 * see the channel before (non-admins in private channels, guests in public ones); subscription add
 * (with subscribers) to each subscriber; peer_add to the channel's audience other than the new
 * subscribers — one event per new subscriber for private channels, one per channel otherwise.
 */
export async function sendAddEvents(tx: Db, outbox: Outbox, added: readonly SubscriptionChange[], options: { toNewcomers: boolean } = { toNewcomers: true }): Promise<void> {
  const streams = uniqueStreams(added.map((a) => a.stream));
  if (!options.toNewcomers) {
    // Accounts being created have no queue yet: only the channels' audiences hear of them.
    await sendPeerEvents(tx, outbox, "peer_add", added, undefined);
    return;
  }
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
 * Events of ended subscriptions: subscription remove to each unsubscribed user; peer_remove to the
 * remaining audience; stream delete to users who can no longer see the channel (non-admins leaving
 * a private channel, guests leaving a public one).
 */
export async function sendRemoveEvents(tx: Db, outbox: Outbox, removed: readonly SubscriptionChange[]): Promise<void> {
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

/**
 * peer_add / peer_remove to a channel's audience (computed on its subscribers after the change),
 * minus the users whose subscription changed.
 */
export async function sendPeerEvents(
  tx: Db,
  outbox: Outbox,
  op: "peer_add" | "peer_remove",
  changed: readonly SubscriptionChange[],
  subscribers: ReadonlyMap<number, number[]> | undefined,
): Promise<void> {
  for (const stream of uniqueStreams(changed.map((a) => a.stream))) {
    const altered = changed.filter((a) => a.stream.id === stream.id).map((a) => a.user.id).sort((a, b) => a - b);
    const peers = await streamAudienceRecipients(tx, stream, subscribers ? (subscribers.get(stream.id) ?? []) : undefined, altered);
    if (stream.invite_only) {
      for (const id of altered) outbox.sendTo({ type: "subscription", op, stream_ids: [stream.id], user_ids: [id] }, peers);
    } else {
      outbox.sendTo({ type: "subscription", op, stream_ids: [stream.id], user_ids: altered }, peers);
    }
  }
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
