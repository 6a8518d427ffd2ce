import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import { realmById } from "../db/queries/realms.js";
import {
  deleteGroup,
  deleteMembers,
  directMemberIds,
  groupById,
  groupsMentionableBy,
  insertGroup,
  insertMembers,
  insertSubgroups,
  namedGroupByName,
  namedGroupsByIds,
  realmUsersByIds,
  replaceContents,
  updateGroup,
  type UserGroupRow,
} from "../db/queries/user-groups.js";
import type { UserRow } from "../db/queries/users.js";
import type { Outbox, Recipients } from "../events/outbox.js";
import type { GroupSettingValue } from "../events/types.js";
import { ApiError, badRequest, invalidUserGroup } from "../base/errors.js";
import { Role } from "../lib/users/roles.js";
import {
  accessUserGroupForUpdate,
  apiUserGroup,
  canonicalSettingValue,
  checkUserGroupName,
  isProvisionalMember,
  requireUserGroupEditPermission,
  ROLE_GROUP,
  sameSettingValue,
  settingValueForApi,
  SYSTEM_GROUP_DEFINITIONS,
  systemGroupId,
  usersByIds,
} from "../lib/groups/user-groups.js";
import { SystemGroups } from "../lib/groups/system-groups.js";

/** A can_mention_group change: the new value, and the value the client believes is current. */
export interface SettingChange {
  new: GroupSettingValue;
  old?: GroupSettingValue;
}

/** Creates a realm's system groups with their subgroup chain (owners ⊂ administrators ⊂ … ⊂ internet). No events: the realm is new. */
export async function createSystemGroups(tx: Db, realmId: number, now: number): Promise<void> {
  const ids: number[] = [];
  for (const def of SYSTEM_GROUP_DEFINITIONS) {
    ids.push(await insertGroup(tx, { realm_id: realmId, name: def.name, description: def.description, is_system_group: 1, can_mention_group_id: null, date_created: now }));
  }
  const [nobody, ...chain] = ids;
  for (const id of ids) await updateGroup(tx, id, { can_mention_group_id: nobody ?? null });
  for (let i = 1; i < chain.length; i++) await insertSubgroups(tx, chain[i] ?? 0, [chain[i - 1] ?? 0]);
}

/** Puts a new user in their role's system group (and role:fullmembers for full members); add_members to all active users. */
export async function addNewUserToSystemGroups(ctx: AppContext, tx: Db, outbox: Outbox, user: UserRow): Promise<void> {
  const groupIds = [await systemGroupId(tx, user.realm_id, roleGroupName(user.role))];
  if (await isFullMember(ctx, tx, user, user.role)) groupIds.push(await systemGroupId(tx, user.realm_id, SystemGroups.FULL_MEMBERS));
  for (const groupId of groupIds) {
    await insertMembers(tx, groupId, [user.id]);
    outbox.sendToRealm({ type: "user_group", op: "add_members", group_id: groupId, user_ids: [user.id] }, user.realm_id);
  }
}

/**
 * Moves a user between system groups when their role changes (Zulip's do_change_user_role):
 * remove_members from the old role's group, add_members to the new one, then role:fullmembers
 * follows when either role is member. Events go to all active users.
 */
export async function moveUserToRoleGroups(ctx: AppContext, tx: Db, outbox: Outbox, user: UserRow, newRole: number): Promise<void> {
  const recipients: Recipients = { realmId: user.realm_id, except: [] };
  const oldGroup = await systemGroupId(tx, user.realm_id, roleGroupName(user.role));
  const newGroup = await systemGroupId(tx, user.realm_id, roleGroupName(newRole));
  await deleteMembers(tx, oldGroup, [user.id]);
  await insertMembers(tx, newGroup, [user.id]);
  outbox.sendTo({ type: "user_group", op: "remove_members", group_id: oldGroup, user_ids: [user.id] }, recipients);
  outbox.sendTo({ type: "user_group", op: "add_members", group_id: newGroup, user_ids: [user.id] }, recipients);
  if (user.role !== Role.MEMBER && newRole !== Role.MEMBER) return;
  const fullMembers = await systemGroupId(tx, user.realm_id, SystemGroups.FULL_MEMBERS);
  const isMember = (await directMemberIds(tx, fullMembers)).includes(user.id);
  const shouldBe = await isFullMember(ctx, tx, user, newRole);
  if (isMember && !shouldBe) {
    await deleteMembers(tx, fullMembers, [user.id]);
    outbox.sendTo({ type: "user_group", op: "remove_members", group_id: fullMembers, user_ids: [user.id] }, recipients);
  } else if (!isMember && shouldBe) {
    await insertMembers(tx, fullMembers, [user.id]);
    outbox.sendTo({ type: "user_group", op: "add_members", group_id: fullMembers, user_ids: [user.id] }, recipients);
  }
}

/**
 * Re-sorts role:fullmembers after the realm's waiting period changed (Zulip's
 * update_users_in_full_members_system_group): members still within the new period leave it,
 * members past it join. remove_members then add_members, to all active users.
 */
export async function updateFullMembersGroup(ctx: AppContext, tx: Db, outbox: Outbox, realmId: number, waitingPeriodDays: number): Promise<void> {
  const fullMembers = await systemGroupId(tx, realmId, SystemGroups.FULL_MEMBERS);
  const members = await systemGroupId(tx, realmId, SystemGroups.MEMBERS);
  const fullIds = await directMemberIds(tx, fullMembers);
  const memberIds = await directMemberIds(tx, members);
  const users = await realmUsersByIds(tx, realmId, [...new Set([...fullIds, ...memberIds])]);
  const now = ctx.clock.now();
  const provisional = (u: UserRow) => Math.floor((now - u.date_joined) / 86_400_000) < waitingPeriodDays;
  const leaving = users.filter((u) => fullIds.includes(u.id) && (provisional(u) || u.role !== Role.MEMBER)).map((u) => u.id);
  const joining = users.filter((u) => memberIds.includes(u.id) && !fullIds.includes(u.id) && !provisional(u)).map((u) => u.id);
  const recipients: Recipients = { realmId: realmId, except: [] };
  if (leaving.length > 0) {
    await deleteMembers(tx, fullMembers, leaving);
    outbox.sendTo({ type: "user_group", op: "remove_members", group_id: fullMembers, user_ids: leaving.sort((a, b) => a - b) }, recipients);
  }
  if (joining.length > 0) {
    await insertMembers(tx, fullMembers, joining);
    outbox.sendTo({ type: "user_group", op: "add_members", group_id: fullMembers, user_ids: joining.sort((a, b) => a - b) }, recipients);
  }
}

/** POST /user_groups/create: checks in Zulip's order, creates, and sends user_group add to all active users. */
export async function checkCreateUserGroup(
  ctx: AppContext,
  actor: UserRow,
  input: { name: string; description: string; members: number[]; canMentionGroup: GroupSettingValue | undefined },
): Promise<void> {
  await requireEditPermission(ctx, actor);
  await nameRace(input.name, write(ctx, async (tx, outbox) => {
    const members = await usersByIds(tx, actor.realm_id, input.members, { allowDeactivated: false });
    const name = checkUserGroupName(input.name);
    const value = input.canMentionGroup === undefined ? undefined : canonicalSettingValue(input.canMentionGroup);
    const mentionId = value === undefined ? await systemGroupId(tx, actor.realm_id, SystemGroups.EVERYONE) : await resolveSetting(tx, actor.realm_id, value, null);
    if (await namedGroupByName(tx, actor.realm_id, name)) throw badRequest(`User group '${name}' already exists.`);
    const id = await insertGroup(tx, {
      realm_id: actor.realm_id,
      name,
      description: input.description,
      is_system_group: 0,
      can_mention_group_id: mentionId,
      date_created: ctx.clock.now(),
    });
    await insertMembers(tx, id, [...new Set(members.map((u) => u.id))]);
    const group = await groupById(tx, id);
    if (!group) throw new Error("created group vanished");
    outbox.sendToRealm({ type: "user_group", op: "add", group: await apiUserGroup(tx, group) }, actor.realm_id);
  }));
}

/** PATCH /user_groups/{id}: one user_group update event per changed property, to all active users. */
export async function checkEditUserGroup(
  ctx: AppContext,
  actor: UserRow,
  groupId: number,
  input: { name?: string; description?: string; canMentionGroup?: SettingChange },
): Promise<void> {
  await requireEditPermission(ctx, actor);
  if (input.name === undefined && input.description === undefined && input.canMentionGroup === undefined) throw badRequest("No new data supplied");
  await nameRace(input.name ?? "", write(ctx, async (tx, outbox) => {
    const group = await accessUserGroupForUpdate(tx, actor, groupId);
    const recipients: Recipients = { realmId: actor.realm_id, except: [] };
    if (input.name !== undefined && input.name !== group.name) {
      const name = checkUserGroupName(input.name);
      if (await namedGroupByName(tx, actor.realm_id, name)) throw badRequest(`User group '${name}' already exists.`);
      await updateGroup(tx, group.id, { name });
      outbox.sendTo({ type: "user_group", op: "update", group_id: group.id, data: { name } }, recipients);
    }
    if (input.description !== undefined && input.description !== group.description) {
      await updateGroup(tx, group.id, { description: input.description });
      outbox.sendTo({ type: "user_group", op: "update", group_id: group.id, data: { description: input.description } }, recipients);
    }
    if (input.canMentionGroup !== undefined) await changeMentionSetting(tx, outbox, group, input.canMentionGroup, recipients);
  }));
}

/** DELETE /user_groups/{id}: user_group remove to all active users. */
export async function checkDeleteUserGroup(ctx: AppContext, actor: UserRow, groupId: number): Promise<void> {
  await requireEditPermission(ctx, actor);
  await write(ctx, async (tx, outbox) => {
    const group = await accessUserGroupForUpdate(tx, actor, groupId);
    // Zulip restricts deleting a group another group's setting points at (its database refuses); we say so.
    if ((await groupsMentionableBy(tx, group.id)).some((g) => g.id !== group.id)) {
      throw badRequest("Cannot delete a user group that is used by a permission setting.");
    }
    const own = group.can_mention_group_id === null ? undefined : await groupById(tx, group.can_mention_group_id);
    await deleteGroup(tx, group.id);
    if (own && own.name === null) await deleteGroup(tx, own.id);
    outbox.sendToRealm({ type: "user_group", op: "remove", group_id: group.id }, actor.realm_id);
  });
}

/** Zulip's require_user_group_edit_permission, which needs the realm's policy. */
export async function requireEditPermission(ctx: AppContext, actor: UserRow): Promise<void> {
  const realm = await ctx.realms.get(actor.realm_id);
  if (!realm) throw invalidUserGroup();
  requireUserGroupEditPermission(actor, realm, ctx.clock.now());
}

async function changeMentionSetting(tx: Db, outbox: Outbox, group: UserGroupRow, change: SettingChange, recipients: Recipients): Promise<void> {
  const currentId = group.can_mention_group_id ?? 0;
  const current = await groupById(tx, currentId);
  const currentIsNamed = current !== undefined && current.name !== null;
  const currentValue = await settingValueForApi(tx, currentId, currentIsNamed);
  const next = canonicalSettingValue(change.new);
  if (change.old !== undefined && !sameSettingValue(canonicalSettingValue(change.old), currentValue)) {
    throw new ApiError("'old' value does not match the expected value.", "EXPECTATION_MISMATCH");
  }
  if (sameSettingValue(currentValue, next)) return;
  const newId = await resolveSetting(tx, group.realm_id, next, currentIsNamed ? null : currentId);
  if (newId !== currentId) {
    await updateGroup(tx, group.id, { can_mention_group_id: newId });
    if (!currentIsNamed && current) await deleteGroup(tx, current.id);
  }
  const apiValue = await settingValueForApi(tx, newId, typeof next === "number");
  outbox.sendTo({ type: "user_group", op: "update", group_id: group.id, data: { can_mention_group: apiValue } }, recipients);
}

/**
 * Validates a can_mention_group value and returns the group that holds it: a named group, or an
 * anonymous one (updated in place when the setting already had one, as Zulip does).
 */
async function resolveSetting(tx: Db, realmId: number, value: GroupSettingValue, anonymousId: number | null): Promise<number> {
  if (typeof value === "number") {
    const [group] = await namedGroupsByIds(tx, realmId, [value]);
    if (!group) throw invalidUserGroup();
    for (const refused of [SystemGroups.EVERYONE_ON_INTERNET, SystemGroups.OWNERS]) {
      if (group.is_system_group && group.name === refused) throw badRequest(`'can_mention_group' setting cannot be set to '${refused}' group.`);
    }
    return group.id;
  }
  const members = await usersByIds(tx, realmId, value.direct_members, { allowDeactivated: false });
  const found = new Set((await namedGroupsByIds(tx, realmId, value.direct_subgroups)).map((g) => g.id));
  const missing = value.direct_subgroups.find((id) => !found.has(id));
  if (missing !== undefined) throw badRequest(`Invalid user group ID: ${missing}`);
  const id = anonymousId ?? (await insertGroup(tx, { realm_id: realmId, name: null, description: "", is_system_group: 0, can_mention_group_id: null, date_created: 0 }));
  await replaceContents(tx, id, [...new Set(members.map((u) => u.id))].sort((a, b) => a - b), [...found].sort((a, b) => a - b));
  return id;
}

/** Whether a user of `role` belongs in role:fullmembers directly (members past the waiting period). */
async function isFullMember(ctx: AppContext, tx: Db, user: UserRow, role: number): Promise<boolean> {
  if (role !== Role.MEMBER) return false;
  const realm = await realmById(tx, user.realm_id);
  return realm !== undefined && !isProvisionalMember({ role, date_joined: user.date_joined }, realm, ctx.clock.now());
}

/**
 * Two transactions creating the same name concurrently both pass the check on PostgreSQL; the
 * unique index stops the second, which gets the same answer as a sequential duplicate.
 */
async function nameRace(name: string, work: Promise<void>): Promise<void> {
  try {
    await work;
  } catch (error) {
    const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
    if (code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE") throw badRequest(`User group '${name}' already exists.`);
    throw error;
  }
}

function roleGroupName(role: number): string {
  const name = ROLE_GROUP[role];
  if (!name) throw new Error(`no system group for role ${role}`);
  return name;
}
