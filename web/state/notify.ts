/**
 * Which new messages call for the person's attention (a desktop notification, a sound) and how
 * many unread messages the page title and the favicon count, from the person's settings. Pure:
 * the view that shows notifications and draws the title calls these.
 */
import { topicKey } from "./conversation.js";
import type { Message, State } from "./types.js";

/** visibility_policy values of user_topic. */
const MUTED = 1;
const UNMUTED = 2;
const FOLLOWED = 3;

const on = (v: unknown) => v === true;

function policy(state: State, streamId: number, topic: string): number {
  return state.userTopics.get(topicKey(streamId, topic)) ?? 0;
}

/** A channel's own notification setting, or the person's default for channels when it is null. */
function channelSetting(state: State, streamId: number, name: string, fallback: string): boolean {
  const own = state.subs.get(streamId)?.[name];
  return typeof own === "boolean" ? own : on(state.settings[fallback]);
}

/** Whether a message can notify at all, whatever the settings: not one's own, not from a muted sender, not in a muted place (a direct @-mention or a followed topic overrides muting). */
function notifiable(state: State, m: Message, flags: readonly string[]): boolean {
  if (m.sender_id === state.me || flags.includes("read")) return false;
  if (state.mutedUsers.has(m.sender_id)) return false;
  if (m.type !== "stream") return true;
  if (flags.includes("mentioned")) return true;
  const streamId = m.stream_id ?? 0;
  const p = policy(state, streamId, m.subject);
  if (p === FOLLOWED) return true;
  const sub = state.subs.get(streamId);
  if (!sub) return false;
  if (sub.is_muted) return p === UNMUTED;
  return p !== MUTED;
}

/**
 * Whether a new message (with its flags for this person) is notified on the desktop
 * (`kind` "desktop": enable_desktop_notifications and its channel and followed-topic kin) or
 * by a sound (`kind` "audible": enable_sounds and kin).
 */
export function notifies(state: State, m: Message, flags: readonly string[], kind: "desktop" | "audible"): boolean {
  if (!notifiable(state, m, flags)) return false;
  const s = state.settings;
  const streamId = m.stream_id ?? 0;
  if (m.type === "stream") {
    if (channelSetting(state, streamId, `${kind}_notifications`, kind === "desktop" ? "enable_stream_desktop_notifications" : "enable_stream_audible_notifications")) return true;
    const followed = policy(state, streamId, m.subject) === FOLLOWED;
    if (followed && on(s[kind === "desktop" ? "enable_followed_topic_desktop_notifications" : "enable_followed_topic_audible_notifications"])) return true;
  }
  if (!on(s[kind === "desktop" ? "enable_desktop_notifications" : "enable_sounds"])) return false;
  if (m.type !== "stream") return true;
  if (flags.includes("mentioned") || flags.includes("has_alert_word")) return true;
  if (flags.includes("stream_wildcard_mentioned") || flags.includes("wildcard_mentioned")) {
    return on(s.wildcard_mentions_notify) && channelSetting(state, streamId, "wildcard_mentions_notify", "wildcard_mentions_notify");
  }
  if (flags.includes("topic_wildcard_mentioned")) return on(s.wildcard_mentions_notify) || (policy(state, streamId, m.subject) === FOLLOWED && on(s.enable_followed_topic_wildcard_mentions_notify));
  return false;
}

/**
 * The unread count shown in the title and on the favicon, by desktop_icon_count_display:
 * 1 every unread message outside muted channels and topics, 2 direct messages, mentions and
 * followed topics, 3 direct messages and mentions, 4 none.
 */
export function attentionCount(state: State): number {
  const mode = Number(state.settings.desktop_icon_count_display ?? 1);
  if (mode === 4) return 0;
  let n = 0;
  for (const [id, ref] of state.unread) {
    if (ref.kind === "dm" || state.mentions.has(id)) {
      n++;
      continue;
    }
    const p = policy(state, ref.streamId, ref.topic);
    if (mode === 2) {
      if (p === FOLLOWED) n++;
    } else if (mode === 1) {
      const sub = state.subs.get(ref.streamId);
      if (sub && (sub.is_muted ? p === UNMUTED || p === FOLLOWED : p !== MUTED)) n++;
    }
  }
  return n;
}
