/**
 * Every event the server emits, declared once. The `id` is added by the queue that delivers it.
 * Literal `type` and `op` let the compiler check each emitter and each consumer.
 */

/** The user object as realm_user add carries it. */
export type ApiUser = Record<string, unknown> & { user_id: number };

export type RealmUserEvent =
  | { type: "realm_user"; op: "add"; person: ApiUser }
  | { type: "realm_user"; op: "remove"; person: { user_id: number; full_name: string } }
  | { type: "realm_user"; op: "update"; person: { user_id: number } & Record<string, unknown> };

export type RealmBotEvent = { type: "realm_bot"; op: "add" | "update"; bot: { user_id: number } & Record<string, unknown> };

export type HeartbeatEvent = { type: "heartbeat" };

/** A value an organisation setting takes on the wire. */
export type RealmSettingValue = boolean | number | string | null;

/**
 * An organisation setting changed: `update` for one property, or `update_dict` for the settings
 * Zulip announces that way: property "default" (message editing, group settings, authentication
 * methods), "icon", "logo" or "night_logo" (the organisation's images, with their URL and source).
 */
export type RealmEvent =
  | { type: "realm"; op: "update"; property: string; value: RealmSettingValue }
  | { type: "realm"; op: "update_dict"; property: "default"; data: Record<string, unknown> }
  | { type: "realm"; op: "update_dict"; property: "icon"; data: { icon_url: string; icon_source: string } }
  | { type: "realm"; op: "update_dict"; property: "logo"; data: { logo_url: string; logo_source: string } }
  | { type: "realm"; op: "update_dict"; property: "night_logo"; data: { night_logo_url: string; night_logo_source: string } };

/** A domain new users may sign up from: added, its subdomain flag changed, or removed. */
export type RealmDomainDict = { domain: string; allow_subdomains: boolean };
export type RealmDomainsEvent =
  | { type: "realm_domains"; op: "add" | "change"; realm_domain: RealmDomainDict }
  | { type: "realm_domains"; op: "remove"; domain: string };

/** The realm's whole custom emoji dictionary after a change (ApiRealmEmoji values keyed by id). */
export type RealmEmojiEvent = { type: "realm_emoji"; op: "update"; realm_emoji: Record<string, Record<string, unknown>> };

/** Who is typing, as typing events name them. */
export type TypingUser = { user_id: number; email: string };

export type TypingEvent =
  | { type: "typing"; op: "start" | "stop"; message_type: "direct"; sender: TypingUser; recipients: TypingUser[] }
  | { type: "typing"; op: "start" | "stop"; message_type: "stream"; sender: TypingUser; stream_id: number; topic: string };

/** A channel or subscription object as events carry it (channel fields keyed by name). */
export type ApiStream = Record<string, unknown> & { stream_id: number; name: string };

export type SubscriptionEvent =
  | { type: "subscription"; op: "add"; subscriptions: ApiStream[] }
  | { type: "subscription"; op: "remove"; subscriptions: { name: string; stream_id: number }[] }
  | { type: "subscription"; op: "update"; stream_id: number; property: string; value: boolean | string }
  | { type: "subscription"; op: "peer_add" | "peer_remove"; stream_ids: number[]; user_ids: number[] };

export type StreamEvent =
  | { type: "stream"; op: "create" | "delete"; streams: ApiStream[] }
  | {
      type: "stream";
      op: "update";
      stream_id: number;
      name: string;
      property: string;
      value: boolean | number | string | null;
      rendered_description?: string;
      history_public_to_subscribers?: boolean;
      is_web_public?: boolean;
    };

export type DefaultStreamsEvent = { type: "default_streams"; default_streams: ApiStream[] };

export type UserTopicEvent = { type: "user_topic"; stream_id: number; topic_name: string; last_updated: number; visibility_policy: number };

/** Legacy: the user's whole muted-topic list as [channel name, topic, timestamp]. */
export type MutedTopicsEvent = { type: "muted_topics"; muted_topics: [string, string, number][] };

/** A group-setting value: a named group's id, or an anonymous group's direct members and subgroups. */
export type GroupSettingValue = number | { direct_members: number[]; direct_subgroups: number[] };

/** A named user group as GET /user_groups, /register and user_group add carry it (feature level 275). */
export type ApiUserGroup = {
  id: number;
  name: string;
  description: string;
  members: number[];
  direct_subgroup_ids: number[];
  is_system_group: boolean;
  can_mention_group: GroupSettingValue;
};

export type UserGroupEvent =
  | { type: "user_group"; op: "add"; group: ApiUserGroup }
  | { type: "user_group"; op: "update"; group_id: number; data: { name?: string; description?: string; can_mention_group?: GroupSettingValue } }
  | { type: "user_group"; op: "add_members" | "remove_members"; group_id: number; user_ids: number[] }
  | { type: "user_group"; op: "add_subgroups" | "remove_subgroups"; group_id: number; direct_subgroup_ids: number[] }
  | { type: "user_group"; op: "remove"; group_id: number };

/** Pending invitations changed; clients refetch GET /invites. */
export type InvitesChangedEvent = { type: "invites_changed" };

/** Personal settings (issue 6). The two legacy types go only to queues without the user_settings_object capability (transforms.ts). */
export type SettingValueOnWire = boolean | number | string;
export type UserSettingsEvent = { type: "user_settings"; op: "update"; property: string; value: SettingValueOnWire; language_name?: string };
export type UpdateDisplaySettingsEvent = { type: "update_display_settings"; user: string; setting_name: string; setting: SettingValueOnWire; language_name?: string };
export type UpdateGlobalNotificationsEvent = { type: "update_global_notifications"; user: string; notification_name: string; setting: SettingValueOnWire };
export type RealmUserSettingsDefaultsEvent = { type: "realm_user_settings_defaults"; op: "update"; property: string; value: SettingValueOnWire };

/** Presence, status, muted users, drafts, alert words (issue 6). */
export type PresenceEvent = {
  type: "presence";
  user_id: number;
  email: string;
  server_timestamp: number;
  presence: Record<string, { client: string; status: "active" | "idle"; timestamp: number; pushable: boolean }>;
};
export type UserStatusEvent = {
  type: "user_status";
  user_id: number;
  away?: boolean;
  status_text?: string;
  emoji_name?: string;
  emoji_code?: string;
  reaction_type?: string;
};
export type MutedUsersEvent = { type: "muted_users"; muted_users: { id: number; timestamp: number }[] };
export type DraftObject = { id: number; type: "" | "stream" | "private"; to: number[]; topic: string; content: string; timestamp: number };
export type DraftsEvent =
  | { type: "drafts"; op: "add"; drafts: DraftObject[] }
  | { type: "drafts"; op: "update"; draft: DraftObject }
  | { type: "drafts"; op: "remove"; draft_id: number };
export type AlertWordsEvent = { type: "alert_words"; alert_words: string[] };

export type UserStateEvent =
  | UserSettingsEvent
  | UpdateDisplaySettingsEvent
  | UpdateGlobalNotificationsEvent
  | RealmUserSettingsDefaultsEvent
  | PresenceEvent
  | UserStatusEvent
  | MutedUsersEvent
  | DraftsEvent
  | AlertWordsEvent;

/** A scheduled message as GET /scheduled_messages, /register and its events carry it. */
export type ScheduledMessageObject = {
  scheduled_message_id: number;
  content: string;
  rendered_content: string;
  scheduled_delivery_timestamp: number;
  failed: boolean;
} & ({ type: "stream"; to: number; topic: string } | { type: "private"; to: number[] });

/** The sender's scheduled messages changed: created, edited (or failed to send), deleted or sent. */
export type ScheduledMessagesEvent =
  | { type: "scheduled_messages"; op: "add"; scheduled_messages: ScheduledMessageObject[] }
  | { type: "scheduled_messages"; op: "update"; scheduled_message: ScheduledMessageObject }
  | { type: "scheduled_messages"; op: "remove"; scheduled_message_id: number };

/** Any event that can be queued. Later areas add their members to this union. */
/**
 * A new message. `message` carries the rendered `content` and, for the per-queue transform, the
 * Markdown source as `raw_content` (lib/message-events.ts picks one and removes the other);
 * `flags` come per recipient through QueuedEvent.perUser.
 */
export type MessageEvent = { type: "message"; message: Record<string, unknown> & { id: number }; flags?: string[]; local_message_id?: string };

/** An edited message (content and/or topic); `flags` per recipient through perUser. */
export type UpdateMessageEvent = { type: "update_message"; message_id: number; message_ids: number[] } & Record<string, unknown>;

/** Deleted messages in the bulk_message_deletion form; legacy queues get `message_id` (message-events.ts). */
export type DeleteMessageEvent =
  | { type: "delete_message"; message_ids: number[]; message_type: "stream"; stream_id: number; topic: string }
  | { type: "delete_message"; message_ids: number[]; message_type: "private" };

/** A personal flag changed on messages; `operation` is the deprecated twin of `op`. */
export type UpdateMessageFlagsEvent = {
  type: "update_message_flags";
  op: "add" | "remove";
  operation: "add" | "remove";
  flag: string;
  messages: number[];
  all: boolean;
  message_details?: Record<string, Record<string, unknown>>;
};

/** An emoji reaction added or removed (`user` is Zulip's deprecated mirror of user_id). */
export type ReactionEvent = {
  type: "reaction";
  op: "add" | "remove";
  message_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  user_id: number;
  user: { user_id: number; email: string; full_name: string };
};

/** A submessage (a widget, or a reader's vote, option or task on it) added to a message. */
export type SubmessageEvent = { type: "submessage"; msg_type: string; message_id: number; submessage_id: number; sender_id: number; content: string };
/**
 * The realm's linkifiers, all of them in order, after any change. Only queues registered with the
 * linkifier_url_template capability receive it (transforms.ts); the legacy realm_filters event is
 * never sent at this feature level.
 */
export type RealmLinkifiersEvent = { type: "realm_linkifiers"; realm_linkifiers: { pattern: string; url_template: string; id: number }[] };

/** The realm's code playgrounds, all of them, after any change. */
export type RealmPlaygroundsEvent = {
  type: "realm_playgrounds";
  realm_playgrounds: { id: number; name: string; pygments_language: string; url_template: string }[];
};

/** The realm's default channel groups, sorted by name, each with its channels as channel objects (before feature level 330). */
export type DefaultStreamGroupsEvent = {
  type: "default_stream_groups";
  default_stream_groups: { name: string; id: number; description: string; streams: ApiStream[] }[];
};

/** A user's upload added, changed (messages linking it) or deleted; upload_space_used is the realm's total in bytes. */
export type AttachmentEvent =
  | { type: "attachment"; op: "add" | "update"; attachment: Record<string, unknown> & { id: number }; upload_space_used: number }
  | { type: "attachment"; op: "remove"; attachment: { id: number }; upload_space_used: number };

/** The realm's custom profile fields, all of them, after any change to their definitions. */
export type CustomProfileFieldsEvent = { type: "custom_profile_fields"; fields: Record<string, unknown>[] };

/** The realm's data exports, after one is requested, finishes, fails or is deleted (sent to the admin who acted). */
export type RealmExportEvent = {
  type: "realm_export";
  exports: { id: number; export_time: number; acting_user_id: number; export_url: string | null; deleted_timestamp: number | null; failed_timestamp: number | null; pending: boolean }[];
};

export type AppEvent =
  | RealmUserEvent
  | CustomProfileFieldsEvent
  | RealmBotEvent
  | HeartbeatEvent
  | TypingEvent
  | SubscriptionEvent
  | StreamEvent
  | DefaultStreamsEvent
  | UserTopicEvent
  | MutedTopicsEvent
  | UserGroupEvent
  | InvitesChangedEvent
  | UserStateEvent
  | MessageEvent
  | UpdateMessageEvent
  | DeleteMessageEvent
  | UpdateMessageFlagsEvent
  | ReactionEvent
  | RealmEmojiEvent
  | RealmEvent
  | RealmDomainsEvent
  | SubmessageEvent
  | ScheduledMessagesEvent
  | RealmLinkifiersEvent
  | RealmPlaygroundsEvent
  | DefaultStreamGroupsEvent
  | AttachmentEvent
  | RealmExportEvent;

/**
 * An event and the ids of the users whose queues receive it. Plain data (it may cross a process
 * boundary on the bus), so per-recipient and per-queue differences are declared, not computed here:
 *
 * - `perUser`: extra fields merged into the event for one recipient only, keyed by user id — e.g. a
 *   `message` event's `flags` (`{[hamletId]: {flags: ["read"]}, [iagoId]: {flags: []}}`). A
 *   recipient absent from the map gets the event as is.
 * - `publicRealmId`: the event is also offered to every queue of that realm registered with
 *   `all_public_streams` or a narrow (Zulip does this for messages to public channels); those
 *   queues' owners need not be in `userIds`, and their `perUser` entry may be missing.
 * - `realm`: the event goes to every queue of that realm (whose owners are its active users: a
 *   deactivated user's queues are dropped), except the queues of `except` — one entry however
 *   large the organisation, where `userIds` would list every user. `userIds` may add others.
 * - `perQueue`: extra fields for one queue only, keyed by queue id, merged after `perUser` — e.g.
 *   the `local_message_id` a client sent with its message goes back only to the queue it named.
 * - Per-queue renderings (apply_markdown, client_gravatar, capability-dependent shapes) are
 *   functions of the event and the queue's options, declared per event type in
 *   `events/transforms.ts` (`queueTransforms`); a transform may also drop the event for a queue.
 */
export interface QueuedEvent {
  event: AppEvent;
  userIds: readonly number[];
  perUser?: Readonly<Record<number, Readonly<Record<string, unknown>>>>;
  perQueue?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  publicRealmId?: number;
  realm?: { id: number; except: readonly number[] };
}
