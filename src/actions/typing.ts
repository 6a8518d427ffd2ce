import type { AppContext } from "../context.js";
import { activeSubscribers, usersByIds } from "../db/queries/typing.js";
import type { UserRow } from "../db/queries/users.js";
import { Outbox } from "../events/outbox.js";
import type { TypingUser } from "../events/types.js";
import { badRequest } from "../base/errors.js";
import { Role } from "../lib/users/roles.js";
import { userSetting } from "../lib/users/settings.js";
import { accessStreamById } from "../lib/channels/streams.js";

/** Zulip's MAX_STREAM_SIZE_FOR_TYPING_NOTIFICATIONS: bigger channels get no typing notifications. */
const MAX_CHANNEL_SIZE_FOR_TYPING = 100;

/** Where the user is typing: a direct conversation (`to`) or a channel topic. */
export type TypingTarget = { to: number[] | undefined } | { streamId: number | undefined; topic: string | undefined };

/**
 * POST /typing. Nothing is stored, so the event goes straight to the bus. Receivers: for a direct
 * conversation, its active participants (sender included); for a channel, its active subscribers
 * (none when it has more than 100) — each only if they receive typing notifications.
 */
export async function checkSendTyping(ctx: AppContext, sender: UserRow, op: "start" | "stop", target: TypingTarget): Promise<void> {
  const outbox = new Outbox();
  const who = (u: UserRow): TypingUser => ({ user_id: u.id, email: u.email });
  const receives = (u: UserRow) => u.is_active === 1 && userSetting(u, "receives_typing_notifications") !== false;
  if ("to" in target) {
    if (target.to === undefined) throw badRequest("Missing 'to' argument");
    if (target.to.length === 0) throw badRequest("Empty 'to' list");
    if (userSetting(sender, "send_private_typing_notifications") === false) {
      throw badRequest("User has disabled typing notifications for direct messages");
    }
    const ids = target.to.includes(sender.id) ? [...target.to] : [...target.to, sender.id];
    const found = new Map((await usersByIds(ctx.db, sender.realm_id, ids)).map((u) => [u.id, u]));
    const recipients = ids.map((id) => {
      const user = found.get(id);
      if (!user) throw badRequest(`Invalid user ID ${id}`);
      return user;
    });
    outbox.send(
      { type: "typing", op, message_type: "direct", sender: who(sender), recipients: recipients.map(who) },
      recipients.filter(receives).map((u) => u.id),
    );
  } else {
    if (target.streamId === undefined) throw badRequest("Missing channel ID");
    if (target.topic === undefined) throw badRequest("Missing topic");
    if (userSetting(sender, "send_stream_typing_notifications") === false) {
      throw badRequest("User has disabled typing notifications for channel messages");
    }
    const { stream } = await accessStreamById(ctx.db, sender, target.streamId);
    checkMayPost(sender, stream.stream_post_policy);
    const subscribers = await activeSubscribers(ctx.db, stream.id);
    if (subscribers.length <= MAX_CHANNEL_SIZE_FOR_TYPING) {
      outbox.send(
        { type: "typing", op, message_type: "stream", sender: who(sender), stream_id: stream.id, topic: target.topic },
        subscribers.filter(receives).map((u) => u.id),
      );
    }
  }
  await ctx.bus.publish({ events: outbox.events, changes: [] });
}

/** The channel's posting policy (Zulip's access_stream_for_send_message, for humans). */
function checkMayPost(user: UserRow, policy: number): void {
  if (policy === 2 && user.role > Role.ADMINISTRATOR) throw badRequest("Only organization administrators can send to this channel.");
  if (policy === 4 && user.role > Role.MODERATOR) throw badRequest("Only organization administrators and moderators can send to this channel.");
  if (policy !== 1 && user.role === Role.GUEST) throw badRequest("Guests cannot send to this channel.");
}
