/**
 * Applies one event from /events to the state: one pure function per event type, each returning
 * a new State (untouched parts shared). The server has its own apply for /register (src/lib/state);
 * the two hold different shapes (the server keeps Zulip's wire format, this keeps maps for the views).
 */
import { applyDeleteMessage, applyFlags, applyMessage, applyReaction, applySubmessage, applyUpdateMessage } from "./apply-messages.js";
import { applyMutedUsers, applyRealmBot, applyPresence, applyRealmUser, applyTyping, applyUserGroup, applyUserStatus } from "./apply-people.js";
import { applyStream, applySubscription, applyUserTopic } from "./apply-channels.js";
import { applyAlertWords, applyDrafts, applyProfileFields, applyRealm, applyRealmEmoji, applyRealmList, applyScheduled, applyUserSettings } from "./apply-realm.js";
import type { ServerEvent, State } from "./types.js";

type Apply = (state: State, e: ServerEvent, now: number) => State;

const keep: Apply = (state) => state;

/** Every event type the server sends, and what it does to the state. */
export const appliers: Record<string, Apply> = {
  message: applyMessage,
  update_message: applyUpdateMessage,
  delete_message: applyDeleteMessage,
  reaction: applyReaction,
  update_message_flags: applyFlags,
  submessage: applySubmessage,
  realm_user: applyRealmUser,
  realm_bot: applyRealmBot,
  presence: applyPresence,
  user_status: applyUserStatus,
  typing: applyTyping,
  user_group: applyUserGroup,
  muted_users: applyMutedUsers,
  subscription: applySubscription,
  stream: applyStream,
  user_topic: applyUserTopic,
  realm: applyRealm,
  realm_emoji: applyRealmEmoji,
  user_settings: applyUserSettings,
  update_display_settings: applyUserSettings,
  update_global_notifications: applyUserSettings,
  drafts: applyDrafts,
  custom_profile_fields: applyProfileFields,
  alert_words: applyAlertWords,
  scheduled_messages: applyScheduled,
  realm_linkifiers: applyRealmList,
  realm_playgrounds: applyRealmList,
  realm_domains: applyRealmList,
  default_streams: applyRealmList,
  default_stream_groups: applyRealmList,
  realm_user_settings_defaults: keep,
  muted_topics: keep,
  invites_changed: keep,
  attachment: keep,
  heartbeat: keep,
  restart: keep,
};

/** Applies a batch of events in order. Unknown types leave the state as it is. */
export function applyEvents(state: State, events: readonly ServerEvent[], now: number): State {
  let next = state;
  for (const e of events) next = (appliers[e.type] ?? keep)(next, e, now);
  return next;
}
