import type { RealmRow } from "../../db/queries/realms.js";
import type { SystemGroups } from "../groups/system-groups.js";

/** One organisation setting from the realm's props JSON, or undefined when unset or unreadable. */
export function realmProp(realm: RealmRow | undefined, key: string): unknown {
  return realm ? realmProps(realm)[key] : undefined;
}

/** The realm's props JSON as an object (empty when unreadable). */
export function realmProps(realm: RealmRow): Readonly<Record<string, unknown>> {
  try {
    const props: unknown = JSON.parse(realm.props);
    return typeof props === "object" && props !== null && !Array.isArray(props) ? (props as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Organisation settings at their Zulip defaults (feature level 277), keyed without the `realm_`
 * prefix; a realm's `props` JSON overrides any of them. /register sends each as `realm_<name>`.
 */
export const REALM_DEFAULTS = {
  add_custom_emoji_policy: 1,
  allow_edit_history: true,
  allow_message_editing: true,
  authentication_methods: { Email: { enabled: true, available: true } },
  available_video_chat_providers: { disabled: { name: "None", id: 0 }, jitsi_meet: { name: "Jitsi Meet", id: 1 } },
  avatar_changes_disabled: false,
  bot_creation_policy: 1,
  create_web_public_stream_policy: 7,
  default_code_block_language: "",
  default_language: "en",
  /** Zulip 9 lets everyone delete their own messages (within message_content_delete_limit_seconds). */
  delete_own_message_policy: 5,
  description: "",
  digest_emails_enabled: false,
  digest_weekday: 1,
  disallow_disposable_email_addresses: true,
  edit_topic_policy: 5,
  email_auth_enabled: true,
  email_changes_disabled: false,
  emails_restricted_to_domains: false,
  enable_guest_user_indicator: true,
  enable_read_receipts: false,
  enable_spectator_access: false,
  giphy_rating: 2,
  icon_source: "G",
  inline_image_preview: true,
  inline_url_embed_preview: false,
  invite_required: true,
  invite_to_realm_policy: 1,
  invite_to_stream_policy: 1,
  is_zephyr_mirror_realm: false,
  jitsi_server_url: null,
  logo_source: "D",
  mandatory_topics: false,
  message_content_allowed_in_email_notifications: true,
  message_content_delete_limit_seconds: 600,
  message_content_edit_limit_seconds: 600,
  message_retention_days: -1,
  move_messages_between_streams_limit_seconds: 604800,
  move_messages_between_streams_policy: 1,
  move_messages_within_stream_limit_seconds: 604800,
  name_changes_disabled: false,
  new_stream_announcements_stream_id: -1,
  night_logo_source: "D",
  org_type: 0,
  password_auth_enabled: true,
  plan_type: 1,
  presence_disabled: false,
  push_notifications_enabled: false,
  push_notifications_enabled_end_timestamp: null,
  require_unique_names: false,
  send_welcome_emails: true,
  signup_announcements_stream_id: -1,
  upload_quota_mib: null,
  user_group_edit_policy: 1,
  video_chat_provider: 1,
  waiting_period_threshold: 0,
  want_advertise_in_communities_directory: false,
  wildcard_mention_policy: 5,
  zulip_update_announcements_stream_id: -1,
} satisfies Record<string, unknown>;

/** Settings only a server administrator changes; /register does not send them. */
export const REALM_LIMIT_DEFAULTS = {
  /** Zulip's INVITES_DEFAULT_REALM_DAILY_MAX. */
  max_invites: 100,
};

const SETTING_DEFAULTS = { ...REALM_DEFAULTS, ...REALM_LIMIT_DEFAULTS };

type SettingName = keyof typeof SETTING_DEFAULTS;

/** A realm setting from the realm's props, or its default when absent or of the wrong type. */
export function realmSetting<K extends SettingName>(realm: RealmRow, name: K): (typeof SETTING_DEFAULTS)[K] {
  const fallback = SETTING_DEFAULTS[name];
  const value = realmProp(realm, name);
  return typeof value === typeof fallback ? (value as typeof fallback) : fallback;
}

type SystemGroupName = (typeof SystemGroups)[keyof typeof SystemGroups];

/**
 * The realm settings that name a user group at feature level 275 (Zulip 9's
 * REALM_PERMISSION_GROUP_SETTINGS), each with the system group it defaults to. A realm's props
 * store a group id; /register sends `realm_<name>` as that id.
 */
export const REALM_GROUP_DEFAULTS = {
  create_multiuse_invite_group: "role:administrators",
  can_access_all_users_group: "role:everyone",
  can_create_public_channel_group: "role:members",
  can_create_private_channel_group: "role:members",
  direct_message_initiator_group: "role:everyone",
  direct_message_permission_group: "role:everyone",
} as const satisfies Record<string, SystemGroupName>;

/** The name of a group-valued realm setting. */
export type RealmGroupSetting = keyof typeof REALM_GROUP_DEFAULTS;

/** The group id a realm's props store for a group setting, or undefined when it keeps its default. */
export function realmGroupProp(realm: RealmRow, name: string): number | undefined {
  const value = realmProp(realm, name);
  return typeof value === "number" && Number.isInteger(value) ? value : undefined;
}
