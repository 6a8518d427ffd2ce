import type { Updateable } from "kysely";
import { write, type AppContext } from "../context.js";
import type { ScheduledMessageTable } from "../db/schema.js";
import { deleteScheduledMessage, insertScheduledMessage, updateScheduledMessage, type ScheduledMessageRow } from "../db/queries/scheduled-messages.js";
import type { UserRow } from "../db/queries/users.js";
import { badRequest } from "../base/errors.js";
import { checkTopic, scheduledRecipientIds, scheduledStreamId, truncateTopic } from "../lib/messages/rules.js";
import { accessScheduledMessage, apiScheduledMessage } from "../lib/messages/scheduled.js";
import { checkDeliveryTime } from "../lib/messages/scheduled-rules.js";
import { checkMessage, sentByHuman, type Addressee, type CheckedMessage, type Destination } from "./messages.js";

/** A message to schedule as POST /scheduled_messages decodes it (`channel` read as stream, `direct` as private). */
export interface ScheduleInput {
  type: "stream" | "private";
  /** The raw `to`: a channel id, or a JSON list of user ids. */
  to: string;
  topic: string | undefined;
  content: string;
  /** Seconds since the epoch. */
  deliverAt: number;
  readBySender: boolean | undefined;
  client: string;
}

/** What PATCH /scheduled_messages/{id} changes; undefined = unchanged. */
export interface ScheduleChanges {
  type: "stream" | "private" | undefined;
  to: string | undefined;
  topic: string | undefined;
  content: string | undefined;
  deliverAt: number | undefined;
  client: string;
}

/**
 * Schedules a message after the checks sending it would pass (Zulip's check_schedule_message).
 * `scheduled_messages` add goes to the sender's clients. Returns the scheduled message's id.
 */
export async function checkScheduleMessage(ctx: AppContext, sender: UserRow, input: ScheduleInput): Promise<number> {
  checkDeliveryTime(input.deliverAt, ctx.clock.now());
  const addressee = scheduledAddressee(input.type, input.to, input.topic);
  const checked = await checkMessage(ctx, sender, addressee, input.content);
  // Zulip's legacy default: a person's own copy starts read, unless the message is to themselves alone.
  const toSelf = checked.destination.kind === "direct" && checked.destination.userIds.every((id) => id === sender.id);
  const readBySender = input.readBySender ?? (sentByHuman(input.client) && !toSelf);
  return write(ctx, async (tx, outbox) => {
    const row = await insertScheduledMessage(tx, {
      realm_id: sender.realm_id,
      sender_id: sender.id,
      ...addressing(checked.destination),
      content: checked.content,
      rendered_content: checked.rendered.html,
      client: input.client,
      scheduled_timestamp: input.deliverAt * 1000,
      read_by_sender: readBySender ? 1 : 0,
    });
    outbox.send({ type: "scheduled_messages", op: "add", scheduled_messages: [apiScheduledMessage(row)] }, [sender.id]);
    outbox.invalidate({ cache: "scheduled_messages", dueAt: row.scheduled_timestamp });
    return row.id;
  });
}

/**
 * Edits a scheduled message of the sender with Zulip 9's rules and in its order: a new type needs
 * `to` (and a topic for a channel), a new addressee or content is checked as a send would be, a
 * topic alone changes only a channel message, and a failed message needs a new time (editing it
 * clears the failure). `scheduled_messages` update goes to the sender's clients.
 */
export async function checkEditScheduledMessage(ctx: AppContext, sender: UserRow, id: number, changes: ScheduleChanges): Promise<void> {
  const { type, to, topic, content, deliverAt } = changes;
  if (type === undefined && to === undefined && topic === undefined && content === undefined && deliverAt === undefined) throw badRequest("Nothing to change");
  if (type !== undefined && to === undefined) throw badRequest("Recipient required when updating type of scheduled message.");
  if (type === "stream" && topic === undefined) throw badRequest("Topic required when updating scheduled message type to channel.");
  if (deliverAt !== undefined) checkDeliveryTime(deliverAt, ctx.clock.now());
  const row = await accessScheduledMessage(ctx.db, sender, id);
  checkEditable(row, deliverAt);

  const update: Updateable<ScheduledMessageTable> = { client: changes.client };
  const existingType = row.stream_id !== null ? "stream" : "private";
  let checked: CheckedMessage | undefined;
  if (type !== undefined || to !== undefined || content !== undefined) {
    const addressee: Addressee =
      to !== undefined
        ? scheduledAddressee(type ?? existingType, to, topic ?? row.topic)
        : row.stream_id !== null
          ? { kind: "stream", stream: row.stream_id, topic: topic ?? row.topic }
          : { kind: "direct", recipients: recipientsOf(row) };
    checked = await checkMessage(ctx, sender, addressee, content ?? row.content);
  }
  if (checked && (type !== undefined || to !== undefined)) {
    Object.assign(update, addressing(checked.destination));
  } else if (topic !== undefined && existingType === "stream") {
    // Zulip checks a topic changed alone but, unlike a send, keeps its surrounding spaces.
    checkTopic(topic);
    update.topic = truncateTopic(topic);
  }
  if (checked && content !== undefined) Object.assign(update, { content: checked.content, rendered_content: checked.rendered.html });
  if (deliverAt !== undefined) update.scheduled_timestamp = deliverAt * 1000;
  if (row.failed) Object.assign(update, { failed: 0, failure_message: null });

  await write(ctx, async (tx, outbox) => {
    checkEditable(await accessScheduledMessage(tx, sender, id), deliverAt);
    const saved = await updateScheduledMessage(tx, id, update);
    outbox.send({ type: "scheduled_messages", op: "update", scheduled_message: apiScheduledMessage(saved) }, [sender.id]);
    outbox.invalidate({ cache: "scheduled_messages", dueAt: saved.scheduled_timestamp });
  });
}

/** Deletes (cancels) a scheduled message of the user; `scheduled_messages` remove goes to the user's clients. */
export async function checkDeleteScheduledMessage(ctx: AppContext, user: UserRow, id: number): Promise<void> {
  await write(ctx, async (tx, outbox) => {
    const row = await accessScheduledMessage(tx, user, id);
    await deleteScheduledMessage(tx, row.id);
    outbox.send({ type: "scheduled_messages", op: "remove", scheduled_message_id: row.id }, [user.id]);
  });
}

/** A sent message cannot be edited, and a failed one only with a new time. */
function checkEditable(row: { delivered: number; failed: number }, deliverAt: number | undefined): void {
  if (row.delivered) throw badRequest("Scheduled message was already sent");
  if (row.failed && deliverAt === undefined) throw badRequest("Scheduled delivery time must be in the future.");
}

/** Zulip's Addressee.legacy_build for a scheduled message's `to`: one channel id, or user ids. */
function scheduledAddressee(type: "stream" | "private", to: string, topic: string | undefined): Addressee {
  if (type === "stream") return { kind: "stream", stream: scheduledStreamId(to), topic };
  return { kind: "direct", recipients: scheduledRecipientIds(to) };
}

/** A direct message's recipients as the API names them (the other participants, or the sender alone). */
function recipientsOf(row: ScheduledMessageRow): number[] {
  const api = apiScheduledMessage(row);
  return api.type === "private" ? api.to : [];
}

/** The columns that say where a scheduled message goes. */
function addressing(destination: Destination): { stream_id: number | null; topic: string; dm_user_ids: string } {
  return destination.kind === "stream"
    ? { stream_id: destination.stream.id, topic: destination.topic, dm_user_ids: "[]" }
    : { stream_id: null, topic: "", dm_user_ids: JSON.stringify(destination.userIds) };
}
