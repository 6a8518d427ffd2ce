import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import { doClaimAttachments } from "./uploads.js";
import { linkedPathIds } from "../uploads/paths.js";
import { setMessageImageUrls } from "../db/queries/message-image-urls.js";
import { settlePlaceholders } from "../lib/messages/attachments.js";
import { insertMessage, insertUserMessages, updateMessage, recipientId, RecipientType, streamRecipients, topicSenderIds, usersMutingSender } from "../db/queries/messages.js";
import { topicReactorIds } from "../db/queries/reactions.js";
import type { RealmRow } from "../db/queries/realms.js";
import { activeStreamByName, streamById, type StreamRow } from "../db/queries/streams.js";
import { userByApiEmail, userById, type UserRow } from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";
import { ApiError, badRequest } from "../base/errors.js";
import { Flag, flagList, recipientFlags } from "../lib/messages/flags.js";
import { isSubscribed } from "../lib/messages/access.js";
import { messageDict, MessageLookups } from "../lib/messages/dict.js";
import { subscriberIds } from "../db/queries/subscriptions.js";
import { checkStreamPostPolicy, checkTopic, messageSettings, normalizeContent, privateRecipients, streamIndicator, streamNameDoesNotExist, truncateTopic, WILDCARD_MENTION_THRESHOLD, wildcardMentionAllowed, type MessageSettings } from "../lib/messages/rules.js";
import { dmKey } from "../lib/messages/narrow.js";
import { alertWordsMatch } from "../lib/users/alert-words.js";
import { renderContent, type Rendered } from "../lib/messages/render.js";
import { checkCanSendDirectMessage } from "../lib/messages/dm-permissions.js";
import { checkUserGroupMentionAllowed } from "../lib/groups/user-groups.js";
import { Role } from "../lib/users/roles.js";
import { realmSetting } from "../lib/realm/props.js";
import { streamIdDoesNotExist } from "../lib/channels/streams.js";
import { doCreateWidget } from "./submessages.js";

/** The topic clients put on a channel message sent without one. */
const NO_TOPIC = "(no topic)";

/** A send request as POST /messages decodes it. */
export interface SendInput {
  type: "stream" | "private";
  /** The raw `to` parameter. */
  to: string | undefined;
  topic: string | undefined;
  content: string;
  client: string;
  readBySender: boolean | undefined;
  /** The sender's queue and the client's id for the message, echoed to that queue alone. */
  senderQueue?: SenderQueue;
}

/** POST /messages' `queue_id` and `local_id`. */
export interface SenderQueue {
  queueId: string;
  localId: string;
}

/** Where a message goes once its addressee is resolved. */
export type Destination = { kind: "stream"; stream: StreamRow; topic: string } | { kind: "direct"; userIds: number[] };

// Clients that are a person typing (Zulip's Client.default_read_by_sender).
const HUMAN_CLIENTS = new Set(["zulipandroid", "zulipios", "zulipdesktop", "zulipmobile", "zulipelectron", "zulipterminal", "snipe", "website", "ios", "android"]);

/** Whether a client name is an interactive app, whose sender's own copy starts read. */
export function sentByHuman(client: string): boolean {
  const name = client.toLowerCase();
  return HUMAN_CLIENTS.has(name) || name.includes("desktop app");
}

/** Who a message is for before anything is looked up (Zulip's Addressee): a channel by id, name or row, or users by id or email. */
export type Addressee =
  | { kind: "stream"; stream: number | string | StreamRow | undefined; topic: string | undefined }
  | { kind: "direct"; recipients: readonly (number | string)[] };

/** A message that passed Zulip's check_message: where it goes, its normalised content and its rendering. */
export interface CheckedMessage {
  destination: Destination;
  content: string;
  rendered: Rendered;
  realm: RealmRow | undefined;
}

/** Validates and authorises a send (Zulip's check_message), then sends. Returns the new id. */
export async function checkSendMessage(ctx: AppContext, sender: UserRow, input: SendInput): Promise<number> {
  const addressee: Addressee =
    input.type === "stream"
      ? { kind: "stream", stream: input.to === undefined ? undefined : streamIndicator(input.to), topic: input.topic }
      : { kind: "direct", recipients: input.to === undefined ? [] : privateRecipients(input.to) };
  const checked = await checkMessage(ctx, sender, addressee, input.content);
  const readBySender = input.readBySender ?? sentByHuman(input.client);
  // Read before the write: on SQLite the transaction holds the only connection.
  const alertWords = await ctx.alertWords.byUser(sender.realm_id);
  return write(ctx, (tx, outbox) =>
    doSendMessage(ctx, tx, outbox, sender, checked.destination, checked.content, checked.rendered, {
      client: input.client,
      readBySender,
      senderQueue: input.senderQueue,
      realm: checked.realm,
      alertWords,
    }),
  );
}

/**
 * Zulip's check_message: resolves the addressee, normalises the content, checks that the sender
 * may post there (channel policy and access, direct-message policy, wildcard and group mentions)
 * and renders it. Scheduling a message runs it, and so does sending one at its time.
 */
export async function checkMessage(ctx: AppContext, sender: UserRow, addressee: Addressee, rawContent: string): Promise<CheckedMessage> {
  const destination = await resolveAddressee(ctx.db, sender, addressee);
  const content = normalizeContent(rawContent);
  const realm = await ctx.realms.get(sender.realm_id);
  if (destination.kind === "stream") {
    await checkCanSendToStream(ctx, sender, destination.stream);
    // Clients send "(no topic)" for a message without one; an organisation may require topics.
    if (realm && realmSetting(realm, "mandatory_topics") && destination.topic === NO_TOPIC) throw badRequest("Topics are required in this organization");
  } else if (realm) await checkCanSendDirectMessage(ctx.db, await ctx.groups.of(realm.id), realm, sender, await participantRows(ctx, destination.userIds));
  const rendered = await renderContent(ctx, ctx.db, sender.realm_id, content, sender);
  if (destination.kind === "stream") await checkWildcardMentions(ctx, sender, destination, rendered, messageSettings(realm));
  if (rendered.mentionedGroupIds.size > 0) checkUserGroupMentionAllowed(await ctx.groups.of(sender.realm_id), sender, rendered.mentionedGroupIds);
  return { destination, content, rendered, realm };
}

// Larger ids exist in no table (and PostgreSQL refuses to compare an integer column with them).
const MAX_ID = 2 ** 31 - 1;

async function resolveAddressee(db: Db, sender: UserRow, addressee: Addressee): Promise<Destination> {
  if (addressee.kind === "stream") {
    const indicator = addressee.stream;
    if (indicator === undefined) throw badRequest("Missing channel");
    if (addressee.topic === undefined) throw badRequest("Missing topic");
    const topic = truncateTopic(checkTopic(addressee.topic));
    if (typeof indicator === "object") return { kind: "stream", stream: indicator, topic };
    if (typeof indicator === "number") {
      const stream = Math.abs(indicator) <= MAX_ID ? await streamById(db, indicator) : undefined;
      if (!stream || stream.realm_id !== sender.realm_id || stream.deactivated) throw streamIdDoesNotExist(indicator);
      return { kind: "stream", stream, topic };
    }
    const stream = await activeStreamByName(db, sender.realm_id, indicator);
    if (!stream) throw streamNameDoesNotExist(indicator);
    return { kind: "stream", stream, topic };
  }
  if (addressee.recipients.length === 0) throw badRequest("Message must have recipients");
  const ids = new Set<number>([sender.id]);
  for (const key of addressee.recipients) {
    const user = typeof key === "number" ? (Math.abs(key) <= MAX_ID ? await userById(db, key) : undefined) : await userByApiEmail(db, sender.realm_id, key);
    if (!user || user.realm_id !== sender.realm_id) throw badRequest(typeof key === "number" ? `Invalid user ID ${key}` : `Invalid email '${key}'`);
    if (!user.is_active) throw badRequest(`'${user.email}' is no longer using Zulip.`);
    ids.add(user.id);
  }
  return { kind: "direct", userIds: [...ids].sort((a, b) => a - b) };
}

async function participantRows(ctx: AppContext, ids: readonly number[]): Promise<UserRow[]> {
  const users = await Promise.all(ids.map((id) => ctx.users.get(id)));
  return users.filter((u): u is UserRow => u !== undefined);
}

/** Wildcard mentions reaching more than WILDCARD_MENTION_THRESHOLD people need the realm's permission. */
async function checkWildcardMentions(ctx: AppContext, sender: UserRow, to: Extract<Destination, { kind: "stream" }>, rendered: Rendered, settings: MessageSettings): Promise<void> {
  if (!rendered.streamWildcard && !rendered.topicWildcard) return;
  if (wildcardMentionAllowed(sender, settings, ctx.clock.now())) return;
  if (rendered.streamWildcard && ((await subscriberIds(ctx.db, [to.stream.id])).get(to.stream.id) ?? []).length > WILDCARD_MENTION_THRESHOLD) {
    throw new ApiError("You do not have permission to use channel wildcard mentions in this channel.", "STREAM_WILDCARD_MENTION_NOT_ALLOWED", 400);
  }
  if (rendered.topicWildcard && (await topicParticipants(ctx.db, to.stream.id, to.topic, sender.id)).size > WILDCARD_MENTION_THRESHOLD) {
    throw new ApiError("You do not have permission to use topic wildcard mentions in this topic.", "TOPIC_WILDCARD_MENTION_NOT_ALLOWED", 400);
  }
}

/** Zulip's access_stream_for_send_message: post policy, then who may post to a private channel. */
async function checkCanSendToStream(ctx: AppContext, sender: UserRow, stream: StreamRow): Promise<void> {
  const settings = messageSettings(await ctx.realms.get(sender.realm_id));
  const owner = sender.is_bot && sender.bot_owner_id !== null ? await ctx.users.get(sender.bot_owner_id) : undefined;
  try {
    checkStreamPostPolicy(sender, stream, settings, ctx.clock.now());
  } catch (error) {
    // A bot may post wherever its owner may.
    if (!owner) throw error;
    checkStreamPostPolicy(owner, stream, settings, ctx.clock.now());
  }
  if (stream.is_web_public) return;
  if (!stream.invite_only && sender.role !== Role.GUEST) return;
  if (await isSubscribed(ctx.db, sender.id, stream.id)) return;
  if (owner && (await isSubscribed(ctx.db, owner.id, stream.id))) return;
  throw badRequest(`Not authorized to send to channel '${stream.name}'`);
}

/**
 * Stores a message, one row per recipient and the widget its content asks for (`/poll`, `/todo`),
 * and queues the `message` event to every recipient
 * (each with its own flags) and, for public channels, to the realm's all-public-streams queues.
 */
export async function doSendMessage(
  ctx: AppContext,
  tx: Db,
  outbox: Outbox,
  sender: UserRow,
  to: Destination,
  content: string,
  rendered: Rendered,
  opts: {
    client: string;
    readBySender: boolean;
    senderQueue?: SenderQueue;
    realm?: RealmRow;
    alertWords?: ReadonlyMap<number, readonly string[]>;
    /** Zulip's limit_unread_user_ids: everyone else gets the message already read. */
    limitUnreadUserIds?: ReadonlySet<number>;
    /** Zulip's mark_as_read: these recipients get the message already read. */
    readFor?: ReadonlySet<number>;
  },
): Promise<number> {
  const isDirect = to.kind === "direct";
  const key = isDirect ? dmKey(to.userIds) : "";
  const others = isDirect ? to.userIds.filter((id) => id !== sender.id) : [];
  const recipient = !isDirect
    ? await recipientId(tx, RecipientType.STREAM, to.stream.id)
    : to.userIds.length > 2
      ? await recipientId(tx, RecipientType.GROUP, 0, key)
      : await recipientId(tx, RecipientType.PERSONAL, others[0] ?? sender.id);
  const now = ctx.clock.now();
  const html = await settlePlaceholders(tx, sender.realm_id, rendered.html);
  const id = await insertMessage(tx, {
    realm_id: sender.realm_id,
    sender_id: sender.id,
    stream_id: isDirect ? null : to.stream.id,
    topic: isDirect ? "" : to.topic,
    dm_key: key,
    content,
    rendered_content: html,
    date_sent: now,
    has_link: rendered.hasLink ? 1 : 0,
    has_image: rendered.hasImage ? 1 : 0,
    has_attachment: 0,
    is_me_message: rendered.isMeMessage ? 1 : 0,
    client: opts.client,
    recipient_id: recipient,
  });
  if (rendered.externalImages.length > 0) await setMessageImageUrls(tx, id, rendered.externalImages);
  const uploads = rendered.hasAttachment ? linkedPathIds(rendered.links, ctx.config.externalUrl) : [];
  if (uploads.length > 0 && (await doClaimAttachments(tx, outbox, sender, { id }, isDirect ? undefined : to.stream, uploads))) {
    await updateMessage(tx, id, { has_attachment: 1 });
  }
  let userIds: number[];
  let mutedBy: Set<number>;
  if (isDirect) {
    userIds = to.userIds;
    mutedBy = await usersMutingSender(tx, userIds, sender.id);
  } else {
    const rows = await streamRecipients(tx, to.stream.id, sender.id);
    userIds = [...new Set([...rows.map((r) => r.user_id), sender.id])];
    mutedBy = new Set(rows.filter((r) => r.muted !== null).map((r) => r.user_id));
  }
  const participants = !isDirect && rendered.topicWildcard ? await topicParticipants(tx, to.stream.id, to.topic, sender.id) : new Set<number>();
  const flags = new Map<number, number>();
  for (const userId of userIds) {
    flags.set(
      userId,
      recipientFlags({
        userId,
        senderId: sender.id,
        isDirect,
        readBySender: opts.readBySender,
        senderMuted: mutedBy.has(userId),
        mentionedUserIds: rendered.mentionedUserIds,
        groupMentionedUserIds: rendered.groupMemberIds,
        streamWildcard: rendered.streamWildcard,
        topicWildcardApplies: participants.has(userId),
        hasAlertWord: alertWordsMatch(content, opts.alertWords?.get(userId) ?? []),
      }) |
        ((opts.limitUnreadUserIds && !opts.limitUnreadUserIds.has(userId)) || opts.readFor?.has(userId) ? Flag.read : 0),
    );
  }
  await insertUserMessages(tx, id, flags);
  const submessages = await doCreateWidget(tx, { id, senderId: sender.id, content });
  const row = { id, realm_id: sender.realm_id, sender_id: sender.id, stream_id: isDirect ? null : to.stream.id, topic: isDirect ? "" : to.topic, dm_key: key, content, rendered_content: html, date_sent: now, last_edit_time: null, edit_history: null, has_link: 0, has_image: 0, has_attachment: 0, is_me_message: rendered.isMeMessage ? 1 : 0, client: opts.client, recipient_id: recipient, last_moved_time: null };
  const message = await messageDict(new MessageLookups(tx).seed({ user: sender, stream: isDirect ? undefined : to.stream, realm: opts.realm }), row, { applyMarkdown: true, clientGravatar: false }, [], submessages);
  const perUser: Record<number, Record<string, unknown>> = {};
  for (const [userId, bits] of flags) perUser[userId] = { flags: flagList(bits) };
  outbox.queue({
    event: { type: "message", message: { ...message, id, raw_content: content } },
    userIds: [...flags.keys()],
    perUser,
    perQueue: opts.senderQueue ? { [opts.senderQueue.queueId]: { local_message_id: opts.senderQueue.localId } } : undefined,
    publicRealmId: !isDirect && !to.stream.invite_only ? sender.realm_id : undefined,
  });
  return id;
}

/** Senders of a topic's messages and users who reacted to them, plus the new message's sender. */
async function topicParticipants(db: Db, streamId: number, topic: string, senderId: number): Promise<Set<number>> {
  const senders = await topicSenderIds(db, streamId, topic);
  const reactors = await topicReactorIds(db, streamId, topic);
  return new Set([...senders, ...reactors, senderId]);
}
