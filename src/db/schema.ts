import type { Generated } from "kysely";

/**
 * Table types. Booleans are stored as 0/1 integers and timestamps as integer milliseconds on
 * both SQLite and PostgreSQL, so the same query code reads the same values on each.
 */

export interface RealmTable {
  id: Generated<number>;
  string_id: string;
  name: string;
  description: string;
  date_created: number;
  deactivated: number;
  /** JSON object of organisation settings that are not worth a column each. */
  props: string;
}

export interface UserTable {
  id: Generated<number>;
  realm_id: number;
  /** The API email: the real address, or user<ID>@<host> when the address is hidden. */
  email: string;
  delivery_email: string;
  full_name: string;
  password_hash: string | null;
  api_key: string;
  role: number;
  is_active: number;
  is_bot: number;
  bot_type: number | null;
  bot_owner_id: number | null;
  is_billing_admin: number;
  date_joined: number;
  timezone: string;
  avatar_source: string;
  avatar_version: number;
  email_address_visibility: number;
  /** JSON object of the user's personal settings (lib/settings.ts), copied from the realm defaults at creation. */
  settings: Generated<string>;
  /** 1 for the realm's copy of a Zulip system bot (Notification Bot): listed in cross_realm_bots, not realm_users. */
  is_system_bot: Generated<number>;
}

export interface CustomProfileFieldTable {
  id: Generated<number>;
  realm_id: number;
  name: string;
  hint: string;
  field_type: number;
  field_data: string;
  order: number;
  display_in_profile_summary: number;
  required: number;
}

export interface CustomProfileFieldValueTable {
  user_id: number;
  field_id: number;
  value: string;
  rendered_value: string | null;
}

export interface StreamTable {
  id: Generated<number>;
  realm_id: number;
  name: string;
  description: string;
  rendered_description: string;
  invite_only: number;
  is_web_public: number;
  history_public_to_subscribers: number;
  stream_post_policy: number;
  message_retention_days: number | null;
  can_remove_subscribers_group: number;
  date_created: number;
  creator_id: number | null;
  first_message_id: number | null;
  deactivated: number;
  /** The channel's part of its email-gateway address: 32 hex digits, unique. */
  email_token: string;
}

export interface SubscriptionTable {
  user_id: number;
  stream_id: number;
  active: number;
  is_user_active: number;
  color: string;
  is_muted: number;
  pin_to_top: number;
  desktop_notifications: number | null;
  audible_notifications: number | null;
  push_notifications: number | null;
  email_notifications: number | null;
  wildcard_mentions_notify: number | null;
}

export interface DefaultStreamTable {
  realm_id: number;
  stream_id: number;
}

export interface MessageTable {
  id: Generated<number>;
  realm_id: number;
  sender_id: number;
  stream_id: number | null;
  topic: string;
  dm_key: string;
  content: string;
  rendered_content: string;
  date_sent: number;
  last_edit_time: number | null;
  edit_history: string | null;
  has_link: number;
  has_image: number;
  has_attachment: number;
  is_me_message: number;
  client: string;
  recipient_id: Generated<number>;
  last_moved_time: Generated<number | null>;
}

/** Zulip's Recipient: 1 = user, 2 = channel, 3 = group direct-message conversation (keyed by dm_key). */
export interface RecipientTable {
  id: Generated<number>;
  type: number;
  type_id: number;
  dm_key: Generated<string>;
}

/** A widget or a reader's update to it (Zulip's SubMessage); `content` is JSON text as sent. */
export interface SubmessageTable {
  id: Generated<number>;
  message_id: number;
  sender_id: number;
  msg_type: string;
  content: string;
}

export interface UserMessageTable {
  user_id: number;
  message_id: number;
  flags: number;
}

export interface ReactionTable {
  message_id: number;
  user_id: number;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
}

export interface UserTopicTable {
  user_id: number;
  stream_id: number;
  topic_name: string;
  topic_key: string;
  visibility_policy: number;
  last_updated: number;
}

export interface MutedUserTable {
  user_id: number;
  muted_user_id: number;
  date_muted: number;
}

export interface RealmUserDefaultTable {
  realm_id: number;
  /** JSON object of the defaults an administrator changed. */
  settings: string;
}

export interface PresenceTable {
  user_id: number;
  realm_id: number;
  last_active_time: number | null;
  last_connected_time: number | null;
  last_update_id: number;
}

export interface UserStatusTable {
  user_id: number;
  realm_id: number;
  status_text: string;
  emoji_name: string;
  emoji_code: string;
  reaction_type: string;
  timestamp: number;
}

export interface DraftTable {
  id: Generated<number>;
  user_id: number;
  type: string;
  to_ids: string;
  topic: string;
  content: string;
  last_edit_time: number;
}

/**
 * A message to send later. Channel messages have stream_id and topic; direct messages have
 * dm_user_ids, the JSON list of every participant (the sender too), ascending.
 */
export interface ScheduledMessageTable {
  id: Generated<number>;
  realm_id: number;
  sender_id: number;
  stream_id: number | null;
  topic: string;
  dm_user_ids: string;
  content: string;
  rendered_content: string;
  /** The client that scheduled or last edited it; the message is sent as from it. */
  client: string;
  scheduled_timestamp: number;
  read_by_sender: number;
  delivered: Generated<number>;
  delivered_message_id: Generated<number | null>;
  failed: Generated<number>;
  failure_message: Generated<string | null>;
}

export interface AlertWordTable {
  id: Generated<number>;
  user_id: number;
  realm_id: number;
  word: string;
}

export interface PushDeviceTokenTable {
  id: Generated<number>;
  user_id: number;
  kind: number;
  token: string;
  ios_app_id: string | null;
  last_updated: number;
}

export interface UserGroupTable {
  id: Generated<number>;
  realm_id: number;
  /** Null for anonymous groups (group-setting values given as {direct_members, direct_subgroups}). */
  name: string | null;
  description: string;
  is_system_group: number;
  can_mention_group_id: number | null;
  date_created: number;
}

export interface UserGroupMemberTable {
  group_id: number;
  user_id: number;
}

export interface UserGroupSubgroupTable {
  supergroup_id: number;
  subgroup_id: number;
}

export interface InviteTable {
  id: Generated<number>;
  realm_id: number;
  email: string;
  referred_by_id: number;
  invited_as: number;
  /** JSON array of channel ids. */
  stream_ids: string;
  include_realm_default_subscriptions: number;
  notify_referrer_on_join: number;
  key: string;
  invited_at: number;
  expiry_date: number | null;
  /** 0 pending, 1 used, 2 revoked. */
  status: number;
  created_user_id: number | null;
}

export interface MultiuseInviteTable {
  id: Generated<number>;
  realm_id: number;
  referred_by_id: number;
  invited_as: number;
  stream_ids: string;
  include_realm_default_subscriptions: number;
  key: string;
  created_at: number;
  expiry_date: number | null;
  /** 0 active, 2 revoked. */
  status: number;
}

/** A reusable-link signup waiting for its address to be confirmed; the link's grants are copied. */
export interface SignupConfirmationTable {
  id: Generated<number>;
  realm_id: number;
  email: string;
  multiuse_invite_id: number;
  invited_as: number;
  /** JSON array of channel ids. */
  stream_ids: string;
  include_realm_default_subscriptions: number;
  key: string;
  created_at: number;
  expiry_date: number;
  /** 0 pending, 1 used. */
  status: number;
  created_user_id: number | null;
}

/** An email domain new users of a realm may sign up from; allow_subdomains 0/1. */
export interface RealmDomainTable {
  id: Generated<number>;
  realm_id: number;
  domain: string;
  allow_subdomains: number;
}

/** The whole database. */
/** A pending change of a user's address (Zulip's EmailChangeStatus + Confirmation); status as InviteStatus. */
export interface EmailChangeTable {
  id: Generated<number>;
  realm_id: number;
  user_id: number;
  old_email: string;
  new_email: string;
  key: string;
  created_at: number;
  expiry_date: number;
  status: number;
}

/** A one-time password-reset link: the digest of its token, never the token. */
export interface PasswordResetTable {
  id: Generated<number>;
  realm_id: number;
  user_id: number;
  /** sha256 of the link's token, hex. */
  token_digest: string;
  created_at: number;
  expiry_date: number;
  /** 0 pending, 1 used, 2 revoked. */
  status: number;
}

/** An outgoing mail not yet sent (status 0) or given up on (status 2). */
export interface OutgoingMailTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  body: string;
  realm_id: number | null;
  /** The user whose action sent it (told if it finally fails); null for the server's own mail. */
  sender_id: number | null;
  created_at: number;
  next_attempt_at: number;
  attempts: Generated<number>;
  last_error: string | null;
  /** 0 waiting, 2 failed. */
  status: Generated<number>;
}

/** An uploaded custom emoji; deactivated ones stay for old messages, reactions and statuses. */
export interface RealmEmojiTable {
  id: Generated<number>;
  realm_id: number;
  name: string;
  author_id: number | null;
  /** The stored image's name under <dataDir>/user_avatars/<realm_id>/emoji/images/. */
  file_name: string;
  is_animated: number;
  deactivated: number;
}

/** A linkifier: a pattern and the URL template its matches link to, applied in `ordering`. */
export interface RealmFilterTable {
  id: Generated<number>;
  realm_id: number;
  pattern: string;
  url_template: string;
  ordering: number;
}

/** A code playground: where code blocks of one language can be opened. */
export interface RealmPlaygroundTable {
  id: Generated<number>;
  realm_id: number;
  name: string;
  pygments_language: string;
  url_template: string;
}

/** A named group of channels offered to new users at signup. */
export interface DefaultStreamGroupTable {
  id: Generated<number>;
  realm_id: number;
  name: string;
  description: string;
}

export interface DefaultStreamGroupStreamTable {
  group_id: number;
  stream_id: number;
}

/** An uploaded file (Zulip's Attachment); is_realm_public and is_web_public are caches, null when unknown. */
export interface AttachmentTable {
  id: Generated<number>;
  realm_id: number;
  owner_id: number;
  /** `<realm_id>/<random>/<random>/<file name>`: the file's key in storage and its URL under /user_uploads/. */
  path_id: string;
  file_name: string;
  size: number;
  content_type: string;
  create_time: number;
  is_realm_public: number | null;
  is_web_public: number | null;
}

/** A message that links an uploaded file. */
export interface AttachmentMessageTable {
  attachment_id: number;
  message_id: number;
}

/** An uploaded image's facts, and the thumbnails made of it (JSON list of StoredThumbnail). */
export interface ImageAttachmentTable {
  id: Generated<number>;
  realm_id: number;
  path_id: string;
  original_width_px: number;
  original_height_px: number;
  frames: number;
  thumbnail_metadata: string;
}

/** An image of another site a message shows through /thumbnail, by a sha256 digest of its URL. */
export interface MessageImageUrlTable {
  url_digest: string;
  message_id: number;
}

/** A signed-in browser; `id` is the SHA-256 digest (hex) of its cookie. */
export interface SessionTable {
  id: string;
  user_id: number;
  csrf_token: string;
  created_at: number;
  expires_at: number;
}

/** A data export requested through the API; times in milliseconds, null until they happen. */
export interface RealmExportTable {
  id: Generated<number>;
  realm_id: number;
  acting_user_id: number;
  export_time: number;
  started_time: number | null;
  failed_time: number | null;
  deleted_time: number | null;
  /** The archive's key in the file store, once written. */
  export_path: string | null;
}

/** One commit's events (or one ephemeral event) in the order the queues received them; `entry` is JSON (events/durable.ts). */
export interface EventLogTable {
  seq: number | string;
  entry: string;
}

/** Cluster mode: a commit not yet known to be on the shared stream; `commit_text` is JSON (cluster/pending.ts). */
export interface ClusterPendingTable {
  process_id: string;
  seq: number | string;
  created: number | string;
  commit_text: string;
}

/** An event queue as it was after the log entries up to `pos`; `state` is JSON (events/queue.ts SavedQueue). */
export interface EventQueueTable {
  id: string;
  pos: number | string;
  state: string;
}

export interface Database {
  realm: RealmTable;
  user: UserTable;
  custom_profile_field: CustomProfileFieldTable;
  custom_profile_field_value: CustomProfileFieldValueTable;
  stream: StreamTable;
  subscription: SubscriptionTable;
  default_stream: DefaultStreamTable;
  message: MessageTable;
  user_message: UserMessageTable;
  recipient: RecipientTable;
  reaction: ReactionTable;
  submessage: SubmessageTable;
  user_topic: UserTopicTable;
  muted_user: MutedUserTable;
  realm_user_default: RealmUserDefaultTable;
  presence: PresenceTable;
  user_status: UserStatusTable;
  draft: DraftTable;
  alert_word: AlertWordTable;
  push_device_token: PushDeviceTokenTable;
  user_group: UserGroupTable;
  user_group_member: UserGroupMemberTable;
  user_group_subgroup: UserGroupSubgroupTable;
  invite: InviteTable;
  multiuse_invite: MultiuseInviteTable;
  email_change: EmailChangeTable;
  password_reset: PasswordResetTable;
  outgoing_mail: OutgoingMailTable;
  realm_emoji: RealmEmojiTable;
  signup_confirmation: SignupConfirmationTable;
  realm_domain: RealmDomainTable;
  scheduled_message: ScheduledMessageTable;
  realm_filter: RealmFilterTable;
  realm_playground: RealmPlaygroundTable;
  default_stream_group: DefaultStreamGroupTable;
  default_stream_group_stream: DefaultStreamGroupStreamTable;
  attachment: AttachmentTable;
  attachment_message: AttachmentMessageTable;
  image_attachment: ImageAttachmentTable;
  message_image_url: MessageImageUrlTable;
  session: SessionTable;
  realm_export: RealmExportTable;
  event_log: EventLogTable;
  event_queue: EventQueueTable;
  cluster_pending: ClusterPendingTable;
}
