import type { Db } from "../../db/index.js";
import type { ProfileFieldRow } from "../../db/queries/profile-fields.js";
import { badRequest } from "../../base/errors.js";
import type { Check } from "../../http/params.js";
import { selectInChunks } from "../../db/chunks.js";

/** Custom profile field types (Zulip's CustomProfileField constants). */
export const FieldType = { SHORT_TEXT: 1, LONG_TEXT: 2, SELECT: 3, DATE: 4, URL: 5, USER: 6, EXTERNAL_ACCOUNT: 7, PRONOUNS: 8 } as const;

// Keyword, id and display name, in Zulip's order (sorted by display name).
const TYPE_CATALOGUE: readonly [string, number, string][] = [
  ["DATE", FieldType.DATE, "Date"],
  ["EXTERNAL_ACCOUNT", FieldType.EXTERNAL_ACCOUNT, "External account"],
  ["URL", FieldType.URL, "Link"],
  ["SELECT", FieldType.SELECT, "List of options"],
  ["PRONOUNS", FieldType.PRONOUNS, "Pronouns"],
  ["LONG_TEXT", FieldType.LONG_TEXT, "Text (long)"],
  ["SHORT_TEXT", FieldType.SHORT_TEXT, "Text (short)"],
  ["USER", FieldType.USER, "Users"],
];

/** The custom_profile_field_types object of /register. */
export function fieldTypeCatalogue(): Record<string, { id: number; name: string }> {
  return Object.fromEntries(TYPE_CATALOGUE.map(([key, id, name]) => [key, { id, name }]));
}

/** The field object of GET /realm/profile_fields, /register and the custom_profile_fields event. */
export function fieldDict(row: ProfileFieldRow): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: row.id,
    name: row.name,
    type: row.field_type,
    hint: row.hint,
    field_data: row.field_data,
    order: row.order,
    required: row.required === 1,
  };
  // Zulip sends the flag only when it is set.
  if (row.display_in_profile_summary === 1) out.display_in_profile_summary = true;
  return out;
}

/** Types whose values are Markdown and get a rendered_value. */
export function isRenderable(fieldType: number): boolean {
  return fieldType === FieldType.SHORT_TEXT || fieldType === FieldType.LONG_TEXT;
}

/**
 * Built-in external account subtypes (Zulip's DEFAULT_EXTERNAL_ACCOUNTS): their label, hint and
 * link are fixed; /register sends them as realm_default_external_accounts.
 */
export const DEFAULT_EXTERNAL_ACCOUNTS: Readonly<Record<string, { text: string; url_pattern: string; name: string; hint: string }>> = {
  twitter: { text: "Twitter", url_pattern: "https://twitter.com/%(username)s", name: "Twitter username", hint: "" },
  github: { text: "GitHub", url_pattern: "https://github.com/%(username)s", name: "GitHub username", hint: "" },
};

/** field_data as the API accepts it: a dict of strings or of string dicts. */
export type FieldData = Record<string, string | Record<string, string>>;

/** Zulip's check for the field_data parameter. */
export const isFieldData: Check<FieldData> = (value, name) => {
  if (!isPlainObject(value)) throw badRequest(`${name} is not a dict`);
  for (const item of Object.values(value)) {
    const ok = typeof item === "string" || (isPlainObject(item) && Object.values(item).every((v) => typeof v === "string"));
    if (!ok) throw badRequest(`${name} contains a value that is not an allowed_type`);
  }
  return value as FieldData;
};

/** A profile value as sent: a string, or a list of user ids. */
export const isProfileValue: Check<string | number[]> = (value, name) => {
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((v) => typeof v === "number" && Number.isInteger(v))) return value as number[];
  throw badRequest(`${name} is not an allowed_type`);
};

/** Whether an external-account field uses a built-in subtype (then label and hint are not the admin's). */
export function isDefaultExternal(fieldType: number, data: FieldData): boolean {
  return fieldType === FieldType.EXTERNAL_ACCOUNT && typeof data.subtype === "string" && data.subtype !== "custom";
}

/** Validates a field definition, in Zulip's order: field_data, label and hint, type, summary flag. */
export function validateFieldDefinition(name: string, hint: string, fieldType: number, data: FieldData, inSummary: boolean): void {
  if (fieldType === FieldType.SELECT) validateSelectData(data);
  else if (fieldType === FieldType.EXTERNAL_ACCOUNT) validateExternalData(data);
  if (!isDefaultExternal(fieldType, data)) {
    if (name.trim() === "") throw badRequest("Label cannot be blank.");
    capped("hint", hint, 80);
    capped("name", name, 40);
  }
  if (!TYPE_CATALOGUE.some(([, id]) => id === fieldType)) throw badRequest("Invalid field type.");
  if (inSummary && (fieldType === FieldType.LONG_TEXT || fieldType === FieldType.USER)) {
    throw badRequest("Field type not supported for display in profile summary.");
  }
}

function validateSelectData(data: FieldData): void {
  const entries = Object.entries(data);
  if (entries.length < 1) throw badRequest("Field must have at least one choice.");
  const texts = new Set<string>();
  for (const [key, option] of entries) {
    if (key.trim() === "") throw badRequest("'value' cannot be blank.");
    const checked = dictOnly(option, { text: requiredString, order: requiredString }, {});
    texts.add(checked.text ?? "");
  }
  if (texts.size !== entries.length) throw badRequest("Field must not have duplicate choices.");
}

function validateExternalData(data: FieldData): void {
  const checked = dictOnly(data, { subtype: requiredString }, { url_pattern: urlPattern });
  const subtype = checked.subtype ?? "";
  if (subtype in DEFAULT_EXTERNAL_ACCOUNTS) return;
  if (subtype !== "custom") throw badRequest("Invalid external account type");
  if (checked.url_pattern === undefined) throw badRequest("Custom external account must define URL pattern");
}

type StringCheck = (value: unknown, name: string) => string;

// Zulip's check_dict_only with var_name "field_data".
function dictOnly(value: unknown, required: Record<string, StringCheck>, optional: Record<string, StringCheck>): Record<string, string> {
  if (!isPlainObject(value)) throw badRequest("field_data is not a dict");
  const out: Record<string, string> = {};
  for (const [key, check] of Object.entries(required)) {
    if (!(key in value)) throw badRequest(`${key} key is missing from field_data`);
    out[key] = check(value[key], `field_data["${key}"]`);
  }
  for (const [key, check] of Object.entries(optional)) {
    if (key in value) out[key] = check(value[key], `field_data["${key}"]`);
  }
  const extra = Object.keys(value).filter((k) => !(k in required) && !(k in optional));
  if (extra.length > 0) throw badRequest(`Unexpected arguments: ${extra.join(", ")}`);
  return out;
}

const requiredString: StringCheck = (value, name) => {
  if (typeof value !== "string") throw badRequest(`${name} is not a string`);
  if (value.trim() === "") throw badRequest(`${name} cannot be blank.`);
  return value;
};

const urlPattern: StringCheck = (value, name) => {
  if (typeof value !== "string") throw badRequest(`${name} is not a string`);
  if (value.split("%(username)s").length !== 2) throw badRequest("URL pattern must contain '%(username)s'.");
  if (!isUrl(value.replace("%(username)s", "username"))) throw badRequest(`${name} is not a URL`);
  return value;
};

function capped(name: string, value: string, limit: number): void {
  if ([...value].length > limit) throw badRequest(`${name} is too long (limit: ${limit} characters)`);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// Django's URLValidator: http(s)/ftp(s), a host (name with a TLD, localhost, IPv4 or IPv6), optional port and path.
const URL_RE =
  /^(?:https?|ftps?):\/\/(?:[^\s:@/]+(?::[^\s:@/]*)?@)?(?:localhost|(?:25[0-5]|2[0-4]\d|1?\d?\d)(?:\.(?:25[0-5]|2[0-4]\d|1?\d?\d)){3}|\[[0-9a-f:.]+\]|(?:[a-z0-9\u00a1-\uffff](?:[a-z0-9\u00a1-\uffff-]{0,61}[a-z0-9\u00a1-\uffff])?\.)+(?:[a-z\u00a1-\uffff-]{2,63}|xn--[a-z0-9]{1,59})\.?)(?::\d{1,5})?(?:[/?#]\S*)?$/i;

/** Whether a string is a URL as Zulip's check_url accepts it. */
export function isUrl(value: string): boolean {
  return value.length <= 2048 && URL_RE.test(value);
}

function isDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(2000, month - 1, day));
  date.setUTCFullYear(year);
  return year >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Validates one user's value for a field (Zulip's validate_user_custom_profile_field; messages
 * name the field by its label) and returns it as stored: user lists as compact JSON.
 */
export async function checkProfileValue(db: Db, field: ProfileFieldRow, value: string | number[]): Promise<string> {
  const label = field.name;
  if (field.field_type === FieldType.USER) {
    if (!Array.isArray(value)) throw badRequest("User IDs is not a list");
    await checkUserIds(db, field.realm_id, value);
    return JSON.stringify(value);
  }
  if (typeof value !== "string") throw badRequest(`${label} is not a string`);
  switch (field.field_type) {
    case FieldType.LONG_TEXT:
      capped(label, value, 500);
      break;
    case FieldType.DATE:
      if (!isDate(value)) throw badRequest(`${label} is not a date`);
      break;
    case FieldType.URL:
      if (!isUrl(value)) throw badRequest(`${label} is not a URL`);
      break;
    case FieldType.SELECT: {
      const options: unknown = JSON.parse(field.field_data || "{}");
      if (!isPlainObject(options) || !Object.hasOwn(options, value)) {
        throw badRequest(`'${value}' is not a valid choice for '${label}'.`);
      }
      break;
    }
    default:
      capped(label, value, 50);
  }
  return value;
}

// Zulip's check_valid_user_ids: users of the realm, active, not bots.
async function checkUserIds(db: Db, realmId: number, ids: readonly number[]): Promise<void> {
  const rows = await selectInChunks(ids, (slice) =>
    db.selectFrom("user").select(["id", "is_active", "is_bot"]).where("realm_id", "=", realmId).where("id", "in", slice).execute(),
  );
  const found = new Set(rows.map((r) => r.id));
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) throw badRequest(`Invalid user ID: ${missing}`);
  for (const row of rows) {
    if (!row.is_active) throw badRequest(`User with ID ${row.id} is deactivated`);
    if (row.is_bot) throw badRequest(`User with ID ${row.id} is a bot`);
  }
}
