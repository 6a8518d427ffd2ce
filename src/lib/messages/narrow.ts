import { sql, type RawBuilder, type SqlBool } from "kysely";
import type { Db } from "../../db/index.js";
import { anyStreamByName, streamById } from "../../db/queries/streams.js";
import { userByApiEmail, userById, type UserRow } from "../../db/queries/users.js";
import { ApiError, badRequest } from "../../base/errors.js";
import { Flag, MENTION_BITS } from "./flags.js";
import { accessMessage, canAccessStreamHistory } from "./access.js";
import { parseSearch, searchCondition } from "./search.js";
import { Role } from "../users/roles.js";

/** One narrow term as Zulip's NarrowParameter holds it. */
export interface NarrowTerm {
  operator: string;
  operand: string | number | number[];
  negated: boolean;
}

/** A narrow turned into SQL over `message m` and (in received-only mode) `user_message um`. */
export interface BuiltNarrow {
  conditions: RawBuilder<SqlBool>[];
  /** Messages the user never received may match (a channel whose history the user may read). */
  includeHistory: boolean;
  /** Search words, for match highlighting. */
  searchWords: string[];
  /** A term tests the user's flags, so the per-user partial indexes should drive the scan. */
  usesFlags: boolean;
}

/** The prefix Zulip puts on resolved topics. */
export const RESOLVED_TOPIC_PREFIX = "✔ ";

const ID_OPERATORS = new Set(["channel", "stream", "id", "sender", "group-pm-with", "dm-including", "with"]);
const ID_LIST_OPERATORS = new Set(["pm-with", "dm"]);

/** Zulip's BAD_NARROW error: `Invalid narrow operator: <desc>`. */
export function badNarrow(desc: string): ApiError {
  return new ApiError(`Invalid narrow operator: ${desc}`, "BAD_NARROW", 400);
}

/**
 * Decodes the `narrow` parameter: a JSON list of term objects or legacy [operator, operand] pairs
 * (Zulip's NarrowParameter under typed_endpoint, with its exact messages).
 */
export function parseNarrow(raw: string, name = "narrow"): NarrowTerm[] {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    throw badRequest(`${name} is not valid JSON`);
  }
  if (data === null) return [];
  if (!Array.isArray(data)) throw badRequest(`${name} is not a list`);
  return data.map((elem: unknown, i): NarrowTerm => {
    const invalid = (why: string) => badRequest(`Invalid ${name}[${i}]: Value error, ${why}`);
    if (Array.isArray(elem)) {
      if (elem.length !== 2 || elem.some((x) => typeof x !== "string")) throw invalid("element is not a string pair");
      return { operator: String(elem[0]), operand: String(elem[1]), negated: false };
    }
    if (typeof elem !== "object" || elem === null) throw invalid("dict or list required");
    const e = elem as Record<string, unknown>;
    if (e.operand === undefined || e.operand === null) throw invalid("operand is missing");
    if (e.operator === undefined || e.operator === null) throw invalid("operator is missing");
    if (typeof e.operator !== "string") throw badRequest(`${name}[${i}]["operator"] is not a string`);
    if (e.negated !== undefined && typeof e.negated !== "boolean") throw badRequest(`${name}[${i}]["negated"] is not a boolean`);
    return { operator: e.operator, operand: checkOperand(e.operator, e.operand), negated: e.negated === true };
  });
}

function checkOperand(operator: string, value: unknown): string | number | number[] {
  if (ID_OPERATORS.has(operator)) {
    if (typeof value === "string" || (typeof value === "number" && Number.isInteger(value))) return value;
    throw badRequest("operand is not a string or integer");
  }
  if (ID_LIST_OPERATORS.has(operator)) {
    if (typeof value === "string") return value;
    if (Array.isArray(value) && value.every((v) => typeof v === "number" && Number.isInteger(v))) return value as number[];
    throw badRequest("operand is not a string or an integer list");
  }
  if (typeof value !== "string") throw badRequest("operand is not a string");
  if (operator === "search" && value.trim() === "") throw badRequest("operand cannot be blank.");
  return value;
}

/** What building a narrow needs to know about the database and the user. */
export interface NarrowScope {
  db: Db;
  user: UserRow;
  dialect: "sqlite" | "postgres";
}

/**
 * Turns terms into SQL conditions (Zulip's NarrowBuilder). Every condition only ever removes rows,
 * so the caller's access restriction (received rows, or one readable channel) stays in force.
 */
export async function buildNarrow(scope: NarrowScope, given: readonly NarrowTerm[]): Promise<BuiltNarrow> {
  const built: BuiltNarrow = { conditions: [], includeHistory: false, searchWords: [], usesFlags: false };
  const terms = await resolveWith(scope, given);
  let channelNarrow = false;
  let dmNarrow = false;
  for (const term of terms) {
    const kind = termKind(term);
    if (!term.negated && kind === "channel") channelNarrow = true;
    if (!term.negated && kind === "dm") dmNarrow = true;
    const condition = await termCondition(scope, term, built);
    if (channelNarrow && dmNarrow) throw badNarrow("No message can be both a channel message and direct message");
    if (condition) built.conditions.push(term.negated ? sql<SqlBool>`NOT (${condition})` : condition);
  }
  if (terms.some((t) => t.operator === "is" && t.operand !== "resolved" && t.operand !== "followed")) built.includeHistory = false;
  return built;
}

const CONVERSATION_OPERATORS = new Set(["channel", "stream", "topic", "dm", "pm-with", "pm_with"]);

/**
 * Zulip's `with` operator (feature level 271): the conversation of a message the user may read
 * replaces the narrow's own channel/topic/DM terms; an inaccessible message just drops the term.
 */
async function resolveWith(scope: NarrowScope, terms: readonly NarrowTerm[]): Promise<readonly NarrowTerm[]> {
  const withTerms = terms.filter((t) => t.operator === "with");
  if (withTerms.length === 0) return terms;
  if (withTerms.length > 1) {
    throw new ApiError("Invalid narrow operator combination: Duplicate 'with' operators.", "BAD_NARROW", 400, { desc: "Duplicate 'with' operators." });
  }
  const rest = terms.filter((t) => t.operator !== "with");
  const operand = String(withTerms[0]?.operand);
  if (!/^\d+$/.test(operand)) throw badNarrow("Invalid 'with' operator");
  let accessed;
  try {
    accessed = await accessMessage(scope.db, scope.user, Number(operand));
  } catch (error) {
    if (error instanceof ApiError) return rest;
    throw error;
  }
  const others = rest.filter((t) => !CONVERSATION_OPERATORS.has(t.operator));
  const m = accessed.message;
  const conversation: NarrowTerm[] =
    m.stream_id !== null
      ? [
          { operator: "channel", operand: m.stream_id, negated: false },
          { operator: "topic", operand: m.topic, negated: false },
        ]
      : [{ operator: "dm", operand: m.dm_key.split(",").map(Number), negated: false }];
  return [...conversation, ...others];
}

function termKind(term: NarrowTerm): "channel" | "dm" | null {
  if (["channel", "stream", "channels", "streams", "topic"].includes(term.operator)) return "channel";
  if (["dm", "pm-with", "pm_with", "dm-including", "group-pm-with", "group_pm_with"].includes(term.operator)) return "dm";
  if (term.operator === "is" && (term.operand === "dm" || term.operand === "private")) return "dm";
  return null;
}

async function termCondition(scope: NarrowScope, term: NarrowTerm, built: BuiltNarrow): Promise<RawBuilder<SqlBool> | null> {
  const { operator, operand } = term;
  const me = scope.user.id;
  switch (operator) {
    case "channel":
    case "stream": {
      const stream =
        typeof operand === "number" ? await streamById(scope.db, operand) : await anyStreamByName(scope.db, scope.user.realm_id, String(operand));
      if (!stream || stream.realm_id !== scope.user.realm_id) throw badNarrow(`unknown channel ${String(operand)}`);
      if (!term.negated && (await canAccessStreamHistory(scope.db, scope.user, stream))) built.includeHistory = true;
      // Never NULL (so NOT works for direct messages) and still an index probe on stream_id.
      return sql<SqlBool>`(m.stream_id IS NOT NULL AND m.stream_id = ${stream.id})`;
    }
    case "channels":
    case "streams": {
      if (operand === "public") {
        if (!term.negated && scope.user.role !== Role.GUEST) built.includeHistory = true;
        return sql<SqlBool>`(m.stream_id IS NOT NULL AND m.stream_id IN (SELECT s.id FROM stream s WHERE s.realm_id = ${scope.user.realm_id} AND s.invite_only = 0))`;
      }
      if (operand === "web-public") {
        return sql<SqlBool>`(m.stream_id IS NOT NULL AND m.stream_id IN (SELECT s.id FROM stream s WHERE s.realm_id = ${scope.user.realm_id} AND s.is_web_public = 1))`;
      }
      throw badNarrow(`unknown channels operand ${String(operand)}`);
    }
    case "topic":
      return sql<SqlBool>`lower(m.topic) = lower(${String(operand)})`;
    case "sender": {
      const sender = await resolveUser(scope, operand);
      if (!sender) throw badNarrow(`unknown user ${String(operand)}`);
      return sql<SqlBool>`m.sender_id = ${sender.id}`;
    }
    case "dm":
    case "pm-with":
    case "pm_with":
      return sql<SqlBool>`m.dm_key = ${await dmKeyOf(scope, operand)}`;
    case "dm-including": {
      const other = await resolveUser(scope, operand);
      if (!other) throw badNarrow(`unknown user ${String(operand)}`);
      if (other.id === me) return sql<SqlBool>`m.dm_key <> ''`;
      return sql<SqlBool>`(m.dm_key <> '' AND ${containsUser(other.id)} AND ${containsUser(me)})`;
    }
    case "group-pm-with":
    case "group_pm_with": {
      const other = await resolveUser(scope, operand);
      if (!other) throw badNarrow(`unknown user ${String(operand)}`);
      return sql<SqlBool>`(length(m.dm_key) - length(replace(m.dm_key, ',', '')) >= 2 AND ${containsUser(other.id)} AND ${containsUser(me)})`;
    }
    case "is":
      built.usesFlags ||= ["starred", "unread", "mentioned", "alerted"].includes(String(operand));
      return isCondition(scope, String(operand));
    case "in":
      if (operand === "home") return sql<SqlBool>`NOT (${mutedCondition(me)})`;
      if (operand === "all") return null;
      throw badNarrow(`unknown 'in' operand ${String(operand)}`);
    case "has":
      return hasCondition(String(operand));
    case "id": {
      if (!/^\d+$/.test(String(operand))) throw badNarrow("Invalid message ID");
      // A validated digit string, written as a literal so ids beyond the column's range just match nothing.
      return sql<SqlBool>`m.id = ${sql.lit(Number(operand))}`;
    }
    case "near":
      return null;
    case "search": {
      const search = parseSearch(String(operand));
      built.searchWords.push(...search.words);
      return searchCondition(scope.db, scope.dialect, search);
    }
    default:
      throw badNarrow(`unknown operator ${operator}`);
  }
}

function isCondition(scope: NarrowScope, operand: string): RawBuilder<SqlBool> {
  switch (operand) {
    case "dm":
    case "private":
      return sql<SqlBool>`m.dm_key <> ''`;
    case "starred":
      return sql<SqlBool>`(um.flags & ${sql.lit(Flag.starred)}) <> 0`;
    case "unread":
      return sql<SqlBool>`(um.flags & 1) = 0`;
    case "mentioned":
      return sql<SqlBool>`(um.flags & ${sql.lit(MENTION_BITS)}) <> 0`;
    case "alerted":
      return sql<SqlBool>`(um.flags & ${sql.lit(Flag.has_alert_word)}) <> 0`;
    case "resolved":
      return sql<SqlBool>`(m.stream_id IS NOT NULL AND m.topic LIKE ${RESOLVED_TOPIC_PREFIX + "%"})`;
    case "followed":
      return sql<SqlBool>`EXISTS (SELECT 1 FROM user_topic ut WHERE ut.user_id = ${scope.user.id} AND ut.stream_id = m.stream_id AND ut.topic_key = lower(m.topic) AND ut.visibility_policy = 3)`;
    case "muted":
      return mutedCondition(scope.user.id);
    default:
      throw badNarrow(`unknown 'is' operand ${operand}`);
  }
}

/** A channel message the user does not see in the combined feed: muted channel (topic not unmuted/followed) or muted topic. */
export function mutedCondition(userId: number): RawBuilder<SqlBool> {
  return sql<SqlBool>`(m.stream_id IS NOT NULL AND (
    (EXISTS (SELECT 1 FROM subscription s WHERE s.user_id = ${userId} AND s.stream_id = m.stream_id AND s.is_muted = 1)
      AND NOT EXISTS (SELECT 1 FROM user_topic ut WHERE ut.user_id = ${userId} AND ut.stream_id = m.stream_id AND ut.topic_key = lower(m.topic) AND ut.visibility_policy IN (2, 3)))
    OR EXISTS (SELECT 1 FROM user_topic ut WHERE ut.user_id = ${userId} AND ut.stream_id = m.stream_id AND ut.topic_key = lower(m.topic) AND ut.visibility_policy = 1)))`;
}

/** A message in a topic the user muted. */
export function mutedTopicCondition(userId: number): RawBuilder<SqlBool> {
  return sql<SqlBool>`(m.stream_id IS NOT NULL AND EXISTS (SELECT 1 FROM user_topic ut WHERE ut.user_id = ${userId} AND ut.stream_id = m.stream_id AND ut.topic_key = lower(m.topic) AND ut.visibility_policy = 1))`;
}

function hasCondition(operand: string): RawBuilder<SqlBool> {
  switch (operand) {
    case "link":
      return sql<SqlBool>`m.has_link = 1`;
    case "image":
      return sql<SqlBool>`m.has_image = 1`;
    case "attachment":
      return sql<SqlBool>`m.has_attachment = 1`;
    case "reaction":
      return sql<SqlBool>`EXISTS (SELECT 1 FROM reaction r WHERE r.message_id = m.id)`;
    default:
      throw badNarrow(`unknown 'has' operand ${operand}`);
  }
}

function containsUser(userId: number): RawBuilder<SqlBool> {
  return sql<SqlBool>`(',' || m.dm_key || ',') LIKE ${`%,${userId},%`}`;
}

async function resolveUser(scope: NarrowScope, operand: string | number | number[]): Promise<UserRow | undefined> {
  let found: UserRow | undefined;
  if (typeof operand === "number") found = await userById(scope.db, operand);
  else if (typeof operand === "string") found = await userByApiEmail(scope.db, scope.user.realm_id, operand.trim());
  return found && found.realm_id === scope.user.realm_id ? found : undefined;
}

/** The dm_key of a conversation named by emails ("a,b") or ids, always including the user. */
async function dmKeyOf(scope: NarrowScope, operand: string | number | number[]): Promise<string> {
  const desc = Array.isArray(operand) ? `[${operand.join(", ")}]` : String(operand);
  const keys = Array.isArray(operand) ? operand : String(operand).split(",").map((e) => e.trim());
  const ids = new Set<number>([scope.user.id]);
  for (const key of keys) {
    const user = await resolveUser(scope, key);
    if (!user) throw badNarrow(`unknown user in ${desc}`);
    ids.add(user.id);
  }
  return dmKey([...ids]);
}

/** The dm_key of a conversation: its participants' sorted ids, comma-joined. */
export function dmKey(userIds: readonly number[]): string {
  return [...new Set(userIds)].sort((a, b) => a - b).join(",");
}
