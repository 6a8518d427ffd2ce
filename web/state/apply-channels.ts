/** Events about channels: subscriptions, channel changes, topic visibility. Each returns a new State. */
import type { ServerEvent, State, Stream, Sub } from "./types.js";

type Dict = Record<string, unknown>;

/** type "subscription": add, remove, a property update, subscribers joining or leaving. */
export function applySubscription(state: State, e: ServerEvent): State {
  const subs = new Map(state.subs);
  const streams = new Map(state.streams);
  switch (e.op) {
    case "add":
      for (const s of e.subscriptions as Sub[]) {
        subs.set(s.stream_id, s);
        streams.set(s.stream_id, { ...(streams.get(s.stream_id) ?? {}), ...s });
      }
      break;
    case "remove":
      for (const s of e.subscriptions as { stream_id: number }[]) subs.delete(s.stream_id);
      break;
    case "update": {
      const id = Number(e.stream_id);
      const s = subs.get(id);
      if (s) subs.set(id, { ...s, [String(e.property)]: e.value, ...(e.property === "in_home_view" ? { is_muted: e.value !== true } : {}) });
      break;
    }
    case "peer_add":
    case "peer_remove": {
      const users = e.user_ids as number[];
      for (const id of e.stream_ids as number[]) {
        const s = subs.get(id);
        if (!s?.subscribers) continue;
        const subscribers = e.op === "peer_add" ? [...new Set([...s.subscribers, ...users])] : s.subscribers.filter((u) => !users.includes(u));
        subs.set(id, { ...s, subscribers });
      }
      break;
    }
  }
  return { ...state, subs, streams };
}

/** type "stream": channels created, deleted, or a property changed (name, description, privacy...). */
export function applyStream(state: State, e: ServerEvent): State {
  const streams = new Map(state.streams);
  const subs = new Map(state.subs);
  if (e.op === "create") for (const s of e.streams as Stream[]) streams.set(s.stream_id, s);
  else if (e.op === "delete") {
    for (const s of e.streams as Stream[]) {
      streams.delete(s.stream_id);
      subs.delete(s.stream_id);
    }
  } else if (e.op === "update") {
    const id = Number(e.stream_id);
    const patch: Dict = { [String(e.property)]: e.value };
    for (const k of ["rendered_description", "history_public_to_subscribers", "is_web_public"]) if (e[k] !== undefined) patch[k] = e[k];
    const s = streams.get(id);
    if (s) streams.set(id, { ...s, ...patch });
    const sub = subs.get(id);
    if (sub) subs.set(id, { ...sub, ...patch });
  }
  return { ...state, streams, subs };
}

/** type "user_topic": a topic muted, unmuted, followed. */
export function applyUserTopic(state: State, e: ServerEvent): State {
  const key = `${Number(e.stream_id)}:${String(e.topic_name).toLowerCase()}`;
  const userTopics = new Map(state.userTopics);
  if (Number(e.visibility_policy) === 0) userTopics.delete(key);
  else userTopics.set(key, Number(e.visibility_policy));
  return { ...state, userTopics };
}
