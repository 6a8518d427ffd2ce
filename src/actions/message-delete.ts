import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import { deleteMessages, messagesByIds, newestTopicMessageIds, type MessageRow } from "../db/queries/messages.js";
import { realmById } from "../db/queries/realms.js";
import { userById, type UserRow } from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";
import { adminRequired, badRequest } from "../base/errors.js";
import { accessMessage, isSubscribed } from "../lib/messages/access.js";
import { messageAudience } from "../lib/messages/audience.js";
import { messageSettings, policyAllows } from "../lib/messages/rules.js";
import { isAdmin, Role } from "../lib/users/roles.js";
import { accessStreamById } from "../lib/channels/streams.js";

/** Zulip's validate_can_delete_message then do_delete_messages. */
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
    await doDeleteMessages(tx, outbox, [message]);
  });
}

// Zulip deletes a topic 100 messages at a time (retention's STREAM_MESSAGE_BATCH_SIZE) and stops
// after 50 s, for the client to ask again.
const TOPIC_BATCH = 100;
const TIME_LIMIT_MS = 50_000;

/**
 * Zulip's delete_in_topic: administrators only; deletes the topic's messages the caller may read,
 * newest first, each batch committed on its own so a request that runs out of time keeps its
 * progress (and no message is ever half deleted). Returns false when time ran out.
 */
export async function checkDeleteTopic(ctx: AppContext, user: UserRow, streamId: number, topic: string): Promise<boolean> {
  if (!isAdmin(user)) throw adminRequired();
  const { stream } = await accessStreamById(ctx.db, user, streamId);
  // A public channel's whole history is readable; a private one's only by its subscribers, and
  // without shared history only what they received.
  if (stream.invite_only === 1 && !(await isSubscribed(ctx.db, user.id, stream.id))) return true;
  const receivedOnly = stream.invite_only === 1 && stream.history_public_to_subscribers === 0;
  const start = ctx.clock.now();
  for (;;) {
    if (ctx.clock.now() >= start + TIME_LIMIT_MS) return false;
    const deleted = await write(ctx, async (tx, outbox) => {
      const ids = await newestTopicMessageIds(tx, stream.id, topic, TOPIC_BATCH, receivedOnly ? user.id : undefined);
      const byId = new Map((await messagesByIds(tx, ids)).map((m) => [m.id, m]));
      await doDeleteMessages(tx, outbox, ids.flatMap((id) => byId.get(id) ?? []));
      return ids.length;
    });
    if (deleted === 0) return true;
  }
}

/**
 * Deletes messages of one conversation (one direct message, or messages of one topic) with
 * everything attached to them. Sends delete_message to the messages' audience: those holding a
 * row for them, and the channel's subscribers when its history is shared.
 */
export async function doDeleteMessages(tx: Db, outbox: Outbox, messages: readonly MessageRow[]): Promise<void> {
  const sample = messages[0];
  if (!sample) return;
  const ids = messages.map((m) => m.id);
  const audience = await messageAudience(tx, ids, sample.stream_id);
  await deleteMessages(tx, ids);
  outbox.send(
    sample.stream_id !== null
      ? { type: "delete_message", message_ids: ids, message_type: "stream", stream_id: sample.stream_id, topic: sample.topic }
      : { type: "delete_message", message_ids: ids, message_type: "private" },
    audience,
  );
}
