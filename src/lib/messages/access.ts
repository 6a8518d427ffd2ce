import type { Db } from "../../db/index.js";
import { messageById, userMessageFlags, type MessageRow } from "../../db/queries/messages.js";
import { streamById, type StreamRow } from "../../db/queries/streams.js";
import { subscriptionOf } from "../../db/queries/subscriptions.js";
import type { UserRow } from "../../db/queries/users.js";
import { invalidMessages } from "../../base/errors.js";
import { Role } from "../users/roles.js";

/** A message the caller may read, with the caller's flags on it (undefined = never received). */
export interface AccessedMessage {
  message: MessageRow;
  flags: number | undefined;
}

/** Whether the user is an active subscriber of the channel. */
export async function isSubscribed(db: Db, userId: number, streamId: number): Promise<boolean> {
  const sub = await subscriptionOf(db, userId, streamId);
  return sub?.active === 1;
}

/**
 * Whether the user may read a channel's whole history, including messages sent before they
 * joined (Zulip's can_access_stream_history): web-public channels; public channels for
 * non-guests; private channels with shared history for subscribers.
 */
export async function canAccessStreamHistory(db: Db, user: UserRow, stream: StreamRow): Promise<boolean> {
  if (stream.realm_id !== user.realm_id) return false;
  if (stream.is_web_public) return true;
  if (!stream.invite_only && stream.history_public_to_subscribers && user.role !== Role.GUEST) return true;
  if (!stream.history_public_to_subscribers) return false;
  return isSubscribed(db, user.id, stream.id);
}

/**
 * Whether the user may read a message (Zulip's has_message_access): having received it, or
 * being able to read its channel's history. Direct messages only by their participants' rows.
 */
export async function hasMessageAccess(db: Db, user: UserRow, message: MessageRow, flags: number | undefined): Promise<boolean> {
  if (message.realm_id !== user.realm_id) return false;
  if (flags !== undefined) return true;
  if (message.stream_id === null) return false;
  const stream = await streamById(db, message.stream_id);
  return stream !== undefined && (await canAccessStreamHistory(db, user, stream));
}

/** The message if the user may read it, else `Invalid message(s)` (the same for missing and hidden). */
export async function accessMessage(db: Db, user: UserRow, id: number): Promise<AccessedMessage> {
  const message = await messageById(db, id);
  if (!message) throw invalidMessages();
  const flags = await userMessageFlags(db, user.id, id);
  if (!(await hasMessageAccess(db, user, message, flags))) throw invalidMessages();
  return { message, flags };
}
