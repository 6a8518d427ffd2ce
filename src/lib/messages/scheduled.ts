import type { Db } from "../../db/index.js";
import { pendingScheduledMessagesOf, scheduledMessageOf, type ScheduledMessageRow } from "../../db/queries/scheduled-messages.js";
import type { UserRow } from "../../db/queries/users.js";
import type { ScheduledMessageObject } from "../../events/types.js";
import { notFound } from "../../base/errors.js";

/** A scheduled message of the user, delivered or not; anyone else's reads as missing (404). */
export async function accessScheduledMessage(db: Db, user: UserRow, id: number): Promise<ScheduledMessageRow> {
  const row = await scheduledMessageOf(db, user.id, id);
  if (!row || row.realm_id !== user.realm_id) throw notFound("Scheduled message does not exist");
  return row;
}

/** GET /scheduled_messages and /register: the user's messages not yet sent, failed ones included. */
export async function pendingScheduledMessages(db: Db, user: UserRow): Promise<ScheduledMessageObject[]> {
  return (await pendingScheduledMessagesOf(db, user.id)).filter((row) => row.realm_id === user.realm_id).map(apiScheduledMessage);
}

/**
 * The API object. A direct message's `to` names the other participants (Zulip's get_recipient_ids:
 * the sender only in a message to themselves); a channel message's is the channel id.
 */
export function apiScheduledMessage(row: ScheduledMessageRow): ScheduledMessageObject {
  const common = {
    scheduled_message_id: row.id,
    content: row.content,
    rendered_content: row.rendered_content,
    scheduled_delivery_timestamp: Math.floor(row.scheduled_timestamp / 1000),
    failed: row.failed === 1,
  };
  if (row.stream_id !== null) return { ...common, type: "stream", to: row.stream_id, topic: row.topic };
  const participants = dmParticipants(row);
  const others = participants.filter((id) => id !== row.sender_id);
  return { ...common, type: "private", to: others.length > 0 ? others : [row.sender_id] };
}

/** Every participant of a scheduled direct message, the sender included, ascending. */
export function dmParticipants(row: Pick<ScheduledMessageRow, "dm_user_ids" | "sender_id">): number[] {
  let value: unknown;
  try {
    value = JSON.parse(row.dm_user_ids);
  } catch {
    value = [];
  }
  const ids = Array.isArray(value) ? value.filter((v): v is number => typeof v === "number") : [];
  return ids.length > 0 ? ids : [row.sender_id];
}

/** Soonest first, then oldest, as the list is kept everywhere. */
export function byDeliveryTime(a: ScheduledMessageObject, b: ScheduledMessageObject): number {
  return a.scheduled_delivery_timestamp - b.scheduled_delivery_timestamp || a.scheduled_message_id - b.scheduled_message_id;
}
