import type { RealmRow } from "../db/queries/realms.js";

/** One organisation setting from the realm's props JSON, or undefined when unset or unreadable. */
export function realmProp(realm: RealmRow | undefined, key: string): unknown {
  if (!realm) return undefined;
  try {
    const props: unknown = JSON.parse(realm.props);
    return typeof props === "object" && props !== null && !Array.isArray(props) ? (props as Record<string, unknown>)[key] : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Organisation settings at their Zulip defaults (feature level 275), keyed without the `realm_`
 * prefix; a realm's `props` JSON overrides any of them.
 */
export const REALM_DEFAULTS: Record<string, unknown> = {
  add_custom_emoji_policy: 1,
  allow_edit_history: true,
  allow_message_editing: true,
  authentication_methods: { Email: { enabled: true, available: true } },
  available_video_chat_providers: { disabled: { name: "None", id: 0 }, jitsi_meet: { name: "Jitsi Meet", id: 1 } },
  avatar_changes_disabled: false,
  bot_domain: "",
  create_web_public_stream_policy: 7,
  default_code_block_language: "",
  default_external_accounts: {},
  default_language: "en",
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
  video_chat_provider: 1,
  waiting_period_threshold: 0,
  want_advertise_in_communities_directory: false,
  wildcard_mention_policy: 5,
  zulip_update_announcements_stream_id: -1,
};
