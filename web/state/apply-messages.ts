/** Events about messages: new, edited or moved, deleted, reactions, flags, submessages. Each returns a new State. */
import { conversationKey, refOf } from "./conversation.js";
import { matches } from "./narrow.js";
import type { Message, MessageList, Reaction, ServerEvent, State, UnreadRef } from "./types.js";

const mentionFlags = ["mentioned", "stream_wildcard_mentioned", "topic_wildcard_mentioned", "wildcard_mentioned"];

/** Notes the newest id of the message's conversation (topic lists, recent conversations). */
function noteConversation(state: State, m: Message): Pick<State, "topics" | "recentDms"> {
  const ref = refOf(m, state.me);
  if (ref.kind === "dm") {
    if ((state.recentDms.get(ref.key) ?? 0) >= m.id) return state;
    return { topics: state.topics, recentDms: new Map(state.recentDms).set(ref.key, m.id) };
  }
  const inStream = state.topics.get(ref.streamId) ?? new Map<string, number>();
  if ((inStream.get(ref.topic) ?? 0) >= m.id) return state;
  return { topics: new Map(state.topics).set(ref.streamId, new Map(inStream).set(ref.topic, m.id)), recentDms: state.recentDms };
}

/** Puts `id` into a sorted id list. */
function insertSorted(ids: number[], id: number): number[] {
  if (ids.length === 0 || id > (ids[ids.length - 1] ?? 0)) return [...ids, id];
  if (ids.includes(id)) return ids;
  const out = [...ids, id];
  out.sort((a, b) => a - b);
  return out;
}

/** A fetched batch of messages (GET /messages) merged into the messages and the narrow's list. */
export function applyFetched(state: State, list: MessageList, fetched: readonly Message[], found: { oldest?: boolean; newest?: boolean }): State {
  const messages = new Map(state.messages);
  let next: State = state;
  for (const m of fetched) {
    messages.set(m.id, m);
    next = { ...next, ...noteConversation(next, m) };
  }
  const prev = state.lists.get(list.key) ?? list;
  const ids = [...new Set([...prev.ids, ...fetched.map((m) => m.id)])].sort((a, b) => a - b);
  const merged: MessageList = { ...prev, ids, foundOldest: prev.foundOldest || found.oldest === true, foundNewest: prev.foundNewest || found.newest === true };
  return { ...next, messages, lists: new Map(state.lists).set(list.key, merged) };
}

/** type "message": a new message, into every open list it belongs to that already reaches the newest. */
export function applyMessage(state: State, e: ServerEvent): State {
  const raw = e.message as Message;
  const flags = Array.isArray(e.flags) ? (e.flags as string[]) : (raw.flags ?? []);
  const m: Message = { ...raw, flags, reactions: raw.reactions ?? [], submessages: raw.submessages ?? [] };
  const lists = new Map(state.lists);
  for (const [key, list] of state.lists) {
    if (list.foundNewest && matches(list.terms, m, state.me) === true) lists.set(key, { ...list, ids: insertSorted(list.ids, m.id) });
  }
  const unread = flags.includes("read") ? state.unread : new Map(state.unread).set(m.id, refOf(m, state.me));
  const mentions = !flags.includes("read") && flags.some((f) => mentionFlags.includes(f)) ? new Set(state.mentions).add(m.id) : state.mentions;
  return { ...state, ...noteConversation(state, m), messages: new Map(state.messages).set(m.id, m), lists, unread, mentions };
}

/** type "update_message": new content and/or a move to another topic or channel. */
export function applyUpdateMessage(state: State, e: ServerEvent): State {
  const ids = Array.isArray(e.message_ids) ? (e.message_ids as number[]) : [Number(e.message_id)];
  const messages = new Map(state.messages);
  const one = messages.get(Number(e.message_id));
  if (one && typeof e.rendered_content === "string") {
    const edited: Message = { ...one, content: e.rendered_content, last_edit_timestamp: Number(e.edit_timestamp) };
    if (typeof e.is_me_message === "boolean") edited.is_me_message = e.is_me_message;
    messages.set(one.id, edited);
  }
  const newTopic = typeof e.subject === "string" ? e.subject : undefined;
  const newStream = typeof e.new_stream_id === "number" ? e.new_stream_id : undefined;
  if (newTopic === undefined && newStream === undefined) return { ...state, messages };

  let unread = state.unread;
  let lists = state.lists;
  const moved: Message[] = [];
  for (const id of ids) {
    const m = messages.get(id);
    const ref = state.unread.get(id);
    if (ref && ref.kind === "stream") {
      if (unread === state.unread) unread = new Map(unread);
      unread.set(id, { kind: "stream", streamId: newStream ?? ref.streamId, topic: newTopic ?? ref.topic });
    }
    if (!m) continue;
    const next: Message = { ...m, subject: newTopic ?? m.subject, stream_id: newStream ?? m.stream_id, last_edit_timestamp: Number(e.edit_timestamp) };
    if (newStream !== undefined) next.display_recipient = state.streams.get(newStream)?.name ?? String(next.display_recipient);
    messages.set(id, next);
    moved.push(next);
  }
  lists = new Map(lists);
  for (const [key, list] of state.lists) {
    let listIds = list.ids;
    for (const m of moved) {
      const belongs = matches(list.terms, m, state.me);
      const present = listIds.includes(m.id);
      if (belongs === false && present) listIds = listIds.filter((x) => x !== m.id);
      else if (belongs === true && !present && (list.foundOldest || m.id > (listIds[0] ?? Infinity)) && (list.foundNewest || m.id < (listIds[listIds.length - 1] ?? 0))) listIds = insertSorted(listIds, m.id);
    }
    if (listIds !== list.ids) lists.set(key, { ...list, ids: listIds });
  }
  let next: State = { ...state, messages, unread, lists };
  for (const m of moved) next = { ...next, ...noteConversation(next, m) };
  return next;
}

/** type "delete_message": gone from everything. */
export function applyDeleteMessage(state: State, e: ServerEvent): State {
  const ids = new Set(Array.isArray(e.message_ids) ? (e.message_ids as number[]) : [Number(e.message_id)]);
  const messages = new Map(state.messages);
  const unread = new Map(state.unread);
  const mentions = new Set(state.mentions);
  const starred = new Set(state.starred);
  for (const id of ids) {
    messages.delete(id);
    unread.delete(id);
    mentions.delete(id);
    starred.delete(id);
  }
  const lists = new Map(state.lists);
  for (const [key, list] of state.lists) if (list.ids.some((id) => ids.has(id))) lists.set(key, { ...list, ids: list.ids.filter((id) => !ids.has(id)) });
  return { ...state, messages, unread, mentions, starred, lists };
}

/** type "reaction": one person's emoji on a message, added or removed. */
export function applyReaction(state: State, e: ServerEvent): State {
  const m = state.messages.get(Number(e.message_id));
  if (!m) return state;
  const r: Reaction = { emoji_name: String(e.emoji_name), emoji_code: String(e.emoji_code), reaction_type: String(e.reaction_type), user_id: Number(e.user_id) };
  const same = (x: Reaction) => x.user_id === r.user_id && x.emoji_code === r.emoji_code && x.reaction_type === r.reaction_type;
  const reactions = e.op === "add" ? (m.reactions.some(same) ? m.reactions : [...m.reactions, r]) : m.reactions.filter((x) => !same(x));
  return { ...state, messages: new Map(state.messages).set(m.id, { ...m, reactions }) };
}

/** type "update_message_flags": read, starred, and the other personal flags. */
export function applyFlags(state: State, e: ServerEvent): State {
  const flag = String(e.flag);
  const add = e.op === "add" || e.operation === "add";
  const ids = Array.isArray(e.messages) ? (e.messages as number[]) : [];
  const all = e.all === true;
  const messages = new Map(state.messages);
  const touched = all ? [...messages.keys()] : ids;
  for (const id of touched) {
    const m = messages.get(id);
    if (!m) continue;
    const has = m.flags.includes(flag);
    if (add && !has) messages.set(id, { ...m, flags: [...m.flags, flag] });
    if (!add && has) messages.set(id, { ...m, flags: m.flags.filter((f) => f !== flag) });
  }
  let { unread, mentions, starred } = state;
  if (flag === "read") {
    if (add) {
      unread = all ? new Map() : new Map(unread);
      mentions = all ? new Set() : new Set(mentions);
      for (const id of ids) {
        unread.delete(id);
        mentions.delete(id);
      }
    } else {
      unread = new Map(unread);
      mentions = new Set(mentions);
      const details = (e.message_details ?? {}) as Record<string, Record<string, unknown>>;
      for (const id of ids) {
        const d = details[String(id)];
        const m = messages.get(id);
        let ref: UnreadRef | null = m ? refOf(m, state.me) : null;
        if (!ref && d) ref = d.type === "stream" ? { kind: "stream", streamId: Number(d.stream_id), topic: String(d.topic) } : { kind: "dm", key: dmFromDetails(d, state.me) };
        if (ref) unread.set(id, ref);
        if (d?.mentioned === true || (m && m.flags.some((f) => mentionFlags.includes(f)))) mentions.add(id);
      }
    }
  }
  if (flag === "starred") {
    starred = new Set(starred);
    for (const id of ids) {
      if (add) starred.add(id);
      else starred.delete(id);
    }
  }
  let lists = state.lists;
  if (flag === "starred" || flag === "read" || flag.includes("mentioned")) {
    lists = new Map(lists);
    for (const [key, list] of state.lists) {
      if (!list.terms.some((t) => t.operator === "is")) continue;
      let listIds = list.ids;
      for (const id of ids) {
        const m = messages.get(id);
        if (!m) continue;
        const belongs = matches(list.terms, m, state.me);
        if (belongs === false && listIds.includes(id) && flag !== "read") listIds = listIds.filter((x) => x !== id);
        else if (belongs === true && !listIds.includes(id)) listIds = insertSorted(listIds, id);
      }
      if (listIds !== list.ids) lists.set(key, { ...list, ids: listIds });
    }
  }
  return { ...state, messages, unread, mentions, starred, lists };
}

function dmFromDetails(d: Record<string, unknown>, me: number): string {
  const ids = Array.isArray(d.user_ids) ? (d.user_ids as number[]) : [];
  return ids.length === 0 ? String(me) : [...ids].sort((a, b) => a - b).join(",");
}

/** type "submessage": a widget's vote or task appended to its message. */
export function applySubmessage(state: State, e: ServerEvent): State {
  const m = state.messages.get(Number(e.message_id));
  if (!m) return state;
  const sub = { id: e.submessage_id, message_id: e.message_id, sender_id: e.sender_id, msg_type: e.msg_type, content: e.content };
  return { ...state, messages: new Map(state.messages).set(m.id, { ...m, submessages: [...m.submessages, sub] }) };
}

/** Unread ids grouped by conversation key (derived; used for counts). */
export function unreadByConversation(state: State): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const [id, ref] of state.unread) {
    const key = conversationKey(ref);
    const list = out.get(key);
    if (list) list.push(id);
    else out.set(key, [id]);
  }
  return out;
}
