import { sql, type RawBuilder, type SqlBool } from "kysely";
import type { AppContext } from "../../context.js";
import { MAX_STORED_ID, messagesByIds, type MessageRow } from "../../db/queries/messages.js";
import type { UserRow } from "../../db/queries/users.js";
import { badRequest } from "../../base/errors.js";
import { HISTORICAL_FLAGS } from "./flags.js";
import { buildNarrow, mutedCondition, mutedTopicCondition, type BuiltNarrow, type NarrowTerm } from "./narrow.js";
import { selectInChunks } from "../../db/chunks.js";

/** Zulip's LARGER_THAN_MAX_MESSAGE_ID: the resolved `newest` anchor. */
export const NEWEST_ANCHOR = 10_000_000_000_000_000;

/** Zulip's cap on messages per fetch. */
export const MAX_MESSAGES_PER_FETCH = 5000;

/** A parsed anchor: an id, or first_unread (resolved against the narrow). */
export type Anchor = number | "first_unread";

/** Zulip's parse_anchor_value. */
export function parseAnchor(raw: string): Anchor {
  if (raw === "newest") return NEWEST_ANCHOR;
  if (raw === "oldest") return 0;
  if (raw === "first_unread") return "first_unread";
  if (!/^-?\d+$/.test(raw.trim())) throw badRequest("Invalid anchor");
  return Math.min(Math.max(Number(raw.trim()), 0), NEWEST_ANCHOR);
}

/** A range request over a narrow. */
export interface RangeRequest {
  anchor: Anchor;
  numBefore: number;
  numAfter: number;
  includeAnchor: boolean;
  narrow: readonly NarrowTerm[];
  /** Only ids and flags are needed (flags/narrow): message rows are not loaded. */
  idsOnly?: boolean;
}

/** One message of a range: its id, the user's flags, and the row unless only ids were asked for. */
export interface RangeRow {
  id: number;
  flags: number;
  received: boolean;
  message: MessageRow | undefined;
}

/** A fetched range: rows ascending with the user's flags, and Zulip's found_* facts. */
export interface RangeResult {
  rows: RangeRow[];
  anchor: number;
  foundAnchor: boolean;
  foundOldest: boolean;
  foundNewest: boolean;
  narrow: BuiltNarrow;
}

type Row = { id: number; um_flags: number | null };

/** The narrow's rows visible to the user, as a query to extend (Zulip's get_base_query_for_search + narrow). */
function baseQuery(ctx: AppContext, user: UserRow, built: BuiltNarrow, extra: RawBuilder<SqlBool>[]) {
  const conditions = [...built.conditions, ...extra];
  const where = conditions.length > 0 ? sql<SqlBool>`${sql.join(conditions, sql` AND `)}` : sql<SqlBool>`1 = 1`;
  if (built.includeHistory) {
    return ctx.db
      .selectFrom("message as m")
      .leftJoin("user_message as um", (join) => join.onRef("um.message_id", "=", "m.id").on("um.user_id", "=", user.id))
      .select(["m.id", "um.flags as um_flags"])
      .where("m.realm_id", "=", user.realm_id)
      .where(where);
  }
  return ctx.db
    .selectFrom("user_message as um")
    .innerJoin("message as m", "m.id", "um.message_id")
    .select(["m.id", "um.flags as um_flags"])
    .where("um.user_id", "=", user.id)
    .where(where);
}

/** Messages around an anchor in a narrow, as GET /messages and POST /messages/flags/narrow read them. */
export async function fetchRange(ctx: AppContext, user: UserRow, req: RangeRequest): Promise<RangeResult> {
  const narrow = await buildNarrow({ db: ctx.db, user, dialect: ctx.store.dialect }, req.narrow);
  const anchor = req.anchor === "first_unread" ? await firstUnread(ctx, user, narrow, req.narrow) : req.anchor;
  const toLeft = anchor === 0;
  const toRight = anchor >= NEWEST_ANCHOR;
  const needBefore = !toLeft && req.numBefore > 0;
  const needAfter = !toRight && req.numAfter > 0;
  const inc = req.includeAnchor ? 1 : 0;
  let rows: Row[] = [];
  // Flag narrows walk the per-user (partial) indexes in id order; the others let the planner
  // start from message indexes (channel, topic) and order by message id. The bounds are
  // validated integers written as literals (the limit too): with bound parameters SQLite's planner moves the
  // range onto message.id and scans the wrong table.
  const id = !narrow.includeHistory && narrow.usesFlags ? sql.ref("um.message_id") : sql.ref("m.id");
  const before = (upTo: number, limit: number) =>
    baseQuery(ctx, user, narrow, [sql<SqlBool>`${id} <= ${sql.lit(Math.trunc(upTo))}`]).orderBy(sql`${id} desc`).limit(sql.lit(Math.trunc(limit))).execute();
  const after = (from: number, limit: number) =>
    baseQuery(ctx, user, narrow, [sql<SqlBool>`${id} >= ${sql.lit(Math.trunc(from))}`]).orderBy(sql`${id} asc`).limit(sql.lit(Math.trunc(limit))).execute();
  if (needBefore && needAfter) {
    rows = [...(await before(anchor - 1, req.numBefore)), ...(await after(anchor, req.numAfter + 1))];
  } else if (needBefore) {
    rows = await before(anchor - (1 - inc), req.numBefore + (toRight ? 0 : inc));
  } else if (needAfter) {
    rows = await after(anchor + (1 - inc), req.numAfter + inc);
  } else {
    rows = await baseQuery(ctx, user, narrow, [sql<SqlBool>`m.id = ${sql.lit(Math.trunc(anchor))}`]).execute();
  }
  rows.sort((a, b) => a.id - b.id);
  let beforeRows = toRight ? rows : rows.filter((r) => r.id < anchor);
  const anchorRows = toRight ? [] : rows.filter((r) => r.id === anchor);
  let afterRows = toRight ? [] : rows.filter((r) => r.id > anchor);
  const numAfter = toRight ? 0 : req.numAfter;
  if (req.numBefore) beforeRows = beforeRows.slice(-req.numBefore);
  if (numAfter) afterRows = afterRows.slice(0, numAfter);
  const visible = [...beforeRows, ...anchorRows, ...afterRows];
  const full = req.idsOnly ? new Map<number, MessageRow>() : new Map((await messagesByIds(ctx.db, visible.map((r) => r.id))).map((m) => [m.id, m]));
  return {
    rows: visible.map((r) => ({ id: r.id, flags: r.um_flags ?? HISTORICAL_FLAGS, received: r.um_flags !== null, message: full.get(r.id) })),
    anchor,
    foundAnchor: anchorRows.length === 1,
    foundOldest: toLeft || beforeRows.length < req.numBefore,
    foundNewest: toRight || afterRows.length < numAfter,
    narrow,
  };
}

/** The oldest unread message of the narrow, skipping muted conversations (Zulip's find_first_unread_anchor). */
async function firstUnread(ctx: AppContext, user: UserRow, narrow: BuiltNarrow, terms: readonly NarrowTerm[]): Promise<number> {
  const inChannel = terms.some((t) => !t.negated && (t.operator === "channel" || t.operator === "stream"));
  const muted = inChannel ? mutedTopicCondition(user.id) : mutedCondition(user.id);
  const received = { ...narrow, includeHistory: false };
  // Walked from the user's unread messages (a short list, in id order in their index), unless a
  // topic names a shorter one: ordered by message id, a channel's messages would be read one by one
  // (message_stream_id) to find its first unread.
  const inTopic = terms.some((t) => !t.negated && t.operator === "topic");
  const row = await baseQuery(ctx, user, received, [sql<SqlBool>`(um.flags & 1) = 0`, sql<SqlBool>`NOT (${muted})`])
    .orderBy(inTopic ? sql`m.id` : sql`um.message_id`, "asc")
    .limit(1)
    .executeTakeFirst();
  return row?.id ?? NEWEST_ANCHOR;
}

/** Which of `ids` the user received and that match the narrow (GET /messages/matches_narrow). */
export async function matchingReceived(ctx: AppContext, user: UserRow, ids: readonly number[], terms: readonly NarrowTerm[]): Promise<{ rows: MessageRow[]; narrow: BuiltNarrow }> {
  const built = await buildNarrow({ db: ctx.db, user, dialect: ctx.store.dialect }, terms);
  if (ids.length === 0) return { rows: [], narrow: built };
  const received = { ...built, includeHistory: false };
  const wanted = ids.filter((id) => id > 0 && id <= MAX_STORED_ID);
  if (wanted.length === 0) return { rows: [], narrow: built };
  const rows = await selectInChunks(wanted, (slice) => baseQuery(ctx, user, received, []).where("m.id", "in", slice).execute());
  const full = await messagesByIds(ctx.db, rows.map((r) => r.id));
  return { rows: full.sort((a, b) => a.id - b.id), narrow: built };
}
