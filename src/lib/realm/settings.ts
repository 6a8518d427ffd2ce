import { badRequest, conversionError } from "../../base/errors.js";
import { decodeJson, int, isBool } from "../../http/params.js";
import type { RealmRow } from "../../db/queries/realms.js";
import { REALM_DEFAULTS, realmProps } from "./props.js";

/**
 * The catalogue of organisation settings PATCH /realm accepts at feature level 277 (Zulip 9's
 * update_realm), in its parameter order: how each value is read, who may change it, where it is
 * stored and how the change is announced.
 */

/** How a setting's raw parameter is read. */
export type RealmSettingKind =
  /** A JSON boolean. */
  | "bool"
  /** A JSON integer among `choices` (`Invalid <name>`). */
  | "choice"
  /** A JSON integer, checked further by the action. */
  | "int"
  /** A raw string, at most `maxLength` characters. */
  | "text"
  /** A positive JSON integer or "unlimited" (null), checked by the action. */
  | "time-limit"
  /** A positive JSON integer or "unlimited" (-1), checked by the action. */
  | "retention"
  /** A raw non-negative integer (Zulip's to_non_negative_int converter). */
  | "non-negative"
  /** A JSON integer naming a user group. */
  | "group"
  /** A JSON integer naming a channel, or -1 for none. */
  | "stream"
  /** "default" (the server's Jitsi) or a URL of at most 200 characters. */
  | "jitsi"
  /** A JSON object of authentication backend names to booleans. */
  | "auth-methods";

/** One organisation setting of PATCH /realm. */
export interface RealmSettingDef {
  name: string;
  kind: RealmSettingKind;
  choices?: readonly number[];
  maxLength?: number;
  /** Only organisation owners may change it. */
  ownerOnly: boolean;
}

/** A decoded parameter value, before the action's own checks. */
export type DecodedSettingValue = boolean | number | string | null | Record<string, unknown>;

const POLICY_1_4 = [1, 2, 3, 4];
/** Zulip's OrgTypeEnum values. */
const ORG_TYPES = [0, 10, 20, 30, 35, 40, 50, 60, 70, 80, 90, 100, 1000];

function setting(name: string, kind: RealmSettingKind, opts: { choices?: readonly number[]; maxLength?: number; ownerOnly?: boolean } = {}): RealmSettingDef {
  return { name, kind, choices: opts.choices, maxLength: opts.maxLength, ownerOnly: opts.ownerOnly ?? false };
}

/** Every PATCH /realm parameter, in Zulip's order (which decides the error a bad request gets). */
export const REALM_SETTINGS: readonly RealmSettingDef[] = [
  setting("name", "text", { maxLength: 40 }),
  setting("description", "text", { maxLength: 1000 }),
  setting("emails_restricted_to_domains", "bool", { ownerOnly: true }),
  setting("disallow_disposable_email_addresses", "bool", { ownerOnly: true }),
  setting("invite_required", "bool", { ownerOnly: true }),
  setting("invite_to_realm_policy", "choice", { choices: [1, 2, 3, 4, 6], ownerOnly: true }),
  setting("create_multiuse_invite_group", "group", { ownerOnly: true }),
  setting("require_unique_names", "bool"),
  setting("name_changes_disabled", "bool"),
  setting("email_changes_disabled", "bool"),
  setting("avatar_changes_disabled", "bool"),
  setting("inline_image_preview", "bool"),
  setting("inline_url_embed_preview", "bool"),
  setting("add_custom_emoji_policy", "choice", { choices: POLICY_1_4 }),
  setting("delete_own_message_policy", "choice", { choices: [1, 2, 3, 4, 5] }),
  setting("message_content_delete_limit_seconds", "time-limit"),
  setting("allow_message_editing", "bool"),
  setting("edit_topic_policy", "choice", { choices: [1, 2, 3, 4, 5, 6] }),
  setting("mandatory_topics", "bool"),
  setting("message_content_edit_limit_seconds", "time-limit"),
  setting("allow_edit_history", "bool"),
  setting("default_language", "text"),
  setting("waiting_period_threshold", "non-negative", { ownerOnly: true }),
  setting("authentication_methods", "auth-methods", { ownerOnly: true }),
  setting("new_stream_announcements_stream_id", "stream"),
  setting("signup_announcements_stream_id", "stream"),
  setting("zulip_update_announcements_stream_id", "stream"),
  setting("message_retention_days", "retention", { ownerOnly: true }),
  setting("send_welcome_emails", "bool"),
  setting("digest_emails_enabled", "bool"),
  setting("message_content_allowed_in_email_notifications", "bool"),
  setting("bot_creation_policy", "choice", { choices: [1, 2, 3] }),
  setting("can_create_public_channel_group", "group"),
  setting("can_create_private_channel_group", "group"),
  setting("create_web_public_stream_policy", "choice", { choices: [2, 4, 6, 7] }),
  setting("invite_to_stream_policy", "choice", { choices: POLICY_1_4 }),
  setting("move_messages_between_streams_policy", "choice", { choices: [1, 2, 3, 4, 6] }),
  setting("user_group_edit_policy", "choice", { choices: POLICY_1_4 }),
  setting("direct_message_initiator_group", "group"),
  setting("direct_message_permission_group", "group"),
  setting("wildcard_mention_policy", "choice", { choices: [1, 2, 3, 5, 6, 7] }),
  setting("video_chat_provider", "int"),
  setting("jitsi_server_url", "jitsi"),
  setting("giphy_rating", "int"),
  setting("default_code_block_language", "text"),
  setting("digest_weekday", "choice", { choices: [0, 1, 2, 3, 4, 5, 6] }),
  setting("string_id", "text", { maxLength: 40, ownerOnly: true }),
  setting("org_type", "choice", { choices: ORG_TYPES }),
  setting("enable_spectator_access", "bool"),
  setting("want_advertise_in_communities_directory", "bool"),
  setting("enable_read_receipts", "bool"),
  setting("move_messages_within_stream_limit_seconds", "time-limit"),
  setting("move_messages_between_streams_limit_seconds", "time-limit"),
  setting("enable_guest_user_indicator", "bool"),
  setting("can_access_all_users_group", "group"),
];

/** Settings whose changes Zulip announces as realm update_dict rather than update (for history's sake). */
export const DICT_EVENT_SETTINGS: ReadonlySet<string> = new Set(["allow_message_editing", "edit_topic_policy", "message_content_edit_limit_seconds"]);

/** The Jitsi server clients use when the realm names none. */
export const SERVER_JITSI_URL = "https://meet.jit.si";

const JITSI_URL_MAX_LENGTH = 200;
// Django's URLValidator, closely enough: http(s)/ftp(s), a host with a top-level domain, localhost or an IP.
const URL_PATTERN =
  /^(?:https?|ftps?):\/\/(?:[^\s:@/]+(?::[^\s:@/]*)?@)?(?:localhost|(?:\d{1,3}\.){3}\d{1,3}|\[[0-9a-f:.]+\]|(?:[a-z0-9\u00a1-\uffff](?:[a-z0-9\u00a1-\uffff-]{0,61}[a-z0-9\u00a1-\uffff])?\.)+(?:[a-z\u00a1-\uffff-]{2,63}|xn--[a-z0-9]{1,59})\.?)(?::\d{1,5})?(?:[/?#]\S*)?$/i;

const intCodec = int();

/** Reads one setting's raw parameter with Zulip's type errors (range and permission checks come later). */
export function decodeRealmSetting(def: RealmSettingDef, raw: string): DecodedSettingValue {
  const name = def.name;
  switch (def.kind) {
    case "bool":
      return isBool(decodeJson(raw, name), name);
    case "choice": {
      const value = intCodec.read(raw, name);
      if (!def.choices?.includes(value)) throw badRequest(`Invalid ${name}`);
      return value;
    }
    case "int":
    case "group":
    case "stream":
      return intCodec.read(raw, name);
    case "text":
      if (def.maxLength !== undefined && [...raw].length > def.maxLength) throw badRequest(`${name} is too long (limit: ${def.maxLength} characters)`);
      return raw;
    case "time-limit":
    case "retention":
      return stringOrInt(decodeJson(raw, name), name);
    case "non-negative":
      return nonNegativeInt(raw, name);
    case "jitsi":
      return jitsiUrl(decodeJson(raw, name), name);
    case "auth-methods": {
      const value = decodeJson(raw, name);
      if (typeof value !== "object" || value === null || Array.isArray(value)) throw badRequest(`${name} is not a dict`);
      return value as Record<string, unknown>;
    }
  }
}

/**
 * Zulip's parse_message_time_limit_setting and parse_message_retention_days: the special string
 * "unlimited", or a positive integer; anything else is `Bad value for '<name>': <value>`.
 */
export function parseLimit(name: string, value: DecodedSettingValue, unlimited: number | null): number | null {
  if (value === "unlimited") return unlimited;
  if (typeof value === "number" && value > 0) return value;
  throw conversionError(name, typeof value === "number" || typeof value === "string" ? value : String(value));
}

/** A setting's current value: the realm's column or props, else Zulip's default. */
export function currentRealmValue(realm: RealmRow, name: string): unknown {
  if (name === "name") return realm.name;
  if (name === "description") return realm.description;
  const props = realmProps(realm);
  const defaults: Readonly<Record<string, unknown>> = REALM_DEFAULTS;
  return name in props ? props[name] : defaults[name];
}

function stringOrInt(value: unknown, name: string): string | number {
  if (typeof value === "string" || (typeof value === "number" && Number.isInteger(value))) return value;
  throw badRequest(`${name} is not a string or an integer`);
}

/** Python's int() of the raw string, then a sign check; failures are `Bad value for '<name>': <raw>`. */
function nonNegativeInt(raw: string, name: string): number {
  const trimmed = raw.trim();
  if (!/^[+-]?\d+$/.test(trimmed)) throw conversionError(name, raw);
  const value = Number(trimmed);
  if (value < 0 || !Number.isSafeInteger(value)) throw conversionError(name, raw);
  return value;
}

/** "default" means the server's Jitsi (stored as null); anything but a short URL is refused as a whole. */
function jitsiUrl(value: unknown, name: string): string | null {
  if (value === "default") return null;
  if (typeof value === "string" && [...value].length <= JITSI_URL_MAX_LENGTH && URL_PATTERN.test(value)) return value;
  throw badRequest(`${name} is not an allowed_type`);
}
