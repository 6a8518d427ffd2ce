import { checkUpdateRealmDefaults, checkUpdateSettings } from "../actions/settings.js";
import { checkChangeAccount } from "../actions/account.js";
import { endpoint } from "../http/endpoint.js";
import { adminRequired, badRequest } from "../base/errors.js";
import { Param, decodeJson, int, isBool, str } from "../http/params.js";
import { requireHuman } from "../http/human.js";
import { isAdmin } from "../lib/users/roles.js";
import { LANGUAGES, NOTIFICATION_SOUNDS, SETTINGS, isTimezone, type SettingDef, type SettingValue } from "../lib/users/settings.js";

const MAX_BATCHING_PERIOD_SECS = 7 * 24 * 60 * 60;

/** The codec of one setting: JSON booleans and integers, plain strings, Zulip's messages. */
function settingParam(def: SettingDef): Param<SettingValue | undefined> {
  const intCodec = int();
  const read = (raw: string, name: string): SettingValue => {
    const value = readKind(def, raw, name, intCodec);
    if (def.choices && !def.choices.includes(value)) throw badRequest(`Invalid ${name}`);
    if (name === "email_notifications_batching_period_seconds" && (Number(value) <= 0 || Number(value) > MAX_BATCHING_PERIOD_SECS)) {
      throw badRequest(`Invalid email batching period: ${value} seconds`);
    }
    if (name === "notification_sound" && value !== "none" && !(NOTIFICATION_SOUNDS as readonly string[]).includes(String(value))) {
      throw badRequest(`Invalid notification sound '${value}'`);
    }
    if (name === "default_language" && !(String(value) in LANGUAGES)) throw badRequest("Invalid default_language");
    if (name === "timezone" && !isTimezone(String(value))) throw badRequest("timezone is not a recognized time zone");
    return value;
  };
  return new Param<SettingValue | undefined>(read, false, undefined);
}

function readKind(def: SettingDef, raw: string, name: string, intCodec: Param<number>): SettingValue {
  if (def.kind === "bool") return isBool(decodeJson(raw, name), name);
  if (def.kind === "int") return intCodec.read(raw, name);
  return raw;
}

// Parameters are taken raw and decoded in the handler: Zulip refuses bots and non-administrators
// before it looks at the values.
function rawShape(defs: readonly SettingDef[]): Record<string, Param<string | undefined>> {
  const shape: Record<string, Param<string | undefined>> = {};
  for (const def of defs) shape[def.name] = str().optional();
  return shape;
}

function decodeSettings(defs: readonly SettingDef[], raw: Record<string, unknown>): Record<string, SettingValue> {
  const out: Record<string, SettingValue> = {};
  for (const def of defs) {
    const value = raw[def.name];
    if (typeof value === "string") out[def.name] = settingParam(def).read(value, def.name) as SettingValue;
  }
  return out;
}

const userSettingDefs = SETTINGS;
const realmDefaultDefs = SETTINGS.filter((def) => def.realmDefault);

/** Personal settings and the organisation's defaults for new users. */
export const settingsEndpoints = [
  endpoint({
    method: "PATCH",
    path: "/settings",
    params: { ...rawShape(userSettingDefs), full_name: str().optional(), email: str().optional(), old_password: str().optional(), new_password: str().optional() },
    async handler({ ctx, user, params, request }) {
      requireHuman(user);
      const { full_name: fullName, email, old_password: oldPassword, new_password: newPassword, ...raw } = params;
      const changes = decodeSettings(userSettingDefs, raw);
      // A password change through the web app keeps that browser signed in; it ends the others.
      await checkChangeAccount(ctx, user, { fullName, email, oldPassword, newPassword, keepSession: request.sessionDigest });
      await checkUpdateSettings(ctx, (await ctx.users.get(user.id)) ?? user, changes);
      return {};
    },
  }),
  endpoint({
    method: "PATCH",
    path: "/realm/user_settings_defaults",
    params: rawShape(realmDefaultDefs),
    async handler({ ctx, user, params }) {
      if (!isAdmin(user)) throw adminRequired();
      await checkUpdateRealmDefaults(ctx, user, decodeSettings(realmDefaultDefs, params));
      return {};
    },
  }),
];
