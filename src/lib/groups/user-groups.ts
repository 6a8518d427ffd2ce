import type { Db } from "../../db/index.js";
import type { RealmRow } from "../../db/queries/realms.js";
import {
  directMemberIds,
  directSubgroupIds,
  namedGroupById,
  namedGroupByName,
  realmUsersByIds,
  type UserGroupRow,
} from "../../db/queries/user-groups.js";
import type { UserRow } from "../../db/queries/users.js";
import type { ApiUserGroup, GroupSettingValue } from "../../events/types.js";
import type { RealmGroups } from "../../caches/groups.js";
import { badRequest, insufficientPermission, invalidUserGroup } from "../../base/errors.js";
import { realmSetting } from "../realm/props.js";
import { Role } from "../users/roles.js";
import { SystemGroups } from "./system-groups.js";

/** System groups in creation order; each after role:nobody has the previous one as its subgroup. */
export const SYSTEM_GROUP_DEFINITIONS: readonly { name: string; description: string }[] = [
  { name: SystemGroups.NOBODY, description: "Nobody" },
  { name: SystemGroups.OWNERS, description: "Owners of this organization" },
  { name: SystemGroups.ADMINISTRATORS, description: "Administrators of this organization, including owners" },
  { name: SystemGroups.MODERATORS, description: "Moderators of this organization, including administrators" },
  { name: SystemGroups.FULL_MEMBERS, description: "Members of this organization, not including new accounts and guests" },
  { name: SystemGroups.MEMBERS, description: "Members of this organization, not including guests" },
  { name: SystemGroups.EVERYONE, description: "Everyone in this organization, including guests" },
  { name: SystemGroups.EVERYONE_ON_INTERNET, description: "Everyone on the Internet" },
];

/** The system group a user of each role is a direct member of. */
export const ROLE_GROUP: Readonly<Record<number, string>> = {
  [Role.OWNER]: SystemGroups.OWNERS,
  [Role.ADMINISTRATOR]: SystemGroups.ADMINISTRATORS,
  [Role.MODERATOR]: SystemGroups.MODERATORS,
  [Role.MEMBER]: SystemGroups.MEMBERS,
  [Role.GUEST]: SystemGroups.EVERYONE,
};

/** Zulip's NamedUserGroup.MAX_NAME_LENGTH and reserved prefixes. */
const MAX_GROUP_NAME_LENGTH = 100;
const INVALID_NAME_PREFIXES = ["@", "role:", "user:", "stream:", "channel:"];

/** Role-policy values of realm settings such as user_group_edit_policy (Zulip's CommonPolicyEnum). */
export const Policy = { MEMBERS: 1, ADMINS: 2, FULL_MEMBERS: 3, MODERATORS: 4, EVERYONE: 5, NOBODY: 6, OWNERS: 7 } as const;

/** A member who joined less than waiting_period_threshold days ago (Zulip's is_provisional_member). */
export function isProvisionalMember(user: Pick<UserRow, "role" | "date_joined">, realm: RealmRow, now: number): boolean {
  if (user.role <= Role.MODERATOR) return false;
  const days = Math.floor((now - user.date_joined) / 86_400_000);
  return days < realmSetting(realm, "waiting_period_threshold");
}

/** Whether a user passes a role-policy setting (Zulip's UserProfile.has_permission). */
export function hasRolePolicy(user: UserRow, policy: number, realm: RealmRow, now: number): boolean {
  if (policy === Policy.NOBODY) return false;
  if (policy === Policy.EVERYONE) return true;
  if (user.role === Role.OWNER) return true;
  if (policy === Policy.OWNERS) return false;
  if (user.role <= Role.ADMINISTRATOR) return true;
  if (policy === Policy.ADMINS) return false;
  if (user.role <= Role.MODERATOR) return true;
  if (policy === Policy.MODERATORS) return false;
  if (user.role === Role.GUEST) return false;
  if (policy === Policy.MEMBERS) return true;
  return !isProvisionalMember(user, realm, now);
}

/** Zulip's require_member_or_admin: guests and bots are refused. */
export function requireMemberOrAdmin(user: UserRow): void {
  if (user.role === Role.GUEST) throw badRequest("Not allowed for guest users");
  if (user.is_bot) throw badRequest("This endpoint does not accept bot requests.");
}

/** Zulip's require_user_group_edit_permission (level 275: realm user_group_edit_policy). */
export function requireUserGroupEditPermission(user: UserRow, realm: RealmRow, now: number): void {
  requireMemberOrAdmin(user);
  if (!hasRolePolicy(user, realmSetting(realm, "user_group_edit_policy"), realm, now)) throw insufficientPermission();
}

/** Zulip's check_user_group_name; returns the name unchanged. */
export function checkUserGroupName(name: string): string {
  if (name.trim() === "") throw badRequest("User group name can't be empty!");
  if ([...name].length > MAX_GROUP_NAME_LENGTH) throw badRequest(`User group name cannot exceed ${MAX_GROUP_NAME_LENGTH} characters.`);
  for (const prefix of INVALID_NAME_PREFIXES) {
    if (name.startsWith(prefix)) throw badRequest(`User group name cannot start with '${prefix}'.`);
  }
  return name;
}

/** A named group of the caller's realm, for reading: `Invalid user group` otherwise. */
export async function accessUserGroupForRead(db: Db, user: UserRow, id: number): Promise<UserGroupRow> {
  const group = await namedGroupById(db, user.realm_id, id);
  if (!group) throw invalidUserGroup();
  return group;
}

/**
 * A named group the caller may modify (Zulip 9's has_user_group_access): never a system group;
 * administrators and moderators any other group; everyone else only groups they directly belong to.
 */
export async function accessUserGroupForUpdate(db: Db, user: UserRow, id: number): Promise<UserGroupRow> {
  const group = await accessUserGroupForRead(db, user, id);
  if (group.is_system_group) throw insufficientPermission();
  if (user.role <= Role.MODERATOR) return group;
  if (!(await directMemberIds(db, group.id)).includes(user.id)) throw insufficientPermission();
  return group;
}

/**
 * Users of a realm by id, in the order asked (Zulip's user_ids_to_users): an id that is not a user
 * of the realm, or a deactivated one unless allowed, is `Invalid user ID: <id>`.
 */
export async function usersByIds(db: Db, realmId: number, ids: readonly number[], opts: { allowDeactivated: boolean }): Promise<UserRow[]> {
  const rows = await realmUsersByIds(db, realmId, ids);
  const byId = new Map(rows.filter((u) => opts.allowDeactivated || u.is_active).map((u) => [u.id, u]));
  return ids.map((id) => {
    const user = byId.get(id);
    if (!user) throw badRequest(`Invalid user ID: ${id}`);
    return user;
  });
}

/** The id of a realm's system group by name. */
export async function systemGroupId(db: Db, realmId: number, name: string): Promise<number> {
  const group = await namedGroupByName(db, realmId, name);
  if (!group?.is_system_group) throw new Error(`realm ${realmId} has no system group ${name}`);
  return group.id;
}

/**
 * Zulip's check_user_group_mention_allowed: a (non-silent) mention of a group needs the sender in
 * the group's can_mention_group, unless that is role:everyone. Call it when sending a message with
 * the mentioned group ids the renderer found.
 */
export function checkUserGroupMentionAllowed(groups: RealmGroups, sender: UserRow, groupIds: Iterable<number>): void {
  for (const id of groupIds) {
    const group = groups.get(id);
    // 0 stands for a group whose setting column is still null (only while system groups are created).
    if (!group || group.can_mention_group === 0) continue;
    const setting = group.can_mention_group;
    const named = typeof setting === "number" ? groups.get(setting) : undefined;
    if (named?.is_system_group && named.name === SystemGroups.EVERYONE) continue;
    if (!groups.settingIncludes(setting, sender.id)) throw badRequest(`You are not allowed to mention user group '${group.name}'.`);
  }
}

/** A group-setting value as the API shows it: the id of a named group, else the anonymous group's contents. */
export async function settingValueForApi(db: Db, groupId: number, named: boolean): Promise<GroupSettingValue> {
  if (named) return groupId;
  return { direct_members: await directMemberIds(db, groupId), direct_subgroups: await directSubgroupIds(db, groupId) };
}

/** Zulip's parse_group_setting_value: an object of one subgroup and no members is that group's id. */
export function canonicalSettingValue(value: GroupSettingValue): GroupSettingValue {
  if (typeof value === "number") return value;
  if (value.direct_members.length === 0 && value.direct_subgroups.length === 1) return value.direct_subgroups[0] ?? value;
  return value;
}

/** Whether two group-setting values are the same (Zulip's are_both_group_setting_values_equal). */
export function sameSettingValue(a: GroupSettingValue, b: GroupSettingValue): boolean {
  if (typeof a === "number" || typeof b === "number") return a === b;
  const same = (x: number[], y: number[]) => new Set(x).size === new Set(y).size && x.every((v) => y.includes(v));
  return same(a.direct_members, b.direct_members) && same(a.direct_subgroups, b.direct_subgroups);
}

/** One named group as the API shows it. */
export async function apiUserGroup(db: Db, group: UserGroupRow): Promise<ApiUserGroup> {
  const mention = group.can_mention_group_id ?? 0;
  const mentionGroup = mention === group.id ? group : await namedGroupById(db, group.realm_id, mention);
  return {
    id: group.id,
    name: group.name ?? "",
    description: group.description,
    members: await directMemberIds(db, group.id),
    direct_subgroup_ids: await directSubgroupIds(db, group.id),
    is_system_group: group.is_system_group === 1,
    can_mention_group: await settingValueForApi(db, mention, mentionGroup !== undefined),
  };
}

