import { createHash } from "node:crypto";
import type { Selectable } from "kysely";
import type { ExportStreamRow, ExportUserRow } from "../../db/queries/export-tables.js";
import type { AttachmentTable, MessageTable, RealmTable, ScheduledMessageTable } from "../../db/schema.js";

/**
 * Rookery's rows as the records of Zulip's export format: Zulip's table and field names, foreign
 * keys named after the field (`sender`, `recipient`, `realm`), times as UNIX seconds (floats).
 */

/** A time in milliseconds as Zulip's exports write datetimes: UNIX seconds. */
export function seconds(ms: number | null): number | null {
  return ms === null ? null : ms / 1000;
}

const bool = (value: number | null): boolean => value === 1;

function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * Organisation settings written to zerver_realm: those that are columns of Zulip 9's Realm under
 * the same name (its importer builds a Realm from every key, so nothing else may appear).
 */
export const REALM_COLUMNS = [
  "add_custom_emoji_policy", "allow_edit_history", "allow_message_editing", "avatar_changes_disabled", "bot_creation_policy", "create_web_public_stream_policy",
  "default_code_block_language", "default_language", "delete_own_message_policy", "digest_emails_enabled", "digest_weekday", "disallow_disposable_email_addresses",
  "edit_topic_policy", "email_changes_disabled", "emails_restricted_to_domains", "enable_guest_user_indicator", "enable_read_receipts", "enable_spectator_access",
  "giphy_rating", "icon_source", "inline_image_preview", "inline_url_embed_preview", "invite_required", "invite_to_realm_policy", "invite_to_stream_policy",
  "is_zephyr_mirror_realm", "jitsi_server_url", "logo_source", "mandatory_topics", "message_content_allowed_in_email_notifications", "message_content_delete_limit_seconds",
  "message_content_edit_limit_seconds", "message_retention_days", "move_messages_between_streams_limit_seconds", "move_messages_between_streams_policy",
  "move_messages_within_stream_limit_seconds", "name_changes_disabled", "night_logo_source", "org_type", "plan_type", "presence_disabled", "require_unique_names",
  "send_welcome_emails", "user_group_edit_policy", "video_chat_provider", "waiting_period_threshold", "want_advertise_in_communities_directory", "wildcard_mention_policy",
] as const;

/** Channel-valued settings: stored as `<name>_id` (-1 for none), a foreign key `<name>` in the export. */
export const REALM_CHANNEL_SETTINGS = ["new_stream_announcements_stream", "signup_announcements_stream", "zulip_update_announcements_stream"] as const;

/**
 * zerver_realm: the columns, the settings (props over their defaults), channel settings as
 * foreign keys, and each group setting as a group id (`groupIds` resolves a default's system
 * group name to its id).
 */
export function realmRecord(
  realm: Selectable<RealmTable>,
  defaults: Readonly<Record<string, unknown>>,
  groupDefaults: Readonly<Record<string, string>>,
  groupIds: ReadonlyMap<string, number>,
): Record<string, unknown> {
  const props = { ...defaults, ...parseObject(realm.props) };
  const record: Record<string, unknown> = {};
  for (const name of REALM_COLUMNS) record[name] = props[name] ?? null;
  for (const name of REALM_CHANNEL_SETTINGS) {
    const id = props[`${name}_id`];
    record[name] = typeof id === "number" && id > 0 ? id : null;
  }
  for (const [name, fallback] of Object.entries(groupDefaults)) {
    const id = props[name];
    record[name] = typeof id === "number" ? id : (groupIds.get(fallback) ?? null);
  }
  return { ...record, id: realm.id, string_id: realm.string_id, name: realm.name, description: realm.description, date_created: seconds(realm.date_created), deactivated: bool(realm.deactivated) };
}

/** zerver_userprofile: personal settings under their Zulip names, then the columns; secrets only when asked. */
export function userRecord(user: ExportUserRow, recipientId: number, withSecrets: boolean): Record<string, unknown> {
  const record: Record<string, unknown> = {
    ...parseObject(user.settings),
    id: user.id,
    realm: user.realm_id,
    email: user.email,
    delivery_email: user.delivery_email,
    full_name: user.full_name,
    is_active: bool(user.is_active),
    is_bot: bool(user.is_bot),
    bot_type: user.bot_type,
    bot_owner: user.bot_owner_id,
    role: user.role,
    is_billing_admin: bool(user.is_billing_admin),
    is_mirror_dummy: false,
    date_joined: seconds(user.date_joined),
    last_login: null,
    last_reminder: null,
    timezone: user.timezone,
    avatar_source: user.avatar_source,
    avatar_version: user.avatar_version,
    email_address_visibility: user.email_address_visibility,
    recipient: recipientId,
    default_sending_stream: null,
    default_events_register_stream: null,
    last_active_message_id: null,
    tos_version: null,
    // Django's permission tables, which Zulip's importer expects (and drops).
    user_permissions: [],
    groups: [],
  };
  if (withSecrets) {
    record.api_key = user.api_key;
    record.password = user.password_hash;
  }
  return record;
}

/** zerver_stream (its email token is never exported). */
export function streamRecord(stream: ExportStreamRow, recipientId: number): Record<string, unknown> {
  return {
    id: stream.id,
    realm: stream.realm_id,
    name: stream.name,
    date_created: seconds(stream.date_created),
    deactivated: bool(stream.deactivated),
    description: stream.description,
    rendered_description: stream.rendered_description,
    invite_only: bool(stream.invite_only),
    history_public_to_subscribers: bool(stream.history_public_to_subscribers),
    is_web_public: bool(stream.is_web_public),
    is_in_zephyr_realm: false,
    stream_post_policy: stream.stream_post_policy,
    message_retention_days: stream.message_retention_days,
    first_message_id: stream.first_message_id,
    can_remove_subscribers_group: stream.can_remove_subscribers_group,
    creator: stream.creator_id,
    recipient: recipientId,
  };
}

/** zerver_huddle: Zulip names a group conversation by the SHA-1 of its sorted, comma-joined user ids. */
export function huddleRecord(recipientId: number, dmKey: string): Record<string, unknown> {
  return { id: recipientId, huddle_hash: createHash("sha1").update(dmKey).digest("hex"), recipient: recipientId, group_size: dmKey.split(",").length };
}

/** zerver_subscription with the defaults Zulip gives direct-message subscriptions. */
export function dmSubscriptionRecord(id: number, userId: number, recipientId: number, userActive: boolean): Record<string, unknown> {
  return {
    id,
    user_profile: userId,
    recipient: recipientId,
    active: true,
    is_user_active: userActive,
    color: "#c2c2c2",
    is_muted: false,
    pin_to_top: false,
    desktop_notifications: null,
    audible_notifications: null,
    push_notifications: null,
    email_notifications: null,
    wildcard_mentions_notify: null,
  };
}

/** zerver_message. */
export function messageRecord(message: Selectable<MessageTable>, clientId: number): Record<string, unknown> {
  return {
    id: message.id,
    sender: message.sender_id,
    recipient: message.recipient_id,
    realm: message.realm_id,
    subject: message.topic,
    content: message.content,
    rendered_content: message.rendered_content,
    rendered_content_version: 1,
    date_sent: seconds(message.date_sent),
    sending_client: clientId,
    last_edit_time: seconds(message.last_edit_time),
    edit_history: message.edit_history,
    has_attachment: bool(message.has_attachment),
    has_image: bool(message.has_image),
    has_link: bool(message.has_link),
  };
}

/** zerver_scheduledmessage. */
export function scheduledRecord(row: Selectable<ScheduledMessageTable>, recipientId: number | null, clientId: number): Record<string, unknown> {
  return {
    id: row.id,
    sender: row.sender_id,
    recipient: recipientId,
    realm: row.realm_id,
    subject: row.topic,
    content: row.content,
    rendered_content: row.rendered_content,
    sending_client: clientId,
    stream: row.stream_id,
    scheduled_timestamp: seconds(row.scheduled_timestamp),
    read_by_sender: bool(row.read_by_sender),
    delivered: bool(row.delivered),
    delivered_message: row.delivered_message_id,
    has_deleted_attachment: false,
    failed: bool(row.failed),
    failure_message: row.failure_message,
    delivery_type: 1,
  };
}

/** zerver_attachment, with the exported messages that link it. */
export function attachmentRecord(row: Selectable<AttachmentTable>, messageIds: number[]): Record<string, unknown> {
  return {
    id: row.id,
    file_name: row.file_name,
    path_id: row.path_id,
    create_time: seconds(row.create_time),
    size: row.size,
    content_type: row.content_type,
    is_realm_public: row.is_realm_public === null ? null : bool(row.is_realm_public),
    is_web_public: row.is_web_public === null ? null : bool(row.is_web_public),
    realm: row.realm_id,
    owner: row.owner_id,
    messages: messageIds,
    scheduled_messages: [],
  };
}
