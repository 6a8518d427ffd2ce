import type { Db } from "../../db/index.js";
import type { UserRow } from "../../db/queries/users.js";
import { realmDefaultsRow } from "../../db/queries/realm-user-defaults.js";

/**
 * The catalogue of personal settings: one entry per setting drives PATCH /settings,
 * PATCH /realm/user_settings_defaults, the defaults of new users, the events and /register.
 */

/** A setting's value on the wire. */
export type SettingValue = boolean | number | string;

/** Which legacy event (before user_settings, level 89) also announces a change. */
export type LegacyGroup = "display" | "notification" | null;

/** One personal setting. */
export interface SettingDef {
  name: string;
  kind: "bool" | "int" | "str";
  /** Allowed values (`Invalid <name>` otherwise); absent = any value of the kind. */
  choices?: readonly SettingValue[];
  default: SettingValue;
  legacy: LegacyGroup;
  /** Accepted by PATCH /realm/user_settings_defaults. */
  realmDefault: boolean;
  /** Listed in realm_user_settings_defaults of /register (Zulip lists every stored setting). */
  inDefaultsState: boolean;
  /** Stored in a column of the user row instead of the settings JSON. */
  column?: "timezone" | "email_address_visibility";
}

const POLICY_1_4 = [1, 2, 3, 4] as const;
const POLICY_1_3 = [1, 2, 3] as const;

function def(
  name: string,
  kind: SettingDef["kind"],
  value: SettingValue,
  opts: { choices?: readonly SettingValue[]; legacy?: LegacyGroup; realmDefault?: boolean; inDefaultsState?: boolean; column?: SettingDef["column"] } = {},
): SettingDef {
  return {
    name,
    kind,
    default: value,
    choices: opts.choices,
    legacy: opts.legacy ?? null,
    realmDefault: opts.realmDefault ?? true,
    inDefaultsState: opts.inDefaultsState ?? true,
    column: opts.column,
  };
}

/** Emoji sets a user may pick, with the labels Zulip shows (emojiset_choices). */
export const EMOJISET_CHOICES = [
  { key: "google", text: "Google" },
  { key: "twitter", text: "Twitter" },
  { key: "text", text: "Plain text" },
  { key: "google-blob", text: "Google blobs" },
] as const;

/** The sounds a client may play (available_notification_sounds), sorted as Zulip lists its sound files. */
export const NOTIFICATION_SOUNDS = ["chime", "ding", "zulip"] as const;

/** Interface languages: code → the name Zulip reports as language_name. */
export const LANGUAGES: Readonly<Record<string, string>> = {
  ar: "العربيّة",
  bg: "Български",
  ca: "Català",
  cs: "Čeština",
  de: "Deutsch",
  en: "English",
  en_GB: "British English",
  es: "Español",
  fa: "فارسی",
  fr: "Français",
  hi: "हिंदी",
  hu: "Magyar",
  id: "Bahasa Indonesia",
  it: "Italiano",
  ja: "日本語",
  ko: "한국어",
  nl: "Nederlands",
  pl: "Polski",
  pt: "Português",
  pt_BR: "Português Brasileiro",
  ru: "Русский",
  sv: "Svenska",
  tr: "Türkçe",
  uk: "Українська",
  vi: "Tiếng Việt",
  "zh-hans": "简体中文",
  "zh-hant": "繁體中文",
};

/** Every personal setting at feature level 275, in Zulip's property_types order. */
export const SETTINGS: readonly SettingDef[] = [
  // Legacy display settings.
  def("color_scheme", "int", 1, { choices: POLICY_1_3, legacy: "display" }),
  def("default_language", "str", "en", { legacy: "display", realmDefault: false }),
  def("web_home_view", "str", "inbox", { choices: ["recent_topics", "inbox", "all_messages"], legacy: "display" }),
  def("demote_inactive_streams", "int", 1, { choices: POLICY_1_3, legacy: "display" }),
  def("dense_mode", "bool", true, { legacy: "display" }),
  // set_a/set_b are the product spec's stand-ins for the vendor names; accepting them is harmless.
  def("emojiset", "str", "google", { choices: ["google", "google-blob", "twitter", "text", "set_a", "set_a-blob", "set_b"], legacy: "display" }),
  def("enable_drafts_synchronization", "bool", true, { legacy: "display" }),
  def("enter_sends", "bool", false, { legacy: "display" }),
  def("fluid_layout_width", "bool", false, { legacy: "display" }),
  def("high_contrast_mode", "bool", false, { legacy: "display" }),
  def("left_side_userlist", "bool", false, { legacy: "display" }),
  def("starred_message_counts", "bool", true, { legacy: "display" }),
  def("translate_emoticons", "bool", false, { legacy: "display" }),
  def("twenty_four_hour_time", "bool", false, { legacy: "display" }),
  // Legacy notification settings.
  def("desktop_icon_count_display", "int", 1, { choices: POLICY_1_4, legacy: "notification" }),
  def("email_notifications_batching_period_seconds", "int", 120, { legacy: "notification" }),
  def("enable_desktop_notifications", "bool", true, { legacy: "notification" }),
  def("enable_digest_emails", "bool", true, { legacy: "notification" }),
  def("enable_login_emails", "bool", true, { legacy: "notification", realmDefault: false }),
  def("enable_marketing_emails", "bool", true, { legacy: "notification", realmDefault: false }),
  def("enable_offline_email_notifications", "bool", true, { legacy: "notification" }),
  def("enable_offline_push_notifications", "bool", true, { legacy: "notification" }),
  def("enable_online_push_notifications", "bool", true, { legacy: "notification" }),
  def("enable_sounds", "bool", true, { legacy: "notification" }),
  def("enable_stream_audible_notifications", "bool", false, { legacy: "notification" }),
  def("enable_stream_desktop_notifications", "bool", false, { legacy: "notification" }),
  def("enable_stream_email_notifications", "bool", false, { legacy: "notification" }),
  def("enable_stream_push_notifications", "bool", false, { legacy: "notification" }),
  def("message_content_in_email_notifications", "bool", true, { legacy: "notification" }),
  def("notification_sound", "str", "zulip", { legacy: "notification" }),
  def("pm_content_in_desktop_notifications", "bool", true, { legacy: "notification" }),
  def("presence_enabled", "bool", true, { legacy: "notification" }),
  def("realm_name_in_email_notifications_policy", "int", 1, { choices: POLICY_1_3, legacy: "notification" }),
  def("wildcard_mentions_notify", "bool", true, { legacy: "notification" }),
  // Modern notification settings.
  def("enable_followed_topic_desktop_notifications", "bool", true),
  def("enable_followed_topic_email_notifications", "bool", true),
  def("enable_followed_topic_push_notifications", "bool", true),
  def("enable_followed_topic_audible_notifications", "bool", true),
  def("enable_followed_topic_wildcard_mentions_notify", "bool", true),
  def("automatically_follow_topics_policy", "int", 3, { choices: POLICY_1_4 }),
  def("automatically_unmute_topics_in_muted_streams_policy", "int", 2, { choices: POLICY_1_4 }),
  def("automatically_follow_topics_where_mentioned", "bool", true),
  // Modern general settings.
  def("display_emoji_reaction_users", "bool", true),
  def("email_address_visibility", "int", 1, { choices: [1, 2, 3, 4, 5], column: "email_address_visibility" }),
  def("web_escape_navigates_to_home_view", "bool", true),
  def("receives_typing_notifications", "bool", true),
  def("send_private_typing_notifications", "bool", true),
  def("send_read_receipts", "bool", true),
  def("send_stream_typing_notifications", "bool", true),
  def("web_mark_read_on_scroll_policy", "int", 1, { choices: POLICY_1_3 }),
  def("user_list_style", "int", 2, { choices: POLICY_1_3 }),
  def("web_stream_unreads_count_display_policy", "int", 2, { choices: POLICY_1_3 }),
  def("web_font_size_px", "int", 14),
  def("web_line_height_percent", "int", 122),
  def("web_navigate_to_sent_message", "bool", true),
  def("web_channel_default_view", "int", 1, { choices: [1, 2] }),
  def("web_animate_image_previews", "str", "on_hover", { choices: ["always", "on_hover", "never"] }),
  // Not a property of Zulip's settings model, but part of PATCH /settings and user_settings.
  def("timezone", "str", "", { legacy: "display", realmDefault: false, inDefaultsState: false, column: "timezone" }),
];

/** The catalogue by name. */
export const SETTINGS_BY_NAME: ReadonlyMap<string, SettingDef> = new Map(SETTINGS.map((s) => [s.name, s]));

/** The catalogue's own defaults (what a realm starts from). */
export function catalogueDefaults(): Record<string, SettingValue> {
  const out: Record<string, SettingValue> = {};
  for (const s of SETTINGS) if (!s.column) out[s.name] = s.default;
  return out;
}

/** The realm's defaults for new users: the catalogue overlaid with what administrators changed. */
export async function realmDefaults(db: Db, realmId: number): Promise<Record<string, SettingValue>> {
  const row = await realmDefaultsRow(db, realmId);
  const out = catalogueDefaults();
  out.email_address_visibility = 1;
  if (row) Object.assign(out, parseObject(row.settings));
  return out;
}

/** What a new user of the realm starts with: its settings JSON and email_address_visibility column. */
export async function initialSettingsFor(db: Db, realmId: number): Promise<{ settings: string; emailAddressVisibility: number }> {
  const defaults = await realmDefaults(db, realmId);
  const { email_address_visibility: visibility, ...rest } = defaults;
  return { settings: JSON.stringify(rest), emailAddressVisibility: typeof visibility === "number" ? visibility : 1 };
}

// Rows are immutable snapshots (the user cache replaces a row when it changes), so parsing once per row is safe.
const parsed = new WeakMap<UserRow, Readonly<Record<string, SettingValue>>>();

/** A user's current value of every setting in the catalogue. */
export function userSettings(user: UserRow): Record<string, SettingValue> {
  let known = parsed.get(user);
  if (!known) {
    known = { ...catalogueDefaults(), ...parseObject(user.settings), email_address_visibility: user.email_address_visibility, timezone: user.timezone };
    parsed.set(user, known);
  }
  return { ...known };
}

/** One setting of a user. */
export function userSetting(user: UserRow, name: string): SettingValue | undefined {
  if (!parsed.has(user)) userSettings(user);
  return parsed.get(user)?.[name];
}

/** Parses a settings JSON column, tolerating an empty or damaged value as "no overrides". */
export function parseObject(text: string): Record<string, SettingValue> {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== "object" || value === null || Array.isArray(value)) return {};
    const out: Record<string, SettingValue> = {};
    for (const [k, v] of Object.entries(value)) {
      if (typeof v === "boolean" || typeof v === "number" || typeof v === "string") out[k] = v;
    }
    return out;
  } catch {
    return {};
  }
}

/** Whether a string is an IANA time zone this runtime knows. */
export function isTimezone(name: string): boolean {
  if (name.length === 0) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}
