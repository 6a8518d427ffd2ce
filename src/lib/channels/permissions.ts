import type { Db } from "../../db/index.js";
import type { RealmRow } from "../../db/queries/realms.js";
import type { UserRow } from "../../db/queries/users.js";
import type { RealmGroups } from "../../caches/groups.js";
import { isInRealmGroupSetting } from "../groups/realm-groups.js";
import { realmProp } from "../realm/props.js";
import { Role } from "../users/roles.js";

/** Realm role-policy values (Zulip's CommonPolicyEnum plus the web-public ones). */
export const Policy = { MEMBERS: 1, ADMINS: 2, FULL_MEMBERS: 3, MODERATORS: 4, EVERYONE: 5, NOBODY: 6, OWNERS: 7 } as const;

function numberProp(realm: RealmRow, key: string, fallback: number): number {
  const value = realmProp(realm, key);
  return typeof value === "number" ? value : fallback;
}

function allows(user: Pick<UserRow, "role">, policy: number): boolean {
  return roleAllows(user.role, policy);
}

/** Whether a role passes a realm role policy (members and full members alike; guests only "everyone"). */
export function roleAllows(role: number, policy: number): boolean {
  if (policy === Policy.EVERYONE) return true;
  if (role === Role.GUEST) return false;
  switch (policy) {
    case Policy.MEMBERS:
    case Policy.FULL_MEMBERS:
      return role <= Role.MEMBER;
    case Policy.MODERATORS:
      return role <= Role.MODERATOR;
    case Policy.ADMINS:
      return role <= Role.ADMINISTRATOR;
    case Policy.OWNERS:
      return role === Role.OWNER;
    default:
      return false;
  }
}

/** Membership of can_create_private_channel_group or can_create_public_channel_group (default: role:members). */
export function canCreateStreams(groups: RealmGroups, realm: RealmRow, user: Pick<UserRow, "id">, inviteOnly: boolean): boolean {
  return isInRealmGroupSetting(groups, realm, inviteOnly ? "can_create_private_channel_group" : "can_create_public_channel_group", user.id);
}

/** create_web_public_stream_policy (default: owners). */
export function canCreateWebPublicStreams(realm: RealmRow, user: Pick<UserRow, "role">): boolean {
  return allows(user, numberProp(realm, "create_web_public_stream_policy", Policy.OWNERS));
}

/** Web-public channels exist only where spectator access is enabled (off by default). */
export function webPublicStreamsEnabled(realm: RealmRow): boolean {
  return realmProp(realm, "enable_spectator_access") === true;
}

/**
 * Whether `user` belongs to the group stored in a channel's can_remove_subscribers_group. Role
 * system groups are computed from the role; other groups from their direct members; a channel
 * created before the realm had groups (0) falls back to administrators.
 */
export async function inStreamGroup(db: Db, groupId: number, user: Pick<UserRow, "id" | "role">): Promise<boolean> {
  const group = groupId === 0 ? undefined : await db.selectFrom("user_group").select(["name", "is_system_group"]).where("id", "=", groupId).executeTakeFirst();
  if (!group) return user.role <= Role.ADMINISTRATOR;
  const byRole = group.is_system_group && group.name !== null ? ROLE_GROUP_LIMITS[group.name] : undefined;
  if (byRole !== undefined) return user.role <= byRole;
  const member = await db.selectFrom("user_group_member").select("user_id").where("group_id", "=", groupId).where("user_id", "=", user.id).executeTakeFirst();
  return member !== undefined;
}

/** Role system groups: a user belongs when their role value is at most the limit. */
export const ROLE_GROUP_LIMITS: Readonly<Record<string, number>> = {
  "role:owners": Role.OWNER,
  "role:administrators": Role.ADMINISTRATOR,
  "role:moderators": Role.MODERATOR,
  "role:fullmembers": Role.MEMBER,
  "role:members": Role.MEMBER,
  "role:everyone": Role.GUEST,
  "role:internet": Role.GUEST,
  "role:nobody": 0,
};

/** invite_to_stream_policy (default: members): who may subscribe other users. */
export function canSubscribeOthers(realm: RealmRow, user: Pick<UserRow, "role">): boolean {
  return allows(user, numberProp(realm, "invite_to_stream_policy", Policy.MEMBERS));
}
