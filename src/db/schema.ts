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

/** The whole database. */
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
  reaction: ReactionTable;
  user_topic: UserTopicTable;
  muted_user: MutedUserTable;
}
