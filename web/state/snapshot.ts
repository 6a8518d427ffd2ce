import { dmKeyOf } from "./conversation.js";
import type { Draft, Group, Presence, State, Stream, Sub, UnreadRef, User } from "./types.js";

type Dict = Record<string, unknown>;
const arr = <T>(v: unknown): T[] => (Array.isArray(v) ? (v as T[]) : []);
const dict = (v: unknown): Dict => (typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Dict) : {});

/** The state a /register answer describes (no messages fetched yet). */
export function fromRegister(r: Dict): State {
  const me = Number(r.user_id);
  const users = new Map<number, User>();
  for (const u of [...arr<User>(r.realm_users), ...arr<User>(r.realm_non_active_users), ...arr<User>(r.cross_realm_bots)]) users.set(u.user_id, u);

  const subs = new Map<number, Sub>(arr<Sub>(r.subscriptions).map((s) => [s.stream_id, s]));
  const streams = new Map<number, Stream>();
  for (const s of arr<Stream>(r.streams)) streams.set(s.stream_id, s);
  for (const s of [...arr<Stream>(r.unsubscribed), ...arr<Stream>(r.never_subscribed), ...subs.values()]) if (!streams.has(s.stream_id)) streams.set(s.stream_id, s);

  const unread = new Map<number, UnreadRef>();
  const u = dict(r.unread_msgs);
  for (const s of arr<Dict>(u.streams)) for (const id of arr<number>(s.unread_message_ids)) unread.set(id, { kind: "stream", streamId: Number(s.stream_id), topic: String(s.topic) });
  for (const p of arr<Dict>(u.pms)) {
    const key = dmKeyOf([Number(p.other_user_id ?? p.sender_id)], me);
    for (const id of arr<number>(p.unread_message_ids)) unread.set(id, { kind: "dm", key });
  }
  for (const h of arr<Dict>(u.huddles)) {
    const key = dmKeyOf(String(h.user_ids_string).split(",").map(Number), me);
    for (const id of arr<number>(h.unread_message_ids)) unread.set(id, { kind: "dm", key });
  }

  const presence = new Map<number, Presence>();
  for (const [id, p] of Object.entries(dict(r.presences))) {
    const d = dict(p);
    presence.set(Number(id), { active: Number(d.active_timestamp ?? 0), idle: Number(d.idle_timestamp ?? 0) });
  }
  const userStatus = new Map<number, Dict>(Object.entries(dict(r.user_status)).map(([id, s]) => [Number(id), dict(s)]));
  const userTopics = new Map<string, number>();
  for (const t of arr<Dict>(r.user_topics)) userTopics.set(`${Number(t.stream_id)}:${String(t.topic_name).toLowerCase()}`, Number(t.visibility_policy));
  const recentDms = new Map<string, number>();
  for (const c of arr<Dict>(r.recent_private_conversations)) recentDms.set(dmKeyOf(arr<number>(c.user_ids), me), Number(c.max_message_id));

  const realm: Dict = {};
  for (const [k, v] of Object.entries(r)) if (k.startsWith("realm_") || k.startsWith("max_") || k.startsWith("server_")) realm[k] = v;

  return {
    me,
    serverGeneration: Number(r.server_generation ?? 0),
    realm,
    settings: dict(r.user_settings),
    users,
    streams,
    subs,
    groups: new Map(arr<Group>(r.realm_user_groups).map((g) => [g.id, g])),
    realmEmoji: dict(r.realm_emoji) as Record<string, Dict>,
    messages: new Map(),
    lists: new Map(),
    unread,
    mentions: new Set(arr<number>(u.mentions)),
    starred: new Set(arr<number>(r.starred_messages)),
    presence,
    userStatus,
    typing: new Map(),
    drafts: new Map(arr<Draft>(r.drafts).map((d) => [d.id, d])),
    userTopics,
    mutedUsers: new Set(arr<Dict>(r.muted_users).map((m) => Number(m.id))),
    topics: new Map(),
    recentDms,
    alertWords: arr<string>(r.alert_words),
    profileFields: arr<Dict>(r.custom_profile_fields),
    scheduled: arr<Dict>(r.scheduled_messages),
    bots: new Map(arr<Dict>(r.realm_bots).map((b) => [Number(b.user_id), b])),
  };
}
