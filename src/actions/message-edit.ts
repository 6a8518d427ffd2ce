import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import { deleteMessages, messagesByIds, topicMessageIds, updateMessages, userMessagesOf, type MessageRow } from "../db/queries/messages.js";
import { streamById } from "../db/queries/streams.js";
import { realmById } from "../db/queries/realms.js";
import { userById, type UserRow } from "../db/queries/users.js";
import { ApiError, badRequest } from "../http/errors.js";
import { flagList, RENDER_BITS, recipientFlags } from "../lib/flags.js";
import { accessMessage, canAccessStreamHistory } from "../lib/message-access.js";
import { messageAudience } from "../lib/message-audience.js";
import { checkTopic, messageSettings, normalizeContent, policyAllows, truncateTopic, type MessageSettings } from "../lib/message-rules.js";
import { renderContent } from "../lib/render.js";
import { Role } from "../lib/roles.js";

/** What PATCH /messages/{id} asks to change. */
export interface EditInput {
  content: string | undefined;
  topic: string | undefined;
  propagateMode: "change_one" | "change_later" | "change_all";
}

// Zulip allows 20 seconds past each limit for clients racing the deadline.
const EDIT_LIMIT_BUFFER = 20;

/** Zulip's check_update_message for content and topic edits; returns the number of messages changed. */
export async function checkUpdateMessage(ctx: AppContext, user: UserRow, messageId: number, input: EditInput): Promise<number> {
  return write(ctx, async (tx, outbox) => {
    const { message } = await accessMessage(tx, user, messageId);
    const settings = messageSettings(await realmById(tx, user.realm_id));
    const now = ctx.clock.now();
    if (input.content !== undefined) checkCanEditContent(user, message, settings, now);
    let topic = input.topic?.trim();
    if (topic === message.topic) topic = undefined;
    if (topic === undefined && input.content === undefined) throw badRequest("Nothing to change");
    if (message.stream_id === null && topic !== undefined) throw badRequest("Direct messages cannot have topics.");
    if (input.propagateMode !== "change_one" && topic === undefined) throw badRequest("Invalid propagate_mode without topic edit");
    if (topic !== undefined) topic = truncateTopic(checkTopic(topic));
    const moderator = user.role <= Role.MODERATOR;
    if (topic !== undefined) {
      if (!policyAllows(user, settings.editTopicPolicy, settings, now)) throw badRequest("You don't have permission to edit this message");
      const limit = settings.moveMessagesWithinStreamLimitSeconds;
      if (!moderator && limit !== null && now - message.date_sent > (limit + EDIT_LIMIT_BUFFER) * 1000) {
        throw badRequest("The time limit for editing this message's topic has passed.");
      }
    }
    const content = input.content === undefined ? undefined : normalizeContent(input.content.trimEnd() === "" ? "(deleted)" : input.content);
    const ids = topic === undefined ? [message.id] : await messagesToMove(tx, user, message, input.propagateMode);
    if (topic !== undefined && input.propagateMode === "change_all" && !moderator) checkMoveTimeLimit(await messagesByIds(tx, ids), settings, now);
    const rendered = content === undefined ? undefined : await renderContent(ctx, tx, message.realm_id, content);
    const history: Record<string, unknown> = { user_id: user.id, timestamp: Math.floor(now / 1000) };
    const event: Record<string, unknown> = { user_id: user.id, edit_timestamp: Math.floor(now / 1000), message_id: message.id, rendering_only: false };
    if (message.stream_id !== null) {
      const stream = await streamById(tx, message.stream_id);
      event.stream_name = stream?.name ?? "";
      event.stream_id = message.stream_id;
    }
    if (topic !== undefined) {
      Object.assign(history, { prev_topic: message.topic, topic });
      Object.assign(event, { propagate_mode: input.propagateMode, orig_subject: message.topic, subject: topic, topic_links: [] });
      await updateMessages(tx, ids.filter((id) => id !== message.id), { topic, last_edit_time: now });
    }
    const perUser: Record<number, Record<string, unknown>> = {};
    const rows = await userMessagesOf(tx, message.id);
    if (content !== undefined && rendered) {
      Object.assign(history, { prev_content: message.content, prev_rendered_content: message.rendered_content, prev_rendered_content_version: 1 });
      Object.assign(event, {
        orig_content: message.content,
        orig_rendered_content: message.rendered_content,
        content,
        rendered_content: rendered.html,
        is_me_message: rendered.isMeMessage,
      });
      for (const row of rows) {
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
        row.flags = (row.flags & ~RENDER_BITS) | (bits & RENDER_BITS);
        await tx.updateTable("user_message").set({ flags: row.flags }).where("user_id", "=", row.user_id).where("message_id", "=", message.id).execute();
      }
    }
    const previous: unknown[] = message.edit_history ? (JSON.parse(message.edit_history) as unknown[]) : [];
    await updateMessages(tx, [message.id], {
      ...(topic !== undefined ? { topic } : {}),
      ...(content !== undefined && rendered
        ? { content, rendered_content: rendered.html, has_link: rendered.hasLink ? 1 : 0, has_image: rendered.hasImage ? 1 : 0, has_attachment: rendered.hasAttachment ? 1 : 0, is_me_message: rendered.isMeMessage ? 1 : 0 }
        : {}),
      last_edit_time: now,
      edit_history: JSON.stringify([history, ...previous]),
    });
    for (const row of rows) perUser[row.user_id] = { flags: flagList(row.flags) };
    event.message_ids = [...ids].sort((a, b) => a - b);
    const audience = await messageAudience(tx, ids, message.stream_id);
    outbox.queue({ event: { type: "update_message", message_id: message.id, message_ids: [...ids].sort((a, b) => a - b), ...event }, userIds: audience, perUser });
    return ids.length;
  });
}

function checkCanEditContent(user: UserRow, message: MessageRow, settings: MessageSettings, now: number): void {
  if (!settings.allowMessageEditing) throw badRequest("Your organization has turned off message editing");
  if (message.sender_id !== user.id) throw badRequest("You don't have permission to edit this message");
  const limit = settings.messageContentEditLimitSeconds;
  if (limit !== null && now - message.date_sent > (limit + EDIT_LIMIT_BUFFER) * 1000) throw badRequest("The time limit for editing this message has passed");
}

/** The messages a topic edit moves: this one, those after it, or the whole topic (only those the user may read). */
async function messagesToMove(tx: Db, user: UserRow, message: MessageRow, mode: EditInput["propagateMode"]): Promise<number[]> {
  if (mode === "change_one" || message.stream_id === null) return [message.id];
  let ids = await topicMessageIds(tx, message.stream_id, message.topic, mode === "change_later" ? message.id : 0);
  const stream = await streamById(tx, message.stream_id);
  if (!stream || !(await canAccessStreamHistory(tx, user, stream))) {
    const received = new Set(
      (await tx.selectFrom("user_message").select("message_id").where("user_id", "=", user.id).where("message_id", "in", ids).execute()).map((r) => r.message_id),
    );
    ids = ids.filter((id) => received.has(id));
  }
  return ids.includes(message.id) ? ids : [message.id, ...ids];
}

/** Zulip's MessageMoveError: a whole-topic move by a non-moderator must fit the time limit. */
function checkMoveTimeLimit(rows: MessageRow[], settings: MessageSettings, now: number): void {
  const limit = settings.moveMessagesWithinStreamLimitSeconds;
  if (limit === null) return;
  const allowed = rows.filter((m) => now - m.date_sent <= (limit + EDIT_LIMIT_BUFFER) * 1000).sort((a, b) => a.id - b.id);
  if (allowed.length === rows.length) return;
  throw new ApiError(`You only have permission to move the ${allowed.length}/${rows.length} most recent messages in this topic.`, "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED", 400, {
    first_message_id_allowed_to_move: allowed[0]?.id ?? null,
    total_messages_in_topic: rows.length,
    total_messages_allowed_to_move: allowed.length,
  });
}

/** Zulip's validate_can_delete_message then do_delete_messages; sends delete_message to the message's audience. */
export async function checkDeleteMessage(ctx: AppContext, user: UserRow, messageId: number): Promise<void> {
  await write(ctx, async (tx, outbox) => {
    const { message } = await accessMessage(tx, user, messageId);
    if (user.role > Role.ADMINISTRATOR) {
      const sender = await userById(tx, message.sender_id);
      if (message.sender_id !== user.id && sender?.bot_owner_id !== user.id) throw badRequest("You don't have permission to delete this message");
      const settings = messageSettings(await realmById(tx, user.realm_id));
      const now = ctx.clock.now();
      if (!policyAllows(user, settings.deleteOwnMessagePolicy, settings, now)) throw badRequest("You don't have permission to delete this message");
      const limit = settings.messageContentDeleteLimitSeconds;
      if (limit !== null && now - message.date_sent > limit * 1000) throw badRequest("The time limit for deleting this message has passed");
    }
    const audience = await messageAudience(tx, [message.id], message.stream_id);
    await deleteMessages(tx, [message.id]);
    outbox.send(
      message.stream_id !== null
        ? { type: "delete_message", message_ids: [message.id], message_type: "stream", stream_id: message.stream_id, topic: message.topic }
        : { type: "delete_message", message_ids: [message.id], message_type: "private" },
      audience,
    );
  });
}
