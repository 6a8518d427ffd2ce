/** Events about people: users, bots, presence, status, typing, groups, muted users. Each returns a new State. */
import { dmKeyOf } from "./conversation.js";
import type { Group, ServerEvent, State, User } from "./types.js";

type Dict = Record<string, unknown>;
const TYPING_SHOWN_MS = 15000;

/** type "realm_bot": the bot list (add, update, remove/delete); an update's fields also reach the user. */
export function applyRealmBot(state: State, e: ServerEvent): State {
  const bot = e.bot as Dict & { user_id: number };
  const bots = new Map(state.bots);
  const old = bots.get(bot.user_id);
  if (e.op === "add") bots.set(bot.user_id, bot);
  else if (e.op === "remove" || e.op === "delete") bots.delete(bot.user_id);
  else if (old) bots.set(bot.user_id, { ...old, ...bot });
  const next = { ...state, bots };
  if (e.op !== "update") return next;
  const { api_key: _key, ...fields } = bot;
  return applyRealmUser(next, { ...e, bot: fields });
}

/** type "realm_user" (add, remove, update) and "realm_bot" updates of a user's fields. */
export function applyRealmUser(state: State, e: ServerEvent): State {
  const person = (e.person ?? e.bot) as Dict & { user_id: number };
  const users = new Map(state.users);
  const old = users.get(person.user_id);
  if (e.op === "add") users.set(person.user_id, person as User);
  else if (e.op === "remove") {
    if (old) users.set(old.user_id, { ...old, is_active: false });
  } else if (old) {
    const next: User = { ...old };
    for (const [k, v] of Object.entries(person)) {
      if (k === "custom_profile_field" && typeof v === "object" && v !== null) {
        const f = v as { id: number; value: string | null; rendered_value?: string };
        const data = { ...(old.profile_data ?? {}) };
        if (f.value === null) delete data[String(f.id)];
        else data[String(f.id)] = { value: f.value, ...(f.rendered_value !== undefined ? { rendered_value: f.rendered_value } : {}) };
        next.profile_data = data;
      } else if (k === "new_email") next.email = String(v);
      else next[k] = v;
    }
    if (typeof person.role === "number") next.role = person.role;
    users.set(old.user_id, next);
  }
  return { ...state, users };
}

/** type "presence": a user's website client became active or idle (slim presence: seconds). */
export function applyPresence(state: State, e: ServerEvent): State {
  const p = (e.presence as Record<string, Dict> | undefined)?.website ?? Object.values((e.presence ?? {}) as Record<string, Dict>)[0];
  if (!p) return state;
  const id = Number(e.user_id);
  const old = state.presence.get(id) ?? { active: 0, idle: 0 };
  const ts = Number(p.timestamp);
  const next = p.status === "active" ? { active: Math.max(old.active, ts), idle: Math.max(old.idle, ts) } : { active: old.active, idle: Math.max(old.idle, ts) };
  return { ...state, presence: new Map(state.presence).set(id, next) };
}

/**
 * The realm's presence as POST /users/me/presence answers it (slim: seconds by user id). Above
 * 100 users the server sends no presence events (as Zulip's does not), so this is how a large
 * organisation's people list stays current. Newer timestamps win.
 */
export function withPresences(state: State, presences: Record<string, Dict>): State {
  const presence = new Map(state.presence);
  for (const [id, p] of Object.entries(presences)) {
    const old = presence.get(Number(id)) ?? { active: 0, idle: 0 };
    presence.set(Number(id), { active: Math.max(old.active, Number(p.active_timestamp ?? 0)), idle: Math.max(old.idle, Number(p.idle_timestamp ?? 0)) });
  }
  return { ...state, presence };
}

/** type "user_status": away, status text and emoji; "" clears a field. */
export function applyUserStatus(state: State, e: ServerEvent): State {
  const id = Number(e.user_id);
  const s: Dict = { ...(state.userStatus.get(id) ?? {}) };
  if (typeof e.away === "boolean") {
    if (e.away) s.away = true;
    else delete s.away;
  }
  if (typeof e.status_text === "string") {
    if (e.status_text === "") delete s.status_text;
    else s.status_text = e.status_text;
  }
  if (typeof e.emoji_name === "string") {
    if (e.emoji_name === "") {
      delete s.emoji_name;
      delete s.emoji_code;
      delete s.reaction_type;
    } else Object.assign(s, { emoji_name: e.emoji_name, emoji_code: e.emoji_code, reaction_type: e.reaction_type });
  }
  return { ...state, userStatus: new Map(state.userStatus).set(id, s) };
}

/** The typing key of a conversation: "d:<dmKey>" or "s:<stream id>:<topic>". */
export function typingKey(e: Dict, me: number): string {
  if (e.message_type === "stream") return `s:${Number(e.stream_id)}:${String(e.topic).toLowerCase()}`;
  const ids = Array.isArray(e.recipients) ? (e.recipients as { user_id: number }[]).map((r) => r.user_id) : [];
  return `d:${dmKeyOf(ids, me)}`;
}

/** type "typing": start shows the typist for 15 s unless renewed; stop removes them. `now` in ms. */
export function applyTyping(state: State, e: ServerEvent, now: number): State {
  const sender = Number((e.sender as Dict | undefined)?.user_id);
  if (sender === state.me) return state;
  const key = typingKey(e, state.me);
  const typing = new Map(state.typing);
  const inConv = new Map(typing.get(key) ?? []);
  if (e.op === "start") inConv.set(sender, now + TYPING_SHOWN_MS);
  else inConv.delete(sender);
  if (inConv.size === 0) typing.delete(key);
  else typing.set(key, inConv);
  return { ...state, typing };
}

/** type "user_group": groups added, changed, removed, and their members and subgroups. */
export function applyUserGroup(state: State, e: ServerEvent): State {
  const groups = new Map(state.groups);
  const id = Number(e.group_id);
  const g = groups.get(id);
  switch (e.op) {
    case "add": {
      const group = e.group as Group;
      groups.set(group.id, group);
      break;
    }
    case "remove":
      groups.delete(id);
      break;
    case "update":
      if (g) groups.set(id, { ...g, ...(e.data as Dict) });
      break;
    case "add_members":
      if (g) groups.set(id, { ...g, members: [...new Set([...g.members, ...(e.user_ids as number[])])] });
      break;
    case "remove_members":
      if (g) groups.set(id, { ...g, members: g.members.filter((m) => !(e.user_ids as number[]).includes(m)) });
      break;
    case "add_subgroups":
      if (g) groups.set(id, { ...g, direct_subgroup_ids: [...new Set([...g.direct_subgroup_ids, ...(e.direct_subgroup_ids as number[])])] });
      break;
    case "remove_subgroups":
      if (g) groups.set(id, { ...g, direct_subgroup_ids: g.direct_subgroup_ids.filter((m) => !(e.direct_subgroup_ids as number[]).includes(m)) });
      break;
  }
  return { ...state, groups };
}

/** type "muted_users": the whole list. */
export function applyMutedUsers(state: State, e: ServerEvent): State {
  const list = Array.isArray(e.muted_users) ? (e.muted_users as { id: number }[]) : [];
  return { ...state, mutedUsers: new Set(list.map((m) => m.id)) };
}
