import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import { dueScheduledMessages, scheduledMessageById, updateScheduledMessage, type ScheduledMessageRow } from "../db/queries/scheduled-messages.js";
import { streamById } from "../db/queries/streams.js";
import { userById, type UserRow } from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";
import { ApiError, badRequest } from "../base/errors.js";
import { apiScheduledMessage, dmParticipants } from "../lib/messages/scheduled.js";
import { failureNotice, LATE_CUTOFF_MS } from "../lib/messages/scheduled-rules.js";
import { checkMessage, doSendMessage, type Addressee, type CheckedMessage } from "./messages.js";
import { internalSendDirect } from "./notification-bot.js";

/** How many due messages are checked at once (their reads and renderings overlap). */
const BATCH = 250;
/**
 * How many are sent in one transaction, in due order: far fewer commits than one each, and on
 * either database the message ids follow the due order, as Zulip's one-at-a-time worker has them.
 */
const CHUNK = 50;

type Prepared = { row: ScheduledMessageRow; sender: UserRow; checked: CheckedMessage };
/** Why a message was not sent; `notify` is false when its sender or organisation is gone. */
type Failure = { row: ScheduledMessageRow; message: string; notify: boolean; unexpected?: unknown };
type Outcome = "sent" | "failed" | "skipped" | "stuck";
type AlertWords = ReadonlyMap<number, ReadonlyMap<number, readonly string[]>>;

/**
 * Sends every scheduled message due by the clock, as its sender, in delivery order (Zulip's
 * deliver_scheduled_messages): each is checked again as a send would be, then sent, marked
 * delivered and removed from its sender's list (`message` events to its recipients,
 * `scheduled_messages` remove to the sender). One that cannot be sent is marked failed with the
 * reason; unless its sender or organisation was deactivated, the sender gets `scheduled_messages`
 * update and a direct message from Notification Bot saying why.
 */
export async function deliverDueScheduledMessages(ctx: AppContext, stopping: () => boolean = () => false): Promise<void> {
  for (;;) {
    if (stopping()) return;
    const due = await dueScheduledMessages(ctx.db, ctx.clock.now(), BATCH);
    if (due.length === 0) return;
    const attempts = await Promise.all(due.map((row) => prepare(ctx, row)));
    const realmIds = [...new Set(due.map((row) => row.realm_id))];
    const alertWords: AlertWords = new Map(await Promise.all(realmIds.map(async (id) => [id, await ctx.alertWords.byUser(id)] as const)));
    const ready = attempts.filter((a): a is Prepared => "checked" in a);
    const outcomes: Outcome[] = [];
    for (let i = 0; i < ready.length; i += CHUNK) outcomes.push(...(await sendChunk(ctx, ready.slice(i, i + CHUNK), alertWords)));
    for (const f of attempts.filter((a): a is Failure => !("checked" in a))) outcomes.push(await fail(ctx, f));
    const stuck = outcomes.filter((o) => o === "stuck").length;
    if (stuck > 0) throw new Error(`${stuck} scheduled messages could be neither sent nor marked failed`);
    if (due.length < BATCH) return;
  }
}

/** Zulip's send_scheduled_message up to check_message: whether it may still be sent, and how. */
async function prepare(ctx: AppContext, row: ScheduledMessageRow): Promise<Prepared | Failure> {
  ctx.log.info({ scheduledMessageId: row.id, scheduledTimestamp: row.scheduled_timestamp, senderId: row.sender_id }, "sending scheduled message");
  const realm = await ctx.realms.get(row.realm_id);
  if (!realm || realm.deactivated) return { row, message: "This organization has been deactivated", notify: false };
  const sender = await ctx.users.get(row.sender_id);
  if (!sender || !sender.is_active) return { row, message: "Account is deactivated", notify: false };
  if (ctx.clock.now() > row.scheduled_timestamp + LATE_CUTOFF_MS) return { row, message: "Message could not be sent at the scheduled time.", notify: true };
  try {
    const checked = await checkMessage(ctx, sender, await addresseeOf(ctx, row), row.content);
    return { row, sender, checked };
  } catch (error) {
    return failure(row, error);
  }
}

/** Where the message goes now: its channel as it is, or its participants. */
async function addresseeOf(ctx: AppContext, row: ScheduledMessageRow): Promise<Addressee> {
  if (row.stream_id === null) return { kind: "direct", recipients: dmParticipants(row) };
  const stream = await streamById(ctx.db, row.stream_id);
  // Zulip 9 unsubscribes everyone from an archived channel, so no one may post there any more.
  if (!stream || stream.deactivated) throw badRequest(`Not authorized to send to channel '${stream?.name ?? row.stream_id}'`);
  return { kind: "stream", stream, topic: row.topic };
}

/** Sends a chunk in one transaction; if that fails, each on its own, so only the bad one fails. */
async function sendChunk(ctx: AppContext, chunk: readonly Prepared[], alertWords: AlertWords): Promise<Outcome[]> {
  try {
    return await write(ctx, async (tx, outbox) => {
      const outcomes: Outcome[] = [];
      for (const p of chunk) outcomes.push(await sendOne(ctx, tx, outbox, p, alertWords));
      return outcomes;
    });
  } catch {
    const outcomes: Outcome[] = [];
    for (const p of chunk) {
      try {
        outcomes.push(await write(ctx, (tx, outbox) => sendOne(ctx, tx, outbox, p, alertWords)));
      } catch (error) {
        outcomes.push(await fail(ctx, failure(p.row, error)));
      }
    }
    return outcomes;
  }
}

async function sendOne(ctx: AppContext, tx: Db, outbox: Outbox, p: Prepared, alertWords: AlertWords): Promise<Outcome> {
  // An edit or a deletion committed since the checks wins; the next run sees what it left.
  if (!unchanged(await scheduledMessageById(tx, p.row.id), p.row)) return "skipped";
  const { destination, content, rendered, realm } = p.checked;
  const opts = { client: p.row.client, readBySender: p.row.read_by_sender === 1, realm, alertWords: alertWords.get(p.row.realm_id) };
  const messageId = await doSendMessage(ctx, tx, outbox, p.sender, destination, content, rendered, opts);
  await updateScheduledMessage(tx, p.row.id, { delivered: 1, delivered_message_id: messageId });
  outbox.send({ type: "scheduled_messages", op: "remove", scheduled_message_id: p.row.id }, [p.sender.id]);
  return "sent";
}

/** Marks the message failed and, when Zulip would, tells its sender; failing that, marks it failed alone. */
async function fail(ctx: AppContext, f: Failure): Promise<Outcome> {
  if (f.unexpected !== undefined) ctx.log.error({ err: f.unexpected, scheduledMessageId: f.row.id }, "unexpected error sending scheduled message");
  else ctx.log.info({ scheduledMessageId: f.row.id, reason: f.message }, "scheduled message failed");
  const markFailed = (notify: boolean) =>
    write(ctx, async (tx, outbox): Promise<Outcome> => {
      if (!unchanged(await scheduledMessageById(tx, f.row.id), f.row)) return "skipped";
      const saved = await updateScheduledMessage(tx, f.row.id, { failed: 1, failure_message: f.message });
      const sender = notify ? await userById(tx, f.row.sender_id) : undefined;
      if (sender) {
        outbox.send({ type: "scheduled_messages", op: "update", scheduled_message: apiScheduledMessage(saved) }, [sender.id]);
        await internalSendDirect(ctx, tx, outbox, sender, failureNotice(f.row.scheduled_timestamp, f.message));
      }
      return "failed";
    });
  try {
    return await markFailed(f.notify);
  } catch (error) {
    if (!f.notify) return reportStuck(ctx, f.row, error);
    ctx.log.error({ err: error, scheduledMessageId: f.row.id }, "cannot tell the sender a scheduled message failed");
    try {
      return await markFailed(false);
    } catch (again) {
      return reportStuck(ctx, f.row, again);
    }
  }
}

function reportStuck(ctx: AppContext, row: ScheduledMessageRow, error: unknown): Outcome {
  ctx.log.error({ err: error, scheduledMessageId: row.id }, "cannot mark a scheduled message failed");
  return "stuck";
}

/** A check's error as the sender will read it; anything but an API error is Zulip's "Internal server error". */
function failure(row: ScheduledMessageRow, error: unknown): Failure {
  if (error instanceof ApiError) return { row, message: error.msg, notify: true };
  return { row, message: "Internal server error", notify: true, unexpected: error };
}

/** Still waiting to be sent exactly as it was read. */
function unchanged(current: ScheduledMessageRow | undefined, read: ScheduledMessageRow): boolean {
  if (!current || current.delivered || current.failed) return false;
  return FIELDS.every((field) => current[field] === read[field]);
}

const FIELDS = ["stream_id", "topic", "dm_user_ids", "content", "client", "scheduled_timestamp", "read_by_sender"] as const;
