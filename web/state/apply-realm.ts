/** Events about the organisation and the user's own settings. Each returns a new State. */
import type { Draft, ServerEvent, State } from "./types.js";

type Dict = Record<string, unknown>;

/** type "realm": one setting (update) or a dictionary of them (update_dict). */
export function applyRealm(state: State, e: ServerEvent): State {
  if (e.op === "update") return { ...state, realm: { ...state.realm, [`realm_${String(e.property)}`]: e.value } };
  if (e.op === "update_dict") {
    const patch: Dict = {};
    for (const [k, v] of Object.entries((e.data ?? {}) as Dict)) patch[`realm_${k}`] = v;
    return { ...state, realm: { ...state.realm, ...patch } };
  }
  return state;
}

/** type "realm_emoji": the whole custom emoji dictionary. */
export function applyRealmEmoji(state: State, e: ServerEvent): State {
  return { ...state, realmEmoji: (e.realm_emoji ?? {}) as Record<string, Dict> };
}

/** type "user_settings" (and the legacy update_display_settings / update_global_notifications). */
export function applyUserSettings(state: State, e: ServerEvent): State {
  const property = String(e.property ?? e.setting_name ?? e.notification_name);
  const value = e.value ?? e.setting;
  return { ...state, settings: { ...state.settings, [property]: value } };
}

/** type "drafts": added, updated, removed. */
export function applyDrafts(state: State, e: ServerEvent): State {
  const drafts = new Map(state.drafts);
  if (e.op === "add") for (const d of e.drafts as Draft[]) drafts.set(d.id, d);
  else if (e.op === "update") {
    const d = e.draft as Draft;
    drafts.set(d.id, d);
  } else if (e.op === "remove") drafts.delete(Number(e.draft_id));
  return { ...state, drafts };
}

/** type "custom_profile_fields": the whole list. */
export function applyProfileFields(state: State, e: ServerEvent): State {
  return { ...state, profileFields: Array.isArray(e.fields) ? (e.fields as Dict[]) : state.profileFields };
}

/** type "alert_words": the whole list. */
export function applyAlertWords(state: State, e: ServerEvent): State {
  return { ...state, alertWords: Array.isArray(e.alert_words) ? (e.alert_words as string[]) : [] };
}

/** type "scheduled_messages": added, updated, removed. */
export function applyScheduled(state: State, e: ServerEvent): State {
  const idOf = (m: Dict) => Number(m.scheduled_message_id);
  let list = state.scheduled;
  if (e.op === "add") list = [...list, ...(e.scheduled_messages as Dict[])];
  else if (e.op === "update") list = list.map((m) => (idOf(m) === idOf(e.scheduled_message as Dict) ? (e.scheduled_message as Dict) : m));
  else if (e.op === "remove") list = list.filter((m) => idOf(m) !== Number(e.scheduled_message_id));
  return { ...state, scheduled: list };
}

/** Settings-like realm lists whose event carries the whole new value under one key (realm_linkifiers, realm_playgrounds, realm_domains...). */
export function applyRealmList(state: State, e: ServerEvent): State {
  // /register names the default channels realm_default_streams; their event is "default_streams".
  const key = e.type === "default_streams" ? "realm_default_streams" : e.type;
  const value = e[key] ?? e.realm_domain ?? e.default_streams ?? e.default_stream_groups;
  if (value === undefined) return state;
  return { ...state, realm: { ...state.realm, [key]: value } };
}
