import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import type { Updateable } from "kysely";
import type { MessageTable } from "../db/schema.js";
import { messagesByIds, receivedMessageIds, recipientId, RecipientType, topicMessageIds, updateMessage, userMessagesOf, type MessageRow } from "../db/queries/messages.js";
import { streamById, type StreamRow } from "../db/queries/streams.js";
import { hasSubmessages } from "../db/queries/submessages.js";
import { realmById } from "../db/queries/realms.js";
import type { UserRow } from "../db/queries/users.js";
import { flagList } from "../lib/messages/flags.js";
import { badRequest } from "../base/errors.js";
import { accessMessage, canAccessStreamHistory } from "../lib/messages/access.js";
import { messageAudience } from "../lib/messages/audience.js";
import { checkStreamPostPolicy, checkTopic, messageSettings, normalizeContent, policyAllows, truncateTopic, type MessageSettings } from "../lib/messages/rules.js";
import { renderContent } from "../lib/messages/render.js";
import { Role } from "../lib/users/roles.js";
import { accessStreamById } from "../lib/channels/streams.js";
import { checkMoveTimeLimit, EDIT_LIMIT_BUFFER, type EditInput } from "../lib/messages/edit-rules.js";
import { doUpdateAttachmentReferences } from "./uploads.js";
import { linkedPathIds } from "../uploads/paths.js";
import { setMessageImageUrls } from "../db/queries/message-image-urls.js";
import { resetAttachmentPublicity } from "../db/queries/attachments.js";
import { attachmentsOfMessages } from "../lib/messages/attachments.js";
import { applyContentEdit, movedAllVisible, moveUserMessages, moveUserTopics, sendMoveNotices } from "./message-move.js";

export type { EditInput } from "../lib/messages/edit-rules.js";

/**
 * Zulip's check_update_message: content, topic and channel edits; returns the number of messages
 * changed. Events: delete_message to users who lose access, user_topic to users whose topic
 * policy moved, update_message to those holding the messages (and the old channel's subscribers
 * when its history is shared), then the Notification Bot's messages.
 */
export async function checkUpdateMessage(ctx: AppContext, user: UserRow, messageId: number, input: EditInput): Promise<number> {
  return write(ctx, async (tx, outbox) => {
    const { message } = await accessMessage(tx, user, messageId);
    const settings = messageSettings(await realmById(tx, user.realm_id));
    const now = ctx.clock.now();
    if (input.content !== undefined) checkCanEditContent(user, message, settings, now);
    let topic = input.topic?.trim();
    if (topic === message.topic) topic = undefined;
    validatePayload(message, input, topic);
    if (input.content !== undefined && (await hasSubmessages(tx, message.id))) throw badRequest("Widgets cannot be edited.");
    const moderator = user.role <= Role.MODERATOR;
    if (topic !== undefined) {
      if (!policyAllows(user, settings.editTopicPolicy, settings, now)) throw badRequest("You don't have permission to edit this message");
      const limit = settings.moveMessagesWithinStreamLimitSeconds;
      if (!moderator && limit !== null && now - message.date_sent > (limit + EDIT_LIMIT_BUFFER) * 1000) {
        throw badRequest("The time limit for editing this message's topic has passed.");
      }
    }
    const content = input.content === undefined ? undefined : normalizeContent(input.content.trimEnd() === "" ? "(deleted)" : input.content);
    const rendered = content === undefined ? undefined : await renderContent(ctx, tx, message.realm_id, content, user);
    const newStream = input.streamId === undefined ? undefined : await checkCanMoveToStream(tx, user, message, input.streamId, settings, now);
    const ids = topic === undefined && !newStream ? [message.id] : await messagesToMove(tx, user, message, input.propagateMode);
    if (input.propagateMode === "change_all" && !moderator && (topic !== undefined || newStream)) {
      checkMoveTimeLimit(await messagesByIds(tx, ids), settings, now, { topic: topic !== undefined, stream: newStream !== undefined });
    }
    const oldStream = message.stream_id === null ? undefined : await streamById(tx, message.stream_id);
    const finalTopic = topic === undefined ? undefined : truncateTopic(topic);
    const ts = Math.floor(now / 1000);
    const event: Record<string, unknown> = { user_id: user.id, edit_timestamp: ts, message_id: message.id, rendering_only: false };
    if (oldStream) Object.assign(event, { stream_name: oldStream.name, stream_id: oldStream.id });
    const contentEntry: Record<string, unknown> = {};
    const targetChanges: Updateable<MessageTable> = {};
    if (content !== undefined && rendered) {
      await applyContentEdit(tx, message, rendered);
      await setMessageImageUrls(tx, message.id, rendered.externalImages);
      Object.assign(contentEntry, { prev_content: message.content, prev_rendered_content: message.rendered_content, prev_rendered_content_version: 1 });
      Object.assign(event, { orig_content: message.content, orig_rendered_content: message.rendered_content, content, rendered_content: rendered.html, is_me_message: rendered.isMeMessage });
      Object.assign(targetChanges, {
        content,
        rendered_content: rendered.html,
        has_link: rendered.hasLink ? 1 : 0,
        has_image: rendered.hasImage ? 1 : 0,
        has_attachment: (await doUpdateAttachmentReferences(tx, outbox, user, message, oldStream, linkedPathIds(rendered.links, ctx.config.externalUrl))) ? 1 : 0,
        is_me_message: rendered.isMeMessage ? 1 : 0,
      });
    }
    const moveEntry: Record<string, unknown> = {};
    const moveChanges: Updateable<MessageTable> = {};
    if (topic !== undefined || newStream) event.propagate_mode = input.propagateMode;
    if (newStream && oldStream) {
      Object.assign(moveEntry, { prev_stream: oldStream.id, stream: newStream.id });
      Object.assign(event, { orig_subject: message.topic, new_stream_id: newStream.id });
      Object.assign(moveChanges, { stream_id: newStream.id, recipient_id: await recipientId(tx, RecipientType.STREAM, newStream.id) });
    }
    if (finalTopic !== undefined) {
      Object.assign(moveEntry, { prev_topic: message.topic, topic: finalTopic });
      Object.assign(event, { orig_subject: message.topic, subject: finalTopic, topic_links: [] });
      moveChanges.topic = finalTopic;
    }
    const targetStream = newStream ?? oldStream;
    const targetTopic = finalTopic ?? message.topic;
    const targetHadMessages = targetStream !== undefined && (await topicMessageIds(tx, targetStream.id, targetTopic)).length > 0;
    const others = await messagesByIds(tx, ids.filter((id) => id !== message.id));
    await saveMessageEdits(tx, message, { ...targetChanges, ...moveChanges }, others, moveChanges, { user_id: user.id, timestamp: ts, ...contentEntry, ...moveEntry }, now);
    // Moved messages may take their uploads into or out of public channels.
    if (newStream) await resetAttachmentPublicity(tx, await attachmentsOfMessages(tx, ids));
    const moved = newStream && oldStream ? await moveUserMessages(tx, outbox, { ids, oldStream, newStream, origTopic: message.topic }) : undefined;
    const perUser: Record<number, Record<string, unknown>> = {};
    for (const row of await userMessagesOf(tx, message.id)) perUser[row.user_id] = { flags: flagList(row.flags) };
    // Those without a row for the target hear of it as read, as Zulip's subscriber_info has it.
    const audience = moved ? [...moved.notifiedSubscribers, ...(await messageAudience(tx, ids, null))] : await messageAudience(tx, ids, message.stream_id);
    for (const id of audience) perUser[id] ??= { flags: ["read"] };
    const sorted = [...ids].sort((a, b) => a - b);
    const place = oldStream && targetStream && (topic !== undefined || newStream) ? { oldStream, origTopic: message.topic, targetStream, targetTopic } : undefined;
    const movedAll = place ? await movedAllVisible(tx, user, place, input.propagateMode) : false;
    if (place && movedAll) await moveUserTopics(tx, outbox, place, { targetHadMessages, losingAccess: moved?.losingAccess ?? new Set(), now });
    outbox.queue({ event: { type: "update_message", ...event, message_id: message.id, message_ids: sorted }, userIds: Object.keys(perUser).map(Number), perUser });
    if (place) await sendMoveNotices(ctx, tx, outbox, user, { ...place, targetId: message.id, ids: sorted, movedAll, streamChanged: newStream !== undefined, preTruncationTopic: topic, contentEdited: content !== undefined, input });
    return ids.length;
  });
}

/**
 * The one place an edit writes message rows (so indexes over topic and content follow every
 * edit): the target's new content, topic or channel, the other moved messages' topic or channel,
 * each with an edit_history entry and last_edit_time.
 */
async function saveMessageEdits(
  tx: Db,
  target: MessageRow,
  targetChanges: Updateable<MessageTable>,
  others: readonly MessageRow[],
  moveChanges: Updateable<MessageTable>,
  entry: Record<string, unknown>,
  now: number,
): Promise<void> {
  // Other messages only record the move in their history, not the target's content change.
  const moveOnly = Object.fromEntries(Object.entries(entry).filter(([k]) => !k.startsWith("prev_content") && !k.startsWith("prev_rendered")));
  const save = (m: MessageRow, changes: Updateable<MessageTable>, e: Record<string, unknown>) => {
    const previous: unknown[] = m.edit_history ? (JSON.parse(m.edit_history) as unknown[]) : [];
    return updateMessage(tx, m.id, { ...changes, last_edit_time: now, edit_history: JSON.stringify([e, ...previous]) });
  };
  await save(target, targetChanges, entry);
  for (const m of others) await save(m, moveChanges, moveOnly);
}

function validatePayload(message: MessageRow, input: EditInput, topic: string | undefined): void {
  if (topic === undefined && input.content === undefined && input.streamId === undefined) throw badRequest("Nothing to change");
  if (message.stream_id === null) {
    if (input.streamId !== undefined) throw badRequest("Direct messages cannot be moved to channels.");
    if (topic !== undefined) throw badRequest("Direct messages cannot have topics.");
  }
  if (input.propagateMode !== "change_one" && topic === undefined && input.streamId === undefined) throw badRequest("Invalid propagate_mode without topic edit");
  if (topic !== undefined) checkTopic(topic);
  if (input.streamId !== undefined && input.content !== undefined) throw badRequest("Cannot change message content while changing channel");
}

function checkCanEditContent(user: UserRow, message: MessageRow, settings: MessageSettings, now: number): void {
  if (!settings.allowMessageEditing) throw badRequest("Your organization has turned off message editing");
  if (message.sender_id !== user.id) throw badRequest("You don't have permission to edit this message");
  const limit = settings.messageContentEditLimitSeconds;
  if (limit !== null && now - message.date_sent > (limit + EDIT_LIMIT_BUFFER) * 1000) throw badRequest("The time limit for editing this message has passed");
}

/** Zulip's checks for a channel move: the realm's policy, access to the destination, its posting policy, the time limit. */
async function checkCanMoveToStream(tx: Db, user: UserRow, message: MessageRow, streamId: number, settings: MessageSettings, now: number): Promise<StreamRow> {
  if (!policyAllows(user, settings.moveMessagesBetweenStreamsPolicy, settings, now)) throw badRequest("You don't have permission to move this message");
  const { stream } = await accessStreamById(tx, user, streamId);
  checkStreamPostPolicy(user, stream, settings, now);
  const limit = settings.moveMessagesBetweenStreamsLimitSeconds;
  if (user.role > Role.MODERATOR && limit !== null && now - message.date_sent > (limit + EDIT_LIMIT_BUFFER) * 1000) {
    throw badRequest("The time limit for editing this message's channel has passed");
  }
  return stream;
}

/** The messages an edit moves: this one, those after it, or the whole topic (only those the user may read). */
async function messagesToMove(tx: Db, user: UserRow, message: MessageRow, mode: EditInput["propagateMode"]): Promise<number[]> {
  if (mode === "change_one" || message.stream_id === null) return [message.id];
  let ids = await topicMessageIds(tx, message.stream_id, message.topic, mode === "change_later" ? message.id : 0);
  const stream = await streamById(tx, message.stream_id);
  if (!stream || !(await canAccessStreamHistory(tx, user, stream))) {
    const received = await receivedMessageIds(tx, user.id, ids);
    ids = ids.filter((id) => received.has(id));
  }
  return ids.includes(message.id) ? ids : [message.id, ...ids];
}
