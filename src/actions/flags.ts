import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import { flagsOfMessages, messagesByIds } from "../db/queries/messages.js";
import type { UserRow } from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";
import { badRequest, invalidMessages } from "../base/errors.js";
import { API_FLAGS, EDITABLE_FLAGS, Flag, HISTORICAL_FLAGS, MENTION_BITS, type FlagName } from "../lib/messages/flags.js";
import { changeFlagBit, insertHistoricalRows, receivedInTopic, setReadFlag, unreadMessageIds } from "../db/queries/user-messages.js";
import { activeSubscribedStreamIds, mutedStreamIds } from "../db/queries/subscriptions.js";
import { hasMessageAccess } from "../lib/messages/access.js";
import { accessStreamById } from "../lib/channels/streams.js";

/** Zulip's checks on a flag change: known flag, editable, add or remove. Returns the bit. */
export function checkFlagChange(flag: string, op: string): { bit: number; adding: boolean } {
  if (!API_FLAGS.has(flag)) throw badRequest(`Invalid flag: '${flag}'`);
  if (!EDITABLE_FLAGS.has(flag)) throw badRequest(`Flag not editable: '${flag}'`);
  if (op !== "add" && op !== "remove") throw badRequest(`Invalid message flag operation: '${op}'`);
  return { bit: Flag[flag as FlagName], adding: op === "add" };
}

/** Validates, then sets or clears a flag on messages for the user. Returns how many changed. */
export async function checkUpdateMessageFlags(ctx: AppContext, user: UserRow, messageIds: readonly number[], op: string, flag: string): Promise<number> {
  const change = checkFlagChange(flag, op);
  return write(ctx, (tx, outbox) => doUpdateMessageFlags(tx, outbox, user, messageIds, flag, change));
}

/**
 * Zulip's do_update_message_flags: marking unread skips channel messages of channels the user
 * left; ids already in the target state are skipped; changing a flag on a message the user never
 * received creates a historical row, if the user may read it (else `Invalid message(s)`).
 * Sends update_message_flags to the user's own clients, with `message_details` when marking unread.
 */
export async function doUpdateMessageFlags(
  tx: Db,
  outbox: Outbox,
  user: UserRow,
  requested: readonly number[],
  flag: string,
  change: { bit: number; adding: boolean },
): Promise<number> {
  const { bit, adding } = change;
  const target = adding ? bit : 0;
  let ids = [...new Set(requested)];
  if (flag === "read" && !adding) ids = await dropUnsubscribedChannelMessages(tx, user.id, ids);
  const existing = await flagsOfMessages(tx, user.id, ids);
  const changed = ids.filter((id) => ((existing.get(id) ?? HISTORICAL_FLAGS) & bit) !== target);
  const historical = changed.filter((id) => !existing.has(id));
  if ((HISTORICAL_FLAGS & bit) !== target && historical.length > 0) {
    const rows = await messagesByIds(tx, historical);
    const accessible = await Promise.all(rows.map((m) => hasMessageAccess(tx, user, m, undefined)));
    if (rows.length !== historical.length || accessible.includes(false)) throw invalidMessages();
    const flags = adding ? HISTORICAL_FLAGS | bit : HISTORICAL_FLAGS & ~bit;
    await insertHistoricalRows(tx, user.id, historical, flags);
  }
  const toUpdate = changed.filter((id) => existing.has(id));
  await changeFlagBit(tx, user.id, toUpdate, bit, adding);
  const event = { type: "update_message_flags" as const, op: change.adding ? ("add" as const) : ("remove" as const), flag, messages: changed, all: false };
  const full = { ...event, operation: event.op };
  if (flag === "read" && !adding) outbox.send({ ...full, message_details: await unreadDetails(tx, user.id, changed) }, [user.id]);
  else outbox.send(full, [user.id]);
  return changed.length;
}

async function dropUnsubscribedChannelMessages(db: Db, userId: number, ids: number[]): Promise<number[]> {
  if (ids.length === 0) return ids;
  const subscribed = await activeSubscribedStreamIds(db, userId);
  const rows = await messagesByIds(db, ids);
  const drop = new Set(rows.filter((m) => m.stream_id !== null && !subscribed.has(m.stream_id)).map((m) => m.id));
  return ids.filter((id) => !drop.has(id));
}

/** message_details of update_message_flags remove/read: where each now-unread message lives. */
async function unreadDetails(db: Db, userId: number, ids: readonly number[]): Promise<Record<string, Record<string, unknown>>> {
  const out: Record<string, Record<string, unknown>> = {};
  if (ids.length === 0) return out;
  const flags = await flagsOfMessages(db, userId, ids);
  const muted = await mutedStreamIds(db, userId);
  for (const m of (await messagesByIds(db, ids)).sort((a, b) => a.id - b.id)) {
    const bits = flags.get(m.id) ?? 0;
    if (bits & Flag.read) continue;
    const details: Record<string, unknown> =
      m.stream_id !== null
        ? { type: "stream", stream_id: m.stream_id, topic: m.topic, unmuted_stream_msg: !muted.has(m.stream_id) }
        : { type: "private", user_ids: m.dm_key.split(",").map(Number).filter((id) => id !== userId) };
    if (bits & MENTION_BITS) details.mentioned = true;
    out[String(m.id)] = details;
  }
  return out;
}

// Zulip marks all as read in batches of this many, and gives up (to be asked again) after 50 s.
const MARK_ALL_BATCH = 2000;
const TIME_LIMIT_MS = 50_000;

/** An update_message_flags add/read event for the user's own clients. */
function readEvent(messages: number[], all: boolean) {
  return { type: "update_message_flags" as const, op: "add" as const, operation: "add" as const, flag: "read", messages, all };
}

/**
 * Zulip's do_mark_all_as_read: marks every unread message read, newest first, one committed batch
 * at a time, so a request that runs out of time keeps its progress. Returns false when time ran
 * out (the client asks again). Sends update_message_flags with `all` to the user's own clients
 * once everything is read; none when time ran out.
 */
export async function checkMarkAllAsRead(ctx: AppContext, user: UserRow): Promise<boolean> {
  const start = ctx.clock.now();
  for (;;) {
    if (ctx.clock.now() >= start + TIME_LIMIT_MS) return false;
    const finished = await write(ctx, async (tx, outbox) => {
      const ids = await unreadMessageIds(tx, user.id, { limit: MARK_ALL_BATCH });
      await setReadFlag(tx, user.id, ids);
      if (ids.length === MARK_ALL_BATCH) return false;
      // The clients reload their unread state, so the event lists no messages.
      outbox.send(readEvent([], true), [user.id]);
      return true;
    });
    if (finished) return true;
  }
}

/**
 * Zulip's mark_stream_as_read and mark_topic_as_read: the channel must be accessible, and a named
 * topic one the user received a message in (an empty name means the whole channel). Sends
 * update_message_flags with the messages it marked to the user's own clients, if any.
 */
export async function checkMarkChannelAsRead(ctx: AppContext, user: UserRow, streamId: number, topic?: string): Promise<void> {
  await write(ctx, async (tx, outbox) => {
    const { stream } = await accessStreamById(tx, user, streamId);
    if (topic && !(await receivedInTopic(tx, user.id, stream.id, topic))) throw badRequest(`No such topic '${topic}'`);
    const ids = await unreadMessageIds(tx, user.id, { streamId: stream.id, topic: topic || undefined });
    if (ids.length === 0) return;
    await setReadFlag(tx, user.id, ids);
    outbox.send(readEvent(ids, false), [user.id]);
  });
}
