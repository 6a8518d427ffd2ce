import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import { deleteDraftsOf } from "../db/queries/drafts.js";
import { saveRealmDefaults, realmDefaultsRow } from "../db/queries/realm-user-defaults.js";
import { updateUser, userById, usersOfRealm, type UserRow } from "../db/queries/users.js";
import type { Outbox, Recipients } from "../events/outbox.js";
import { adminRequired } from "../base/errors.js";
import { isAdmin } from "../lib/users/roles.js";
import { LANGUAGES, SETTINGS, SETTINGS_BY_NAME, parseObject, userSettings, type SettingValue } from "../lib/users/settings.js";
import { avatarChangePerson, canSeeDeliveryEmail, dummyEmail, EmailVisibility } from "../lib/users/users.js";
import { doPresenceEnabledChanged } from "./presence.js";
import { emailHost } from "./users.js";

/**
 * Changes the caller's own settings (PATCH /settings): only values that differ are written, in
 * one transaction, each announced with user_settings (and a legacy event) to the user alone.
 */
export async function checkUpdateSettings(ctx: AppContext, user: UserRow, changes: Record<string, SettingValue>): Promise<void> {
  const current = userSettings(user);
  const changed = SETTINGS.filter((s) => changes[s.name] !== undefined && changes[s.name] !== current[s.name]);
  if (changed.length === 0) return;
  await write(ctx, async (tx, outbox) => {
    for (const s of changed) await doChangeUserSetting(ctx, tx, outbox, user.id, s.name, changes[s.name] as SettingValue);
    outbox.invalidate({ cache: "user", id: user.id });
  });
  const presence = changed.find((s) => s.name === "presence_enabled");
  if (presence) {
    const fresh = (await ctx.users.get(user.id)) ?? user;
    await doPresenceEnabledChanged(ctx, fresh, changes.presence_enabled === true);
  }
}

/**
 * Stores one setting and queues Zulip's events: user_settings to the user; the legacy
 * update_global_notifications / update_display_settings (delivered only to queues without
 * user_settings_object); realm_user timezone to everyone; email visibility fallout.
 */
export async function doChangeUserSetting(ctx: AppContext, tx: Db, outbox: Outbox, userId: number, name: string, value: SettingValue): Promise<void> {
  const user = await userById(tx, userId);
  const def = SETTINGS_BY_NAME.get(name);
  if (!user || !def) throw new Error(`unknown user or setting ${name}`);
  const oldVisibility = user.email_address_visibility;
  if (def.column === "timezone") await updateUser(tx, user.id, { timezone: String(value) });
  else if (def.column === "email_address_visibility") await updateUser(tx, user.id, { email_address_visibility: Number(value) });
  else await updateUser(tx, user.id, { settings: JSON.stringify({ ...parseObject(user.settings), [name]: value }) });

  const languageName = name === "default_language" ? { language_name: LANGUAGES[String(value)] ?? String(value) } : {};
  outbox.send({ type: "user_settings", op: "update", property: name, value, ...languageName }, [user.id]);
  if (def.legacy === "notification") {
    outbox.send({ type: "update_global_notifications", user: user.email, notification_name: name, setting: value }, [user.id]);
  }
  if (def.legacy === "display") {
    outbox.send({ type: "update_display_settings", user: user.email, setting_name: name, setting: value, ...languageName }, [user.id]);
  }
  if (name === "timezone") {
    const person = { email: user.email, user_id: user.id, timezone: String(value) };
    outbox.sendToRealm({ type: "realm_user", op: "update", person }, user.realm_id);
  }
  if (name === "email_address_visibility") await sendVisibilityEvents(ctx, tx, outbox, user, oldVisibility, Number(value));
  if (name === "enable_drafts_synchronization" && value === false) {
    // Syncing stopped: the server copies go, silently; clients keep their local drafts.
    await deleteDraftsOf(tx, user.id);
  }
}

/** Who newly sees or stops seeing the address; to/from "everyone" also changes the API email. */
async function sendVisibilityEvents(ctx: AppContext, tx: Db, outbox: Outbox, before: UserRow, oldValue: number, newValue: number): Promise<void> {
  const after: UserRow = { ...before, email_address_visibility: newValue };
  const viewers = (await usersOfRealm(tx, before.realm_id)).filter((u) => u.is_active);
  const gained = viewers.filter((v) => !canSeeDeliveryEmail(v, before) && canSeeDeliveryEmail(v, after));
  const lost = viewers.filter((v) => canSeeDeliveryEmail(v, before) && !canSeeDeliveryEmail(v, after));
  outbox.send({ type: "realm_user", op: "update", person: { user_id: before.id, delivery_email: before.delivery_email } }, gained.map((u) => u.id));
  outbox.send({ type: "realm_user", op: "update", person: { user_id: before.id, delivery_email: null } }, lost.map((u) => u.id));
  if (oldValue !== EmailVisibility.EVERYONE && newValue !== EmailVisibility.EVERYONE) return;
  const email = newValue === EmailVisibility.EVERYONE ? before.delivery_email : dummyEmail(before.id, emailHost(ctx));
  await updateUser(tx, before.id, { email });
  const ids = viewers.map((u) => u.id);
  outbox.send({ type: "realm_user", op: "update", person: { user_id: before.id, new_email: email } }, ids);
  outbox.send({ type: "realm_user", op: "update", person: avatarChangePerson({ ...after, email }) }, ids);
}

/**
 * Changes the realm's defaults for future users (PATCH /realm/user_settings_defaults; existing
 * users keep their values). One realm_user_settings_defaults event per changed value, to every
 * active user of the realm.
 */
export async function checkUpdateRealmDefaults(ctx: AppContext, actor: UserRow, changes: Record<string, SettingValue>): Promise<void> {
  if (!isAdmin(actor)) throw adminRequired();
  await write(ctx, async (tx, outbox) => {
    const stored = parseObject((await realmDefaultsRow(tx, actor.realm_id))?.settings ?? "{}");
    const current = { ...defaultsOfCatalogue(), ...stored };
    const changed = SETTINGS.filter((s) => s.realmDefault && changes[s.name] !== undefined && changes[s.name] !== current[s.name]);
    if (changed.length === 0) return;
    for (const s of changed) stored[s.name] = changes[s.name] as SettingValue;
    await saveRealmDefaults(tx, actor.realm_id, JSON.stringify(stored));
    const recipients: Recipients = { realmId: actor.realm_id, except: [] };
    for (const s of changed) {
      outbox.sendTo({ type: "realm_user_settings_defaults", op: "update", property: s.name, value: changes[s.name] as SettingValue }, recipients);
    }
  });
}

function defaultsOfCatalogue(): Record<string, SettingValue> {
  const out: Record<string, SettingValue> = {};
  for (const s of SETTINGS) out[s.name] = s.default;
  return out;
}
