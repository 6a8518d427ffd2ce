import { createHash } from "node:crypto";
import { remembered } from "../../base/remembered.js";
import { gravatarUrl } from "../../base/gravatar.js";
import type { Db } from "../../db/index.js";
import { profileValuesOfUsers, type ProfileValueRow } from "../../db/queries/profile-fields.js";
import type { UserRow } from "../../db/queries/users.js";
import { userByApiEmail, userById, usersOfRealm } from "../../db/queries/users.js";
import type { RealmRow } from "../../db/queries/realms.js";
import { JsonText } from "../../base/json-text.js";
import { badRequest, insufficientPermission, noSuchUser, userDeactivated } from "../../base/errors.js";
import { realmSetting } from "../realm/props.js";
import { Role } from "./roles.js";
import { systemBotAvatarUrl } from "../../db/system-bots.js";

/** How a user object is built for one viewer. */
export interface UserFormat {
  clientGravatar: boolean;
  /** Values of custom profile fields, keyed by user id; omitted = no profile_data field. */
  profileData?: Map<number, ProfileValueRow[]>;
}

/** email_address_visibility values. */
export const EmailVisibility = { EVERYONE: 1, MEMBERS: 2, ADMINS: 3, NOBODY: 4, MODERATORS: 5 } as const;

/** Whether `viewer` may see `target`'s real address (Zulip's can_access_delivery_email). */
export function canSeeDeliveryEmail(viewer: Pick<UserRow, "id" | "role">, target: Pick<UserRow, "id" | "email_address_visibility">): boolean {
  if (viewer.id === target.id) return true;
  switch (target.email_address_visibility) {
    case EmailVisibility.EVERYONE:
      return true;
    case EmailVisibility.MEMBERS:
      return viewer.role <= Role.MEMBER;
    case EmailVisibility.MODERATORS:
      return viewer.role <= Role.MODERATOR;
    case EmailVisibility.ADMINS:
      return viewer.role <= Role.ADMINISTRATOR;
    default:
      return false;
  }
}

/** The API email of a user whose address is hidden: user<ID>@<host>. */
export function dummyEmail(userId: number, host: string): string {
  return `user${userId}@${host}`;
}

/** Zulip's ISO 8601 timestamp with microseconds and a +00:00 offset. */
export const isoTimestamp = remembered((ms: number): string => new Date(ms).toISOString().replace(/\.(\d{3})Z$/, ".$1000+00:00"));

/**
 * The storage name of an uploaded avatar, `<realm id>/<digest>`: derived from facts of the user
 * that nobody lists (the join time in milliseconds) and the version, so a new upload gets a new
 * URL and URLs cannot be enumerated.
 */
export function avatarHash(user: Pick<UserRow, "id" | "realm_id" | "date_joined" | "avatar_version">): string {
  return `${user.realm_id}/${createHash("sha1").update(`avatar:${user.id}:${user.date_joined}:${user.avatar_version}`).digest("hex")}`;
}

/** The URL of an uploaded avatar (100 px, or 500 px for medium), relative to the server, versioned. */
export function uploadedAvatarUrl(user: Pick<UserRow, "id" | "realm_id" | "date_joined" | "avatar_version">, medium = false): string {
  return `/user_avatars/${avatarHash(user)}${medium ? "-medium" : ""}.png?version=${user.avatar_version}`;
}

/** avatar_url for a viewer: null when the client computes it (client_gravatar and a visible address). */
export function avatarUrl(target: UserRow, clientGravatar: boolean): string | null {
  const systemAvatar = target.is_system_bot ? systemBotAvatarUrl(target.email) : undefined;
  if (systemAvatar !== undefined) return systemAvatar;
  if (target.avatar_source === "U") return uploadedAvatarUrl(target);
  if (clientGravatar && target.avatar_source === "G" && target.email_address_visibility === EmailVisibility.EVERYONE) return null;
  return gravatarUrl(target.delivery_email, target.avatar_version);
}

/** avatar_url_medium: the 500 px avatar. */
export function mediumAvatarUrl(user: UserRow): string {
  return user.avatar_source === "U" ? uploadedAvatarUrl(user, true) : gravatarUrl(user.delivery_email, user.avatar_version, true);
}

/** The realm_user update person that announces a new avatar URL (Zulip's notify_avatar_url_change). */
export function avatarChangePerson(user: UserRow): Record<string, unknown> & { user_id: number } {
  return {
    user_id: user.id,
    avatar_source: user.avatar_source,
    avatar_url: avatarUrl(user, false),
    avatar_url_medium: mediumAvatarUrl(user),
    avatar_version: user.avatar_version,
  };
}

/** The user object of GET /users and realm_user add, as `viewer` may see it. */
export function apiUser(target: UserRow, viewer: Pick<UserRow, "id" | "role">, format: UserFormat): Record<string, unknown> & { user_id: number } {
  const user: Record<string, unknown> & { user_id: number } = {
    email: target.email,
    user_id: target.id,
    avatar_version: target.avatar_version,
    is_admin: target.role <= Role.ADMINISTRATOR,
    is_owner: target.role === Role.OWNER,
    is_guest: target.role === Role.GUEST,
    is_billing_admin: target.is_billing_admin === 1,
    role: target.role,
    is_bot: target.is_bot === 1,
    full_name: target.full_name,
    timezone: target.timezone,
    is_active: target.is_active === 1,
    date_joined: isoTimestamp(target.date_joined),
    delivery_email: canSeeDeliveryEmail(viewer, target) ? target.delivery_email : null,
    avatar_url: avatarUrl(target, format.clientGravatar),
    bot_type: target.bot_type,
  };
  if (target.is_bot) {
    user.bot_owner_id = target.bot_owner_id;
    if (target.is_system_bot) user.is_system_bot = true;
  } else if (format.profileData) user.profile_data = profileDataOf(format.profileData.get(target.id) ?? []);
  return user;
}

/** profile_data: field id (as a string) → {value, rendered_value?}. */
export function profileDataOf(values: readonly ProfileValueRow[]): Record<string, { value: string; rendered_value?: string }> {
  const out: Record<string, { value: string; rendered_value?: string }> = {};
  for (const v of values) {
    out[String(v.field_id)] = v.rendered_value === null ? { value: v.value } : { value: v.value, rendered_value: v.rendered_value };
  }
  return out;
}

/** Loads custom profile values for a set of users, grouped by user. */
export async function loadProfileData(db: Db, realmId: number, userIds?: readonly number[]): Promise<Map<number, ProfileValueRow[]>> {
  const grouped = new Map<number, ProfileValueRow[]>();
  for (const row of await profileValuesOfUsers(db, realmId, userIds)) {
    const list = grouped.get(row.user_id) ?? [];
    list.push(row);
    grouped.set(row.user_id, list);
  }
  return grouped;
}

/** The GET /users/me object (own user: address always visible, avatar always a URL). */
function ownUser(user: UserRow, profile: readonly ProfileValueRow[], maxMessageId: number): Record<string, unknown> {
  const own: Record<string, unknown> = {
    avatar_url: user.avatar_source === "U" ? uploadedAvatarUrl(user) : gravatarUrl(user.delivery_email, user.avatar_version),
    avatar_version: user.avatar_version,
    email: user.email,
    full_name: user.full_name,
    is_admin: user.role <= Role.ADMINISTRATOR,
    is_owner: user.role === Role.OWNER,
    is_billing_admin: user.is_billing_admin === 1,
    role: user.role,
    is_guest: user.role === Role.GUEST,
    is_bot: user.is_bot === 1,
    is_active: user.is_active === 1,
    timezone: user.timezone,
    date_joined: isoTimestamp(user.date_joined),
    max_message_id: maxMessageId,
    user_id: user.id,
    delivery_email: user.delivery_email,
  };
  if (user.is_bot) {
    own.bot_type = user.bot_type;
    own.bot_owner_id = user.bot_owner_id;
  } else {
    own.profile_data = profileDataOf(profile);
  }
  return own;
}

/** No profile values: bots have none, and one shared list keeps their answer remembered. */
export const NO_PROFILE: readonly ProfileValueRow[] = Object.freeze([]);

const ownUserTexts = new WeakMap<UserRow, { profile: readonly ProfileValueRow[]; maxMessageId: number; text: JsonText }>();

/**
 * GET /users/me's answer, serialised once per state: the user cache hands out the same row and
 * profile list until the user changes, so the text is kept for that row until either, or
 * max_message_id, moves on.
 */
export function ownUserText(user: UserRow, profile: readonly ProfileValueRow[], maxMessageId: number): JsonText {
  const kept = ownUserTexts.get(user);
  if (kept && kept.profile === profile && kept.maxMessageId === maxMessageId) return kept.text;
  const text = new JsonText(JSON.stringify(ownUser(user, profile, maxMessageId)));
  ownUserTexts.set(user, { profile, maxMessageId, text });
  return text;
}

/** A user of the caller's realm by id, or `No such user` (Zulip's access_user_by_id). */
export async function accessUserById(
  db: Db,
  caller: UserRow,
  id: number,
  opts: { allowDeactivated: boolean; allowBots: boolean; forAdmin?: boolean },
): Promise<UserRow> {
  const target = await userById(db, id);
  return checkAccess(caller, target, opts);
}

/** A user of the caller's realm by API email, or `No such user`. */
export async function accessUserByEmail(db: Db, caller: UserRow, email: string): Promise<UserRow> {
  const target = await userByApiEmail(db, caller.realm_id, email);
  return checkAccess(caller, target, { allowDeactivated: true, allowBots: true });
}

function checkAccess(
  caller: UserRow,
  target: UserRow | undefined,
  opts: { allowDeactivated: boolean; allowBots: boolean; forAdmin?: boolean },
): UserRow {
  if (!target || target.realm_id !== caller.realm_id) throw noSuchUser();
  // Zulip's cross-realm bots are outside the realm, so no administrator of it can manage them.
  if (target.is_system_bot && opts.forAdmin) throw noSuchUser();
  if (target.is_bot && !opts.allowBots) throw noSuchUser();
  if (!target.is_active && !opts.allowDeactivated) throw userDeactivated();
  if (opts.forAdmin && caller.role > Role.ADMINISTRATOR && !(target.is_bot && target.bot_owner_id === caller.id)) {
    throw insufficientPermission();
  }
  return target;
}

/** Zulip's full-name rules (check_full_name); returns the stripped name. */
export function checkFullName(raw: string): string {
  const name = raw.trim();
  if ([...name].length > 100) throw badRequest("Name too long!");
  if (name.length === 0) throw badRequest("Name must not be empty!");
  // eslint-disable-next-line no-control-regex
  if (/[*`\\>"@\u0000-\u001f\u007f]/.test(name)) throw badRequest("Invalid characters in name!");
  if (/\|\d+$/.test(raw)) throw badRequest("Invalid format!");
  return name;
}

/**
 * Under require_unique_names, no other user of the realm (deactivated ones and bots included) may
 * have the name, compared as Zulip does: NFKC-normalised and case-folded.
 */
export async function checkFullNameAvailable(db: Db, realm: RealmRow | undefined, name: string, exceptUserId: number | null): Promise<void> {
  if (!realm || !realmSetting(realm, "require_unique_names")) return;
  const key = foldName(name);
  const taken = (await usersOfRealm(db, realm.id)).some((u) => u.id !== exceptUserId && foldName(u.full_name) === key);
  if (taken) throw badRequest("Unique names required in this organization.");
}

/** Python's NFKC normalisation then casefold(), closely enough (upper-casing first folds ß to ss). */
function foldName(name: string): string {
  return name.normalize("NFKC").toUpperCase().toLowerCase();
}
