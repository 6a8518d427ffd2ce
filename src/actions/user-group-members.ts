import type { Recipients } from "../events/outbox.js";
import { write, type AppContext } from "../context.js";
import {
  deleteMembers,
  deleteSubgroups,
  directMemberIds,
  directSubgroupIds,
  insertMembers,
  insertSubgroups,
  namedGroupsByIds,
  recursiveSubgroupIds,
} from "../db/queries/user-groups.js";
import type { UserRow } from "../db/queries/users.js";
import { badRequest } from "../base/errors.js";
import { accessUserGroupForUpdate, usersByIds } from "../lib/groups/user-groups.js";
import { requireEditPermission } from "./user-groups.js";

const NOTHING_TO_DO = 'Nothing to do. Specify at least one of "add" or "delete".';

/**
 * POST /user_groups/{id}/members: adds then removes direct members in one transaction, with
 * Zulip's checks in its order. add_members / remove_members go to all active users.
 */
export async function checkUpdateGroupMembers(ctx: AppContext, actor: UserRow, groupId: number, add: number[], remove: number[]): Promise<void> {
  await requireEditPermission(ctx, actor);
  if (add.length === 0 && remove.length === 0) throw badRequest(NOTHING_TO_DO);
  await write(ctx, async (tx, outbox) => {
    const recipients: Recipients = { realmId: actor.realm_id, except: [] };
    if (add.length > 0) {
      const group = await accessUserGroupForUpdate(tx, actor, groupId);
      const users = await usersByIds(tx, actor.realm_id, add, { allowDeactivated: false });
      const existing = new Set(await directMemberIds(tx, group.id));
      const already = users.find((u) => existing.has(u.id));
      if (already) throw badRequest(`User ${already.id} is already a member of this group`);
      const ids = sortedUnique(users.map((u) => u.id));
      await insertMembers(tx, group.id, ids);
      outbox.sendTo({ type: "user_group", op: "add_members", group_id: group.id, user_ids: ids }, recipients);
    }
    if (remove.length > 0) {
      const users = await usersByIds(tx, actor.realm_id, remove, { allowDeactivated: true });
      const group = await accessUserGroupForUpdate(tx, actor, groupId);
      const existing = new Set(await directMemberIds(tx, group.id));
      const missing = remove.find((id) => !existing.has(id));
      if (missing !== undefined) throw badRequest(`There is no member '${missing}' in this user group`);
      const ids = sortedUnique(users.map((u) => u.id));
      await deleteMembers(tx, group.id, ids);
      outbox.sendTo({ type: "user_group", op: "remove_members", group_id: group.id, user_ids: ids }, recipients);
    }
  });
}

/**
 * POST /user_groups/{id}/subgroups: adds then removes direct subgroups in one transaction, refusing
 * cycles. add_subgroups / remove_subgroups go to all active users.
 */
export async function checkUpdateSubgroups(ctx: AppContext, actor: UserRow, groupId: number, add: number[], remove: number[]): Promise<void> {
  await requireEditPermission(ctx, actor);
  if (add.length === 0 && remove.length === 0) throw badRequest(NOTHING_TO_DO);
  await write(ctx, async (tx, outbox) => {
    const recipients: Recipients = { realmId: actor.realm_id, except: [] };
    if (add.length > 0) {
      const group = await accessUserGroupForUpdate(tx, actor, groupId);
      const ids = await existingSubgroups(tx, actor.realm_id, add);
      const current = new Set(await directSubgroupIds(tx, group.id));
      const already = ids.find((id) => current.has(id));
      if (already !== undefined) throw badRequest(`User group ${already} is already a subgroup of this group.`);
      if ((await recursiveSubgroupIds(tx, ids)).includes(group.id)) {
        throw badRequest(`User group ${group.id} is already a subgroup of one of the passed subgroups.`);
      }
      await insertSubgroups(tx, group.id, ids);
      outbox.sendTo({ type: "user_group", op: "add_subgroups", group_id: group.id, direct_subgroup_ids: ids }, recipients);
    }
    if (remove.length > 0) {
      const group = await accessUserGroupForUpdate(tx, actor, groupId);
      const ids = await existingSubgroups(tx, actor.realm_id, remove);
      const current = new Set(await directSubgroupIds(tx, group.id));
      const missing = ids.find((id) => !current.has(id));
      if (missing !== undefined) throw badRequest(`User group ${missing} is not a subgroup of this group.`);
      await deleteSubgroups(tx, group.id, ids);
      outbox.sendTo({ type: "user_group", op: "remove_subgroups", group_id: group.id, direct_subgroup_ids: ids }, recipients);
    }
  });
}

async function existingSubgroups(tx: Parameters<typeof namedGroupsByIds>[0], realmId: number, ids: number[]): Promise<number[]> {
  const found = new Set((await namedGroupsByIds(tx, realmId, ids)).map((g) => g.id));
  const missing = ids.find((id) => !found.has(id));
  if (missing !== undefined) throw badRequest(`Invalid user group ID: ${missing}`);
  return sortedUnique(ids);
}

function sortedUnique(ids: number[]): number[] {
  return [...new Set(ids)].sort((a, b) => a - b);
}
