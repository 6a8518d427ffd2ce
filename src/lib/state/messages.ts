import { sql, type SqlBool } from "kysely";
import type { Db } from "../../db/index.js";
import { maxReceivedMessageId } from "../../db/queries/messages.js";
import type { AppEvent } from "../../events/types.js";
import { MENTION_BITS } from "../messages/flags.js";
import type { StateSection } from "./types.js";

/** Zulip's unread_msgs, as /register returns it. */
interface Unreads {
  count: number;
  pms: { other_user_id: number; sender_id: number; unread_message_ids: number[] }[];
  streams: { stream_id: number; topic: string; unread_message_ids: number[] }[];
  huddles: { user_ids_string: string; unread_message_ids: number[] }[];
  mentions: number[];
  old_unreads_missing: boolean;
}

/** Where one unread message lives. */
type Place = { kind: "stream"; streamId: number; topic: string } | { kind: "private"; dmKey: string };

// Zulip's MAX_UNREAD_MESSAGES: older unreads are left out and old_unreads_missing says so.
const MAX_UNREADS = 50000;
const MAX_RECENT_DMS = 1000;

/** max_message_id, unread_msgs and recent_private_conversations, with message and flag events applied. */
export const messagesSection: StateSection = {
  types: ["message", "update_message_flags", "recent_private_conversations"],
  async fetch(ctx, user, want, _opts, state) {
    if (want("message")) state.max_message_id = await maxReceivedMessageId(ctx.db, user.id);
    if (want("message") && want("update_message_flags")) state.unread_msgs = await fetchUnreads(ctx.db, user.id);
    if (want("recent_private_conversations")) state.recent_private_conversations = await fetchRecentDms(ctx.db, user.id);
  },
  apply(state, event, user) {
    applyToMaxId(state, event);
    const unreads = state.unread_msgs as Unreads | undefined;
    if (unreads) applyToUnreads(unreads, event, user.id, state);
    if (Array.isArray(state.recent_private_conversations) && event.type === "message" && event.message.type === "private") {
      const list = state.recent_private_conversations as { max_message_id: number; user_ids: number[] }[];
      const others = dmUserIds(event.message).filter((id) => id !== user.id);
      const key = others.join(",");
      const found = list.find((c) => c.user_ids.join(",") === key);
      if (found) found.max_message_id = Math.max(found.max_message_id, event.message.id);
      else list.push({ max_message_id: event.message.id, user_ids: others });
      list.sort((a, b) => b.max_message_id - a.max_message_id);
    }
  },
};

function applyToMaxId(state: Record<string, unknown>, event: AppEvent): void {
  if (event.type === "message" && typeof state.max_message_id === "number") state.max_message_id = Math.max(state.max_message_id, event.message.id);
}

function dmUserIds(message: Record<string, unknown>): number[] {
  const recipients = Array.isArray(message.display_recipient) ? (message.display_recipient as { id: number }[]) : [];
  return recipients.map((r) => r.id).sort((a, b) => a - b);
}

async function fetchUnreads(db: Db, userId: number): Promise<Unreads> {
  const rows = await db
    .selectFrom("user_message as um")
    .innerJoin("message as m", "m.id", "um.message_id")
    .select(["m.id", "m.stream_id", "m.topic", "m.dm_key", "um.flags"])
    .where("um.user_id", "=", userId)
    .where(sql<SqlBool>`(um.flags & 1) = 0`)
    .orderBy("m.id", "desc")
    .limit(MAX_UNREADS + 1)
    .execute();
  const muted = await mutedFacts(db, userId);
  const unreads: Unreads = { count: 0, pms: [], streams: [], huddles: [], mentions: [], old_unreads_missing: rows.length > MAX_UNREADS };
  for (const r of rows.slice(0, MAX_UNREADS).reverse()) {
    const place: Place = r.stream_id !== null ? { kind: "stream", streamId: r.stream_id, topic: r.topic } : { kind: "private", dmKey: r.dm_key };
    addUnread(unreads, r.id, place, userId, (r.flags & MENTION_BITS) !== 0);
  }
  unreads.count = countOf(unreads, muted);
  return unreads;
}

function addUnread(u: Unreads, id: number, place: Place, me: number, mentioned: boolean): void {
  if (place.kind === "stream") {
    let entry = u.streams.find((s) => s.stream_id === place.streamId && s.topic === place.topic);
    if (!entry) u.streams.push((entry = { stream_id: place.streamId, topic: place.topic, unread_message_ids: [] }));
    insertSorted(entry.unread_message_ids, id);
    u.streams.sort((a, b) => a.stream_id - b.stream_id || (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : 0));
  } else {
    const ids = place.dmKey.split(",").map(Number);
    if (ids.length > 2) {
      let entry = u.huddles.find((h) => h.user_ids_string === place.dmKey);
      if (!entry) u.huddles.push((entry = { user_ids_string: place.dmKey, unread_message_ids: [] }));
      insertSorted(entry.unread_message_ids, id);
    } else {
      const other = ids.find((x) => x !== me) ?? me;
      let entry = u.pms.find((p) => p.other_user_id === other);
      if (!entry) u.pms.push((entry = { other_user_id: other, sender_id: other, unread_message_ids: [] }));
      insertSorted(entry.unread_message_ids, id);
      u.pms.sort((a, b) => a.other_user_id - b.other_user_id);
    }
  }
  if (mentioned) insertSorted(u.mentions, id);
}

function removeUnreads(u: Unreads, ids: ReadonlySet<number>): void {
  const keep = (list: number[]) => list.filter((id) => !ids.has(id));
  u.pms = u.pms.map((p) => ({ ...p, unread_message_ids: keep(p.unread_message_ids) })).filter((p) => p.unread_message_ids.length > 0);
  u.streams = u.streams.map((s) => ({ ...s, unread_message_ids: keep(s.unread_message_ids) })).filter((s) => s.unread_message_ids.length > 0);
  u.huddles = u.huddles.map((h) => ({ ...h, unread_message_ids: keep(h.unread_message_ids) })).filter((h) => h.unread_message_ids.length > 0);
  u.mentions = keep(u.mentions);
}

function insertSorted(list: number[], id: number): void {
  if (list.includes(id)) return;
  list.push(id);
  list.sort((a, b) => a - b);
}

/** Which channels and topics are muted, for the unread count (muted conversations do not count). */
interface MutedFacts {
  streams: Set<number>;
  /** `${stream_id}:${lower topic}` → visibility policy. */
  topics: Map<string, number>;
}

async function mutedFacts(db: Db, userId: number): Promise<MutedFacts> {
  const subs = await db.selectFrom("subscription").select("stream_id").where("user_id", "=", userId).where("active", "=", 1).where("is_muted", "=", 1).execute();
  const topics = await db.selectFrom("user_topic").select(["stream_id", "topic_key", "visibility_policy"]).where("user_id", "=", userId).execute();
  return { streams: new Set(subs.map((s) => s.stream_id)), topics: new Map(topics.map((t) => [`${t.stream_id}:${t.topic_key}`, t.visibility_policy])) };
}

function mutedFactsFromState(state: Record<string, unknown>): MutedFacts {
  const subs = Array.isArray(state.subscriptions) ? (state.subscriptions as { stream_id: number; is_muted?: boolean }[]) : [];
  const topics = Array.isArray(state.user_topics) ? (state.user_topics as { stream_id: number; topic_name: string; visibility_policy: number }[]) : [];
  return {
    streams: new Set(subs.filter((s) => s.is_muted).map((s) => s.stream_id)),
    topics: new Map(topics.map((t) => [`${t.stream_id}:${t.topic_name.toLowerCase()}`, t.visibility_policy])),
  };
}

function countOf(u: Unreads, muted: MutedFacts): number {
  let count = u.pms.reduce((n, p) => n + p.unread_message_ids.length, 0) + u.huddles.reduce((n, h) => n + h.unread_message_ids.length, 0);
  for (const s of u.streams) {
    const policy = muted.topics.get(`${s.stream_id}:${s.topic.toLowerCase()}`) ?? 0;
    const isMuted = policy === 1 || (muted.streams.has(s.stream_id) && policy !== 2 && policy !== 3);
    if (!isMuted) count += s.unread_message_ids.length;
  }
  return count;
}

function applyToUnreads(u: Unreads, event: AppEvent, me: number, state: Record<string, unknown>): void {
  if (event.type === "message") {
    const flags = event.flags ?? [];
    if (flags.includes("read")) return;
    const m = event.message;
    const place: Place =
      m.type === "stream" ? { kind: "stream", streamId: Number(m.stream_id), topic: String(m.subject) } : { kind: "private", dmKey: dmUserIds(m).join(",") };
    addUnread(u, m.id, place, me, flags.some((f) => ["mentioned", "stream_wildcard_mentioned", "topic_wildcard_mentioned", "group_mentioned"].includes(f)));
  } else if (event.type === "update_message_flags" && event.flag === "read") {
    if (event.op === "add") {
      if (event.all) removeUnreads(u, new Set([...u.pms, ...u.streams, ...u.huddles].flatMap((e) => e.unread_message_ids)));
      else removeUnreads(u, new Set(event.messages));
    } else {
      for (const [id, d] of Object.entries(event.message_details ?? {})) {
        const place: Place =
          d.type === "stream"
            ? { kind: "stream", streamId: Number(d.stream_id), topic: String(d.topic) }
            : { kind: "private", dmKey: [...(d.user_ids as number[]), me].sort((a, b) => a - b).join(",") };
        addUnread(u, Number(id), place, me, d.mentioned === true);
      }
    }
  } else if (event.type === "delete_message") {
    // Queues without bulk_message_deletion receive the legacy single `message_id`.
    const legacy: unknown = (event as Record<string, unknown>).message_id;
    removeUnreads(u, new Set(Array.isArray(event.message_ids) ? event.message_ids : typeof legacy === "number" ? [legacy] : []));
  } else if (event.type === "update_message") {
    applyEditToUnreads(u, event, me);
  } else {
    return;
  }
  u.count = countOf(u, mutedFactsFromState(state));
}

function applyEditToUnreads(u: Unreads, event: Extract<AppEvent, { type: "update_message" }>, me: number): void {
  const flags = Array.isArray(event.flags) ? (event.flags as string[]) : [];
  if (typeof event.rendered_content === "string" && !flags.includes("read")) {
    const mentioned = flags.some((f) => ["mentioned", "stream_wildcard_mentioned", "topic_wildcard_mentioned", "group_mentioned"].includes(f));
    if (mentioned) insertSorted(u.mentions, event.message_id);
    else u.mentions = u.mentions.filter((id) => id !== event.message_id);
  }
  // A move names the new topic (subject), the new channel (new_stream_id), or both.
  const topic = typeof event.subject === "string" ? event.subject : undefined;
  const streamId = typeof event.new_stream_id === "number" ? event.new_stream_id : undefined;
  if (topic === undefined && streamId === undefined) return;
  const moved = new Set(event.message_ids);
  const unread = u.streams.flatMap((s) => s.unread_message_ids.filter((id) => moved.has(id)).map((id) => ({ id, place: s })));
  const mentions = new Set(u.mentions);
  removeUnreads(u, moved);
  for (const { id, place } of unread) {
    addUnread(u, id, { kind: "stream", streamId: streamId ?? place.stream_id, topic: topic ?? place.topic }, me, mentions.has(id));
  }
}

async function fetchRecentDms(db: Db, userId: number): Promise<{ max_message_id: number; user_ids: number[] }[]> {
  const rows = await db
    .selectFrom("user_message as um")
    .innerJoin("message as m", "m.id", "um.message_id")
    .select(["m.id", "m.dm_key"])
    .where("um.user_id", "=", userId)
    .where("m.dm_key", "<>", "")
    .orderBy("m.id", "desc")
    .limit(MAX_RECENT_DMS)
    .execute();
  const byKey = new Map<string, { max_message_id: number; user_ids: number[] }>();
  for (const r of rows) {
    const others = r.dm_key.split(",").map(Number).filter((id) => id !== userId);
    const key = others.join(",");
    if (!byKey.has(key)) byKey.set(key, { max_message_id: r.id, user_ids: others });
  }
  return [...byKey.values()].sort((a, b) => b.max_message_id - a.max_message_id);
}
