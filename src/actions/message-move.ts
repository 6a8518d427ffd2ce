import type { AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import {
  deleteUserMessageRows,
  insertUserMessageRows,
  messagesByIds,
  receivedMessageIds,
  setUserMessageFlags,
  topicMessageIds,
  userMessageRows,
  userMessagesOf,
  type MessageRow,
} from "../db/queries/messages.js";
import { reactorIds } from "../db/queries/reactions.js";
import type { StreamRow } from "../db/queries/streams.js";
import { subscriberIds, subscriptionUserIds, topicPolicies } from "../db/queries/subscriptions.js";
import { guestIdsAmong, type UserRow } from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";
import { Flag, RENDER_BITS, recipientFlags } from "../lib/messages/flags.js";
import { canAccessStreamHistory } from "../lib/messages/access.js";
import { resolvesTopic, stripResolvedPrefix, type EditInput } from "../lib/messages/edit-rules.js";
import type { Rendered } from "../lib/messages/render.js";
import { Role } from "../lib/users/roles.js";
import { VisibilityPolicy } from "../lib/channels/user-topics.js";
import { notifyMessagesMoved, notifyTopicResolved } from "./notification-bot.js";
import { putUserTopic } from "./user-topics.js";

/** Where an edit takes messages from and to. */
export interface MovePlace {
  oldStream: StreamRow;
  origTopic: string;
  targetStream: StreamRow;
  targetTopic: string;
}

/** Who a channel move affected. */
export interface MovedUsers {
  /** Users who can no longer read the messages (they were sent delete_message). */
  losingAccess: Set<number>;
  /** Old-channel subscribers without a row to hear of the move (history shared with subscribers). */
  notifiedSubscribers: number[];
}

/** A content edit re-derives each holder's mention and alert-word bits from the new rendering. */
export async function applyContentEdit(tx: Db, message: MessageRow, rendered: Rendered): Promise<void> {
  for (const row of await userMessagesOf(tx, message.id)) {
    const bits = recipientFlags({
      userId: row.user_id,
      senderId: message.sender_id,
      isDirect: message.stream_id === null,
      readBySender: false,
      senderMuted: false,
      mentionedUserIds: rendered.mentionedUserIds,
      groupMentionedUserIds: rendered.groupMemberIds,
      streamWildcard: rendered.streamWildcard,
      topicWildcardApplies: false,
    });
    const flags = (row.flags & ~RENDER_BITS) | (bits & RENDER_BITS);
    if (flags !== row.flags) await setUserMessageFlags(tx, row.user_id, message.id, flags);
  }
}

/**
 * Zulip's per-user rows for a channel move: everyone ever subscribed to the old channel and not
 * subscribed to the new one loses their rows; those of them who cannot read the new channel
 * (everyone for a private one, guests for a public one) get delete_message. Subscribers of a new
 * channel with protected history get read rows. Users who keep access but lose unread rows get
 * update_message_flags (read), so their unread counts follow the server's.
 */
export async function moveUserMessages(tx: Db, outbox: Outbox, move: { ids: readonly number[]; oldStream: StreamRow; newStream: StreamRow; origTopic: string }): Promise<MovedUsers> {
  const { ids, oldStream, newStream } = move;
  const oldAll = await subscriptionUserIds(tx, oldStream.id, true);
  const newCurrent = new Set(await subscriptionUserIds(tx, newStream.id, false));
  const losingRows = oldAll.filter((id) => !newCurrent.has(id));
  const guests = new Set(await guestIdsAmong(tx, oldAll, Role.GUEST));
  const losingAccess = new Set(newStream.invite_only ? losingRows : losingRows.filter((id) => guests.has(id)));
  const sorted = [...ids].sort((a, b) => a - b);
  for (const [userId, rows] of await userMessageRows(tx, losingRows.filter((id) => !losingAccess.has(id)), ids)) {
    const unread = [...rows].filter(([, flags]) => (flags & Flag.read) === 0).map(([id]) => id).sort((a, b) => a - b);
    if (unread.length > 0) outbox.send({ type: "update_message_flags", op: "add", operation: "add", flag: "read", messages: unread, all: false }, [userId]);
  }
  if (!newStream.history_public_to_subscribers) await insertUserMessageRows(tx, [...newCurrent], ids, Flag.read);
  await deleteUserMessageRows(tx, losingRows, ids);
  outbox.send({ type: "delete_message", message_ids: sorted, message_type: "stream", stream_id: oldStream.id, topic: move.origTopic }, [...losingAccess].sort((a, b) => a - b));
  const notifiedSubscribers = oldStream.history_public_to_subscribers
    ? ((await subscriberIds(tx, [oldStream.id])).get(oldStream.id) ?? []).filter((id) => !losingAccess.has(id))
    : [];
  return { losingAccess, notifiedSubscribers };
}

/**
 * Whether the edit took every message of the old topic the actor can read (Zulip's
 * moved_all_visible_messages): always for change_all, else when none they can read stayed.
 */
export async function movedAllVisible(tx: Db, user: UserRow, place: MovePlace, mode: EditInput["propagateMode"]): Promise<boolean> {
  if (mode === "change_all") return true;
  return !(await anyVisible(tx, user, place.oldStream, await topicMessageIds(tx, place.oldStream.id, place.origTopic)));
}

/**
 * A whole-topic move carries the users' visibility policies to the new place (Zulip's rules):
 * users losing access lose the policy; where the destination already had messages the two
 * policies merge, the more visible winning.
 */
export async function moveUserTopics(tx: Db, outbox: Outbox, place: MovePlace, opts: { targetHadMessages: boolean; losingAccess: ReadonlySet<number>; now: number }): Promise<void> {
  const { oldStream, origTopic, targetStream, targetTopic } = place;
  // A rename that only changes letter case keeps the same rows.
  if (oldStream.id === targetStream.id && origTopic.toLowerCase() === targetTopic.toLowerCase()) return;
  const orig = new Map<number, number>();
  for (const r of await topicPolicies(tx, oldStream.id, origTopic)) {
    if (opts.losingAccess.has(r.user_id)) await putUserTopic(tx, outbox, r.user_id, oldStream.id, origTopic, VisibilityPolicy.INHERIT, opts.now);
    else orig.set(r.user_id, r.visibility_policy);
  }
  const target = new Map((await topicPolicies(tx, targetStream.id, targetTopic)).map((r) => [r.user_id, r.visibility_policy]));
  for (const userId of [...new Set([...orig.keys(), ...target.keys()])].sort((a, b) => a - b)) {
    const from = orig.get(userId) ?? VisibilityPolicy.INHERIT;
    const to = target.get(userId) ?? VisibilityPolicy.INHERIT;
    if (from !== VisibilityPolicy.INHERIT) await putUserTopic(tx, outbox, userId, oldStream.id, origTopic, VisibilityPolicy.INHERIT, opts.now, false);
    const merged = opts.targetHadMessages ? mergedPolicy(from, to) : from;
    if (merged !== to) await putUserTopic(tx, outbox, userId, targetStream.id, targetTopic, merged, opts.now);
  }
}

/** What the Notification Bot needs to know about a finished move. */
export interface MoveNoticeInput extends MovePlace {
  targetId: number;
  ids: readonly number[];
  movedAll: boolean;
  streamChanged: boolean;
  /** The requested topic before truncation, when the topic changed. */
  preTruncationTopic: string | undefined;
  contentEdited: boolean;
  input: EditInput;
}

/**
 * Zulip 9's notices after a move: the resolve/unresolve notice in the new place, then (as asked)
 * the breadcrumbs in the new and old topics. A move that only resolves a topic gets no
 * "moved here" notice: the resolve notice says it.
 */
export async function sendMoveNotices(ctx: AppContext, tx: Db, outbox: Outbox, user: UserRow, n: MoveNoticeInput): Promise<void> {
  let resolvedId: number | undefined;
  const resolved = n.preTruncationTopic !== undefined && !n.contentEdited ? resolvesTopic(n.origTopic, n.targetTopic) : undefined;
  if (resolved !== undefined) {
    resolvedId = await notifyTopicResolved(ctx, tx, outbox, user, n.targetStream, n.targetTopic, resolved, await participants(tx, n.ids));
  }
  const renamed = n.preTruncationTopic !== undefined && stripResolvedPrefix(n.origTopic) !== stripResolvedPrefix(n.preTruncationTopic);
  const toNewThread = n.input.sendNotificationToNewThread && (n.streamChanged || resolvedId === undefined || renamed);
  const toOldThread = n.input.sendNotificationToOldThread;
  if (!toNewThread && !toOldThread) return;
  const skip = new Set([...n.ids, ...(resolvedId === undefined ? [] : [resolvedId])]);
  const preexisting = (await topicMessageIds(tx, n.targetStream.id, n.targetTopic)).filter((id) => !skip.has(id));
  await notifyMessagesMoved(ctx, tx, outbox, ctx.config.externalUrl, {
    actor: user,
    oldStream: n.oldStream,
    oldTopic: n.origTopic,
    newStream: n.targetStream,
    newTopic: n.targetTopic,
    targetId: n.targetId,
    count: n.ids.length,
    movedAll: n.movedAll,
    joinedExisting: await anyVisible(tx, user, n.targetStream, preexisting),
    toOldThread,
    toNewThread,
  });
}

/** Zulip's get_visibility_policy_after_merge: equal stays, unmuted wins, otherwise inherit. */
function mergedPolicy(a: number, b: number): number {
  if (a === b) return a;
  return a === VisibilityPolicy.UNMUTED || b === VisibilityPolicy.UNMUTED ? VisibilityPolicy.UNMUTED : VisibilityPolicy.INHERIT;
}

/** Whether the user can read any of these channel messages (Zulip's bulk_access_stream_messages_query). */
async function anyVisible(tx: Db, user: UserRow, stream: StreamRow, ids: readonly number[]): Promise<boolean> {
  if (ids.length === 0) return false;
  if (await canAccessStreamHistory(tx, user, stream)) return true;
  return (await receivedMessageIds(tx, user.id, ids)).size > 0;
}

/** Senders of the moved messages and users who reacted to them: the resolve notice stays unread for them only. */
async function participants(tx: Db, ids: readonly number[]): Promise<Set<number>> {
  const out = await reactorIds(tx, ids);
  for (const m of await messagesByIds(tx, ids)) out.add(m.sender_id);
  return out;
}
