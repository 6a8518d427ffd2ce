import { describe, expect, it } from "vitest";
import { applyEvents, appliers } from "../../web/state/apply.js";
import { applyFetched } from "../../web/state/apply-messages.js";
import { withPresences } from "../../web/state/apply-people.js";
import { anchorOf, apiNarrow, encodeHashComponent, matches, narrowKey, parseHash, termsToHash } from "../../web/state/narrow.js";
import { fromRegister } from "../../web/state/snapshot.js";
import type { Message, ServerEvent, State, Term } from "../../web/state/types.js";

const ME = 10;
const users = [
  { user_id: 10, email: "me@x.org", full_name: "Me Myself", is_bot: false, is_active: true, role: 400 },
  { user_id: 11, email: "ann@x.org", full_name: "Ann Lee", is_bot: false, is_active: true, role: 400 },
  { user_id: 12, email: "bo@x.org", full_name: "Bo", is_bot: false, is_active: true, role: 400 },
];

function snapshot(): State {
  return fromRegister({
    user_id: ME,
    realm_name: "Test",
    realm_users: users,
    subscriptions: [{ stream_id: 1, name: "general chat", description: "", invite_only: false, color: "#abc", pin_to_top: false, is_muted: false, subscribers: [10, 11] }],
    never_subscribed: [{ stream_id: 2, name: "design", description: "", invite_only: false }],
    unread_msgs: { streams: [{ stream_id: 1, topic: "hello", unread_message_ids: [5] }], pms: [{ other_user_id: 11, unread_message_ids: [6] }], huddles: [{ user_ids_string: "10,11,12", unread_message_ids: [7] }], mentions: [5] },
    starred_messages: [3],
    presences: { "11": { active_timestamp: 100, idle_timestamp: 100 } },
    user_status: {},
    realm_user_groups: [{ id: 1, name: "team", description: "", members: [10], direct_subgroup_ids: [], is_system_group: false }],
    drafts: [],
    recent_private_conversations: [{ user_ids: [11], max_message_id: 6 }],
  });
}

function message(id: number, extra: Partial<Message> = {}): Message {
  return { id, sender_id: 11, sender_full_name: "Ann Lee", sender_email: "ann@x.org", type: "stream", stream_id: 1, subject: "hello", display_recipient: "general chat", content: `<p>m${id}</p>`, timestamp: 1000 + id, reactions: [], flags: [], submessages: [], ...extra };
}

const ev = (e: Record<string, unknown>) => ({ id: 1, ...e }) as ServerEvent;
const channelTerms: Term[] = [{ operator: "channel", operand: "1" }];

function withList(s: State, terms: Term[], ids: number[], newest = true): State {
  return applyFetched(s, { key: narrowKey(terms), terms, ids: [], foundOldest: true, foundNewest: false, anchor: null }, ids.map((id) => message(id)), { newest });
}

describe("web state: the /register snapshot", () => {
  it("reads users, channels, unreads, DMs, presence and groups", () => {
    const s = snapshot();
    expect(s.me).toBe(ME);
    expect([...s.users.keys()]).toEqual([10, 11, 12]);
    expect([...s.streams.keys()].sort()).toEqual([1, 2]);
    expect([...s.subs.keys()]).toEqual([1]);
    expect(s.unread.get(5)).toEqual({ kind: "stream", streamId: 1, topic: "hello" });
    expect(s.unread.get(6)).toEqual({ kind: "dm", key: "11" });
    expect(s.unread.get(7)).toEqual({ kind: "dm", key: "11,12" });
    expect([...s.mentions]).toEqual([5]);
    expect([...s.starred]).toEqual([3]);
    expect(s.presence.get(11)).toEqual({ active: 100, idle: 100 });
    expect(s.recentDms.get("11")).toBe(6);
    expect(s.realm.realm_name).toBe("Test");
  });
});

describe("web state: one apply function per event type", () => {
  it("a new message joins lists that reach the newest, counts as unread, and notes its topic", () => {
    let s = withList(snapshot(), channelTerms, [20, 21]);
    s = withList(s, [{ operator: "channel", operand: "2" }], [30]);
    s = applyEvents(s, [ev({ type: "message", message: message(40), flags: [] })], 0);
    expect(s.lists.get(narrowKey(channelTerms))?.ids).toEqual([20, 21, 40]);
    expect(s.lists.get(narrowKey([{ operator: "channel", operand: "2" }]))?.ids).toEqual([30]);
    expect(s.unread.get(40)).toEqual({ kind: "stream", streamId: 1, topic: "hello" });
    expect(s.topics.get(1)?.get("hello")).toBe(40);
    const read = applyEvents(s, [ev({ type: "message", message: message(41), flags: ["read"] })], 0);
    expect(read.unread.has(41)).toBe(false);
  });

  it("a list that has not reached the newest is not extended by a live message", () => {
    let s = withList(snapshot(), channelTerms, [20], false);
    s = applyEvents(s, [ev({ type: "message", message: message(40), flags: [] })], 0);
    expect(s.lists.get(narrowKey(channelTerms))?.ids).toEqual([20]);
  });

  it("update_message edits content and moves messages between topics", () => {
    const topicTerms: Term[] = [...channelTerms, { operator: "topic", operand: "hello" }];
    let s = withList(snapshot(), topicTerms, [5, 20, 21]);
    s = applyEvents(s, [ev({ type: "update_message", message_id: 20, message_ids: [20], rendered_content: "<p>new</p>", edit_timestamp: 99 })], 0);
    expect(s.messages.get(20)?.content).toBe("<p>new</p>");
    expect(s.messages.get(20)?.last_edit_timestamp).toBe(99);
    s = applyEvents(s, [ev({ type: "update_message", message_id: 5, message_ids: [5, 21], subject: "moved", edit_timestamp: 100 })], 0);
    expect(s.lists.get(narrowKey(topicTerms))?.ids).toEqual([20]);
    expect(s.unread.get(5)).toEqual({ kind: "stream", streamId: 1, topic: "moved" });
    expect(s.messages.get(21)?.subject).toBe("moved");
    expect(s.topics.get(1)?.get("moved")).toBe(21);
  });

  it("delete_message removes a message from lists, unreads and stars", () => {
    let s = withList(snapshot(), channelTerms, [3, 5]);
    s = applyEvents(s, [ev({ type: "delete_message", message_ids: [3, 5], message_type: "stream", stream_id: 1, topic: "hello" })], 0);
    expect(s.lists.get(narrowKey(channelTerms))?.ids).toEqual([]);
    expect(s.unread.has(5)).toBe(false);
    expect(s.mentions.has(5)).toBe(false);
    expect(s.starred.has(3)).toBe(false);
    expect(s.messages.has(3)).toBe(false);
  });

  it("reactions are added once and removed", () => {
    let s = withList(snapshot(), channelTerms, [20]);
    const r = { type: "reaction", message_id: 20, emoji_name: "smile", emoji_code: "1f604", reaction_type: "unicode_emoji", user_id: 11 };
    s = applyEvents(s, [ev({ ...r, op: "add" }), ev({ ...r, op: "add" })], 0);
    expect(s.messages.get(20)?.reactions).toEqual([{ emoji_name: "smile", emoji_code: "1f604", reaction_type: "unicode_emoji", user_id: 11 }]);
    s = applyEvents(s, [ev({ ...r, op: "remove" })], 0);
    expect(s.messages.get(20)?.reactions).toEqual([]);
  });

  it("flags: read clears unread and mentions, unread restores them from message_details, starred toggles", () => {
    let s = snapshot();
    s = applyEvents(s, [ev({ type: "update_message_flags", op: "add", flag: "read", messages: [5, 6], all: false })], 0);
    expect([...s.unread.keys()]).toEqual([7]);
    expect(s.mentions.size).toBe(0);
    s = applyEvents(s, [ev({ type: "update_message_flags", op: "remove", flag: "read", messages: [5], all: false, message_details: { "5": { type: "stream", stream_id: 1, topic: "hello", mentioned: true } } })], 0);
    expect(s.unread.get(5)).toEqual({ kind: "stream", streamId: 1, topic: "hello" });
    expect(s.mentions.has(5)).toBe(true);
    s = applyEvents(s, [ev({ type: "update_message_flags", op: "add", flag: "starred", messages: [5], all: false })], 0);
    expect([...s.starred].sort()).toEqual([3, 5]);
    s = applyEvents(s, [ev({ type: "update_message_flags", op: "add", flag: "read", messages: [], all: true })], 0);
    expect(s.unread.size).toBe(0);
  });

  it("subscriptions, channels, users, presence, status, typing, groups, realm and emoji", () => {
    let s = snapshot();
    s = applyEvents(s, [ev({ type: "subscription", op: "add", subscriptions: [{ stream_id: 2, name: "design", description: "", invite_only: false, color: "#f00", pin_to_top: false, is_muted: false }] })], 0);
    expect(s.subs.has(2)).toBe(true);
    s = applyEvents(s, [ev({ type: "subscription", op: "peer_add", stream_ids: [1], user_ids: [12] })], 0);
    expect(s.subs.get(1)?.subscribers).toEqual([10, 11, 12]);
    s = applyEvents(s, [ev({ type: "stream", op: "update", stream_id: 2, name: "design", property: "name", value: "ux" })], 0);
    expect(s.streams.get(2)?.name).toBe("ux");
    expect(s.subs.get(2)?.name).toBe("ux");
    s = applyEvents(s, [ev({ type: "subscription", op: "remove", subscriptions: [{ stream_id: 2, name: "ux" }] })], 0);
    expect(s.subs.has(2)).toBe(false);
    s = applyEvents(s, [ev({ type: "realm_user", op: "update", person: { user_id: 11, full_name: "Ann B" } })], 0);
    expect(s.users.get(11)?.full_name).toBe("Ann B");
    s = applyEvents(s, [ev({ type: "realm_user", op: "remove", person: { user_id: 12, full_name: "Bo" } })], 0);
    expect(s.users.get(12)?.is_active).toBe(false);
    s = applyEvents(s, [ev({ type: "presence", user_id: 12, email: "bo@x.org", server_timestamp: 1, presence: { website: { client: "website", status: "active", timestamp: 500, pushable: false } } })], 0);
    expect(s.presence.get(12)).toEqual({ active: 500, idle: 500 });
    s = applyEvents(s, [ev({ type: "user_status", user_id: 11, status_text: "lunch", emoji_name: "food", emoji_code: "1f354", reaction_type: "unicode_emoji" })], 0);
    expect(s.userStatus.get(11)).toEqual({ status_text: "lunch", emoji_name: "food", emoji_code: "1f354", reaction_type: "unicode_emoji" });
    s = applyEvents(s, [ev({ type: "typing", op: "start", message_type: "direct", sender: { user_id: 11, email: "" }, recipients: [{ user_id: 10 }, { user_id: 11 }] })], 1000);
    expect(s.typing.get("d:11")?.get(11)).toBe(16000);
    s = applyEvents(s, [ev({ type: "typing", op: "stop", message_type: "direct", sender: { user_id: 11, email: "" }, recipients: [{ user_id: 10 }, { user_id: 11 }] })], 2000);
    expect(s.typing.has("d:11")).toBe(false);
    s = applyEvents(s, [ev({ type: "user_group", op: "add_members", group_id: 1, user_ids: [11] })], 0);
    expect(s.groups.get(1)?.members).toEqual([10, 11]);
    s = applyEvents(s, [ev({ type: "realm", op: "update", property: "name", value: "Renamed" })], 0);
    expect(s.realm.realm_name).toBe("Renamed");
    s = applyEvents(s, [ev({ type: "realm_emoji", op: "update", realm_emoji: { "1": { id: "1", name: "party", source_url: "/e.png" } } })], 0);
    expect(Object.keys(s.realmEmoji)).toEqual(["1"]);
  });

  it("takes the realm's presence from a presence ping's answer, newer timestamps winning", () => {
    const s = withPresences(snapshot(), { "11": { active_timestamp: 50, idle_timestamp: 300 }, "12": { active_timestamp: 200, idle_timestamp: 200 } });
    expect(s.presence.get(11)).toEqual({ active: 100, idle: 300 });
    expect(s.presence.get(12)).toEqual({ active: 200, idle: 200 });
    expect(snapshot().presence.has(12)).toBe(false);
  });

  it("knows every event type the server declares", () => {
    for (const type of ["message", "update_message", "delete_message", "reaction", "update_message_flags", "submessage", "subscription", "stream", "realm_user", "realm_bot", "presence", "user_status", "typing", "user_group", "realm", "realm_emoji", "user_settings", "drafts", "user_topic", "muted_users", "custom_profile_fields", "alert_words", "scheduled_messages", "realm_linkifiers", "realm_playgrounds", "realm_domains", "default_streams", "default_stream_groups", "heartbeat", "restart", "attachment", "invites_changed"]) {
      expect(appliers[type], type).toBeTypeOf("function");
    }
  });
});

describe("web state: Zulip's narrow URLs", () => {
  it("settings and organisation hashes name a section and, for a channel, its id", () => {
    const s = snapshot();
    expect(parseHash("#settings", s)).toEqual({ view: "settings", section: "" });
    expect(parseHash("#settings/preferences", s)).toEqual({ view: "settings", section: "preferences" });
    expect(parseHash("#settings/channels/1", s)).toEqual({ view: "settings", section: "channels", id: 1 });
    expect(parseHash("#organization/users", s)).toEqual({ view: "organization", section: "users" });
  });

  it("default_streams replaces realm_default_streams, the key /register gives it", () => {
    const s = applyEvents(snapshot(), [{ id: 1, type: "default_streams", default_streams: [{ stream_id: 2, name: "design" }] }], 0);
    expect(s.realm.realm_default_streams).toEqual([{ stream_id: 2, name: "design" }]);
  });

  it("encodes like Zulip's hash_util: % as ., and . ( ) escaped", () => {
    expect(encodeHashComponent("a b.c(d)%")).toBe("a.20b.2Ec.28d.29.25");
  });

  it("round-trips channel, topic, DM and near", () => {
    const s = snapshot();
    const terms: Term[] = [{ operator: "channel", operand: "1" }, { operator: "topic", operand: "a.b c" }, { operator: "near", operand: "5" }];
    const hash = termsToHash(terms, s);
    expect(hash).toBe("#narrow/channel/1-general-chat/topic/a.2Eb.20c/near/5");
    const r = parseHash(hash, s);
    expect(r).toEqual({ view: "feed", terms });
    expect(anchorOf(terms)).toBe(5);
    expect(termsToHash([{ operator: "dm", operand: "11" }], s)).toBe("#narrow/dm/11-Ann-Lee");
    expect(termsToHash([{ operator: "dm", operand: "11,12" }], s)).toBe("#narrow/dm/11,12-group");
    expect(parseHash("#narrow/dm/11-Ann-Lee", s)).toEqual({ view: "feed", terms: [{ operator: "dm", operand: "11" }] });
    expect(parseHash("#narrow/stream/1-general-chat", s)).toEqual({ view: "feed", terms: [{ operator: "stream", operand: "1" }] });
    expect(parseHash("#narrow/is/starred", s)).toEqual({ view: "feed", terms: [{ operator: "is", operand: "starred" }] });
    expect(parseHash("#narrow/-is/starred", s)).toEqual({ view: "feed", terms: [{ operator: "is", operand: "starred", negated: true }] });
    expect(parseHash("#narrow/dm/ann.40x.2Eorg", s)).toEqual({ view: "feed", terms: [{ operator: "dm", operand: "11" }] });
    expect(parseHash("#recent", s)).toEqual({ view: "recent" });
    expect(parseHash("#feed", s)).toEqual({ view: "feed", terms: [] });
    expect(parseHash("#narrow/topic/%E0%A4%A", s)).toEqual({ view: "inbox" });
  });

  it("builds the API narrow and matches messages locally", () => {
    expect(apiNarrow([{ operator: "stream", operand: "1" }, { operator: "dm", operand: "11,12" }, { operator: "near", operand: "3" }])).toEqual([
      { operator: "channel", operand: 1, negated: false },
      { operator: "dm", operand: [11, 12], negated: false },
    ]);
    const m = message(1);
    expect(matches([{ operator: "channel", operand: "1" }, { operator: "topic", operand: "HELLO" }], m, ME)).toBe(true);
    expect(matches([{ operator: "channel", operand: "1", negated: true }], m, ME)).toBe(false);
    expect(matches([{ operator: "search", operand: "x" }], m, ME)).toBe(null);
    const dm = message(2, { type: "private", display_recipient: [{ id: 10, email: "", full_name: "" }, { id: 11, email: "", full_name: "" }] });
    expect(matches([{ operator: "dm", operand: "11" }], dm, ME)).toBe(true);
    expect(matches([{ operator: "is", operand: "dm" }], dm, ME)).toBe(true);
  });
});

describe("web state: the search language", async () => {
  const { parseQuery, suggest, termsToQuery } = await import("../../web/state/search.js");
  it("parses operators, synonyms, negation, quotes and free text", () => {
    const s = snapshot();
    expect(parseQuery('stream:"general chat" -is:starred from:me topic:"a b" hello world', s)).toEqual([
      { operator: "channel", operand: "1" },
      { operator: "is", operand: "starred", negated: true },
      { operator: "sender", operand: "10" },
      { operator: "topic", operand: "a b" },
      { operator: "search", operand: "hello world" },
    ]);
    expect(parseQuery("dm:ann@x.org,bo@x.org has:link", s)).toEqual([
      { operator: "dm", operand: "11,12" },
      { operator: "has", operand: "link" },
    ]);
    expect(parseQuery("near:12 id:5 unknown:x", s)).toEqual([
      { operator: "near", operand: "12" },
      { operator: "id", operand: "5" },
      { operator: "search", operand: "unknown:x" },
    ]);
    expect(termsToQuery(parseQuery('channel:"general chat" sender:ann@x.org hi', s), s)).toBe('channel:"general chat" sender:ann@x.org hi');
  });

  it("suggests operators, channels, people and values", () => {
    const s = snapshot();
    expect(suggest("chan", s).map((x) => x.query)).toEqual(["channel:", "channels:"]);
    expect(suggest("channel:gen", s).map((x) => x.query)).toEqual(['channel:"general chat" ']);
    expect(suggest("sender:an", s).map((x) => x.query)).toEqual(["sender:ann@x.org "]);
    expect(suggest("-is:st", s).map((x) => x.query)).toEqual(["-is:starred "]);
    expect(suggest("", s)[0]).toEqual({ query: "is:mentioned ", label: "Mentions" });
  });
});
