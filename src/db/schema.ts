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

/** The whole database. */
export interface Database {
  realm: RealmTable;
  user: UserTable;
  custom_profile_field: CustomProfileFieldTable;
  custom_profile_field_value: CustomProfileFieldValueTable;
}
