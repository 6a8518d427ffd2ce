import { write, type AppContext } from "../context.js";
import { deleteMessages } from "../db/queries/messages.js";
import { realmById } from "../db/queries/realms.js";
import { userById, type UserRow } from "../db/queries/users.js";
import { badRequest } from "../http/errors.js";
import { accessMessage } from "../lib/message-access.js";
import { messageAudience } from "../lib/message-audience.js";
import { messageSettings, policyAllows } from "../lib/message-rules.js";
import { Role } from "../lib/roles.js";

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
