import type { AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import { alertWordsOf } from "../db/queries/alert-words.js";
import type { StreamRow } from "../db/queries/streams.js";
import { insertUser, systemBotOf, type UserRow } from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";
import { normalizeContent, truncateTopic } from "../lib/messages/rules.js";
import { channelSlug, hashEncode } from "../markdown/inline/mentions.js";
import { renderContent } from "../lib/messages/render.js";
import { INTERNAL_CLIENT, NOTIFICATION_BOT, notificationBotRow, systemBotRow, WELCOME_BOT, type SystemBot } from "../db/system-bots.js";
import { doSendMessage } from "./messages.js";

/** Creates a new realm's Notification Bot (Zulip's cross-realm bot, one copy per realm here). */
export async function createNotificationBot(tx: Db, realmId: number, now: number): Promise<void> {
  await insertUser(tx, notificationBotRow(realmId, now));
}

/** Creates a new realm's Welcome Bot (Zulip's cross-realm bot, one copy per realm here). */
export async function createWelcomeBot(tx: Db, realmId: number, now: number): Promise<void> {
  await insertUser(tx, systemBotRow(WELCOME_BOT, realmId, now));
}

/**
 * Sends a direct message from one of the realm's system bots (Notification Bot unless told)
 * inside the caller's transaction (Zulip's internal_send_private_message), so a change that fails
 * announces nothing.
 */
export async function internalSendDirect(ctx: AppContext, tx: Db, outbox: Outbox, recipient: UserRow, text: string, from: SystemBot = NOTIFICATION_BOT): Promise<number> {
  // As check_message does for every message (trailing newlines of a list go).
  const content = normalizeContent(text);
  const bot = await systemBotOf(tx, recipient.realm_id, from.email);
  if (!bot) throw new Error(`realm ${recipient.realm_id} has no ${from.fullName}`);
  // Reads go through the transaction: on SQLite it holds the only connection.
  const rendered = await renderContent(ctx, tx, bot.realm_id, content);
  const alertWords = new Map([[recipient.id, await alertWordsOf(tx, recipient.id)]]);
  const to = { kind: "direct" as const, userIds: [...new Set([bot.id, recipient.id])].sort((a, b) => a - b) };
  return doSendMessage(ctx, tx, outbox, bot, to, content, rendered, { client: INTERNAL_CLIENT, readBySender: false, alertWords });
}

/**
 * Sends a channel message from one of the realm's system bots (Notification Bot unless told)
 * inside the caller's transaction (Zulip's internal_send_stream_message).
 */
export async function internalSendStream(
  ctx: AppContext,
  tx: Db,
  outbox: Outbox,
  stream: StreamRow,
  topic: string,
  text: string,
  opts: { limitUnreadUserIds?: ReadonlySet<number>; readFor?: ReadonlySet<number>; from?: SystemBot } = {},
): Promise<number> {
  const { limitUnreadUserIds, readFor, from = NOTIFICATION_BOT } = opts;
  const content = normalizeContent(text);
  const bot = await systemBotOf(tx, stream.realm_id, from.email);
  if (!bot) throw new Error(`realm ${stream.realm_id} has no ${from.fullName}`);
  const rendered = await renderContent(ctx, tx, bot.realm_id, content);
  const to = { kind: "stream" as const, stream, topic: truncateTopic(topic) };
  return doSendMessage(ctx, tx, outbox, bot, to, content, rendered, { client: INTERNAL_CLIENT, readBySender: false, limitUnreadUserIds, readFor });
}

/** A finished move, as the Notification Bot reports it (Zulip's send_message_moved_breadcrumbs). */
export interface MoveNotice {
  actor: UserRow;
  oldStream: StreamRow;
  oldTopic: string;
  newStream: StreamRow;
  newTopic: string;
  /** The message the request named, linked to when it moved alone into a topic with history. */
  targetId: number;
  count: number;
  /** Every message of the old topic the actor could see moved. */
  movedAll: boolean;
  /** The destination topic had messages the actor could see before the move. */
  joinedExisting: boolean;
  toOldThread: boolean;
  toNewThread: boolean;
}

/** Posts the move notices into the new topic, then the old one (Zulip 9's texts). */
export async function notifyMessagesMoved(ctx: AppContext, tx: Db, outbox: Outbox, realmUrl: string, n: MoveNotice): Promise<void> {
  const user = silentMention(n.actor);
  const oldLocation = `#**${n.oldStream.name}>${n.oldTopic}**`;
  const newLocation = `#**${n.newStream.name}>${n.newTopic}**`;
  if (n.toNewThread) {
    const link = `${realmUrl}/#narrow/channel/${channelSlug(n.newStream.id, n.newStream.name)}/topic/${hashEncode(n.newTopic)}/near/${n.targetId}`;
    const text =
      n.movedAll && !n.joinedExisting
        ? `This topic was moved here from ${oldLocation} by ${user}.`
        : n.count === 1
          ? `[A message](${link}) was moved here from ${oldLocation} by ${user}.`
          : `${n.count} messages were moved here from ${oldLocation} by ${user}.`;
    await internalSendStream(ctx, tx, outbox, n.newStream, n.newTopic, text);
  }
  if (n.toOldThread) {
    const text = n.movedAll
      ? `This topic was moved to ${newLocation} by ${user}.`
      : n.count === 1
        ? `A message was moved from this topic to ${newLocation} by ${user}.`
        : `${n.count} messages were moved from this topic to ${newLocation} by ${user}.`;
    await internalSendStream(ctx, tx, outbox, n.oldStream, n.oldTopic, text);
  }
}

/**
 * Zulip 9's resolve-topic notice in the topic's new place; it stays unread only for the moved
 * messages' senders and reactors. Returns its id.
 */
export async function notifyTopicResolved(ctx: AppContext, tx: Db, outbox: Outbox, actor: UserRow, stream: StreamRow, topic: string, resolved: boolean, participants: ReadonlySet<number>): Promise<number> {
  const text = `${silentMention(actor)} has marked this topic as ${resolved ? "resolved" : "unresolved"}.`;
  return internalSendStream(ctx, tx, outbox, stream, topic, text, { limitUnreadUserIds: participants });
}

/** Zulip's silent_mention_syntax_for_user. */
function silentMention(user: UserRow): string {
  return `@_**${user.full_name}|${user.id}**`;
}

/**
 * Tells the inviter that their invitee joined (zerver/actions/create_user.py process_new_human_user:
 * only when the invitation asked for it and the inviter is still active).
 */
export async function notifyReferrerOfJoin(ctx: AppContext, tx: Db, outbox: Outbox, referrer: UserRow | undefined, newUser: UserRow): Promise<void> {
  if (!referrer || !referrer.is_active) return;
  await internalSendDirect(ctx, tx, outbox, referrer, `${silentMention(newUser)} accepted your invitation to join Zulip!`);
}

/**
 * Zulip 9's send_messages_for_new_subscribers (zerver/views/streams.py): each user someone else
 * subscribed, other than bots, hears which already-existing channels they were added to.
 */
export async function notifyNewSubscribers(
  ctx: AppContext,
  tx: Db,
  outbox: Outbox,
  actor: UserRow,
  added: readonly { user: UserRow; stream: StreamRow }[],
  created: readonly StreamRow[],
): Promise<void> {
  const createdIds = new Set(created.map((s) => s.id));
  const byUser = new Map<number, { user: UserRow; names: Set<string> }>();
  for (const { user, stream } of added) {
    if (user.id === actor.id || user.is_bot || createdIds.has(stream.id)) continue;
    const entry = byUser.get(user.id) ?? { user, names: new Set<string>() };
    entry.names.add(stream.name);
    byUser.set(user.id, entry);
  }
  for (const { user, names } of byUser.values()) {
    await internalSendDirect(ctx, tx, outbox, user, youWereJustSubscribed(actor, [...names]));
  }
}

/**
 * Zulip 9's notices of new channels (send_messages_for_new_subscribers, zerver/views/streams.py),
 * from Notification Bot and already read by the creator: with `announce`, one message listing
 * them in the realm's new-channel announcements channel (topic "new channels"); then, in each new
 * channel, who created it, its privacy and its description (topic "channel events").
 */
export async function notifyNewChannels(
  ctx: AppContext,
  tx: Db,
  outbox: Outbox,
  actor: UserRow,
  created: readonly StreamRow[],
  announcements: StreamRow | undefined,
): Promise<void> {
  if (created.length === 0) return;
  const readFor = new Set([actor.id]);
  if (announcements) {
    const names = created.map((s) => `#**${s.name}**`).join(", ");
    const text = created.length > 1 ? `${silentMention(actor)} created the following channels: ${names}.` : `${silentMention(actor)} created a new channel ${names}.`;
    await internalSendStream(ctx, tx, outbox, announcements, "new channels", text, { readFor });
  }
  for (const stream of created) {
    const description = stream.description === "" ? "*No description.*" : stream.description;
    const text = `**${permissionPolicyName(stream)}** channel created by ${silentMention(actor)}. **Description:**\n\`\`\`\` quote\n${description}\n\`\`\`\``;
    await internalSendStream(ctx, tx, outbox, stream, "channel events", text, { readFor });
  }
}

/** Zulip's Stream.PERMISSION_POLICIES names, from a channel's three privacy flags. */
function permissionPolicyName(stream: StreamRow): string {
  if (stream.is_web_public) return "Web-public";
  if (!stream.invite_only) return stream.history_public_to_subscribers ? "Public" : "Public, protected history";
  return stream.history_public_to_subscribers ? "Private, shared history" : "Private, protected history";
}

/** Zulip 9's you_were_just_subscribed_message text (a plain, not silent, mention of the actor). */
function youWereJustSubscribed(actor: UserRow, names: string[]): string {
  const mention = `@**${actor.full_name}|${actor.id}**`;
  const sorted = names.sort(codePointOrder);
  if (sorted.length === 1) return `${mention} subscribed you to the channel #**${sorted[0]}**.`;
  return `${mention} subscribed you to the following channels:\n\n${sorted.map((n) => `* #**${n}**\n`).join("")}`;
}

/** Python's string order (by code point), which Zulip's sorted() uses. */
function codePointOrder(a: string, b: string): number {
  const x = [...a].map((c) => c.codePointAt(0) ?? 0);
  const y = [...b].map((c) => c.codePointAt(0) ?? 0);
  for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] ?? 0) - (y[i] ?? 0);
  return x.length - y.length;
}
