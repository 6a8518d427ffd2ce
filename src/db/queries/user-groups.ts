import type { Insertable, Selectable, Updateable } from "kysely";
import type { Db } from "../index.js";
import type { UserGroupTable, UserTable } from "../schema.js";
import { insertInChunks, runInChunks, selectInChunks } from "../chunks.js";

/** A user group row as stored (named or anonymous). */
export type UserGroupRow = Selectable<UserGroupTable>;

/** A named group of a realm by id; anonymous groups and other realms' groups are not found. */
export function namedGroupById(db: Db, realmId: number, id: number): Promise<UserGroupRow | undefined> {
  return db
    .selectFrom("user_group")
    .selectAll()
    .where("id", "=", id)
    .where("realm_id", "=", realmId)
    .where("name", "is not", null)
    .executeTakeFirst();
}

/** Any group (named or anonymous) by id. */
export function groupById(db: Db, id: number): Promise<UserGroupRow | undefined> {
  return db.selectFrom("user_group").selectAll().where("id", "=", id).executeTakeFirst();
}

/** A named group of a realm by exact name. */
export function namedGroupByName(db: Db, realmId: number, name: string): Promise<UserGroupRow | undefined> {
  return db.selectFrom("user_group").selectAll().where("realm_id", "=", realmId).where("name", "=", name).executeTakeFirst();
}

/** Every group of a realm (named and anonymous), by id. */
export function groupsOfRealm(db: Db, realmId: number): Promise<UserGroupRow[]> {
  return db.selectFrom("user_group").selectAll().where("realm_id", "=", realmId).orderBy("id").execute();
}

/** Named groups of a realm among `ids`. */
export function namedGroupsByIds(db: Db, realmId: number, ids: readonly number[]): Promise<UserGroupRow[]> {
  return selectInChunks(ids, (slice) =>
    db.selectFrom("user_group").selectAll().where("realm_id", "=", realmId).where("id", "in", slice).where("name", "is not", null).execute(),
  );
}

/** Inserts a group and returns its id. */
export async function insertGroup(db: Db, row: Insertable<UserGroupTable>): Promise<number> {
  const { id } = await db.insertInto("user_group").values(row).returning("id").executeTakeFirstOrThrow();
  return id;
}

/** Updates columns of one group. */
export async function updateGroup(db: Db, id: number, changes: Updateable<UserGroupTable>): Promise<void> {
  await db.updateTable("user_group").set(changes).where("id", "=", id).execute();
}

/** Deletes one group; its membership and subgroup rows go with it. */
export async function deleteGroup(db: Db, id: number): Promise<void> {
  await db.deleteFrom("user_group_member").where("group_id", "=", id).execute();
  await db.deleteFrom("user_group_subgroup").where((eb) => eb.or([eb("supergroup_id", "=", id), eb("subgroup_id", "=", id)])).execute();
  await db.deleteFrom("user_group").where("id", "=", id).execute();
}

/** Groups whose can_mention_group is `groupId`, other than `groupId` itself. */
export function groupsMentionableBy(db: Db, groupId: number): Promise<UserGroupRow[]> {
  return db.selectFrom("user_group").selectAll().where("can_mention_group_id", "=", groupId).where("id", "!=", groupId).execute();
}

/** Direct member ids of a group, ascending. */
export async function directMemberIds(db: Db, groupId: number): Promise<number[]> {
  const rows = await db.selectFrom("user_group_member").select("user_id").where("group_id", "=", groupId).orderBy("user_id").execute();
  return rows.map((r) => r.user_id);
}

/** Direct subgroup ids of a group, ascending. */
export async function directSubgroupIds(db: Db, groupId: number): Promise<number[]> {
  const rows = await db.selectFrom("user_group_subgroup").select("subgroup_id").where("supergroup_id", "=", groupId).orderBy("subgroup_id").execute();
  return rows.map((r) => r.subgroup_id);
}

/** Every membership row of a realm's groups: [group id, user id], by group then user (the primary key's order). */
export async function membershipsOfRealm(db: Db, realmId: number): Promise<[number, number][]> {
  const rows = await db
    .selectFrom("user_group_member")
    .select(["group_id", "user_id"])
    .where("group_id", "in", (eb) => eb.selectFrom("user_group").select("id").where("realm_id", "=", realmId))
    .orderBy("group_id")
    .orderBy("user_id")
    .execute();
  return rows.map((r) => [r.group_id, r.user_id]);
}

/** Every subgroup row of a realm's groups: [supergroup id, subgroup id], in the primary key's order. */
export async function subgroupLinksOfRealm(db: Db, realmId: number): Promise<[number, number][]> {
  const rows = await db
    .selectFrom("user_group_subgroup")
    .select(["supergroup_id", "subgroup_id"])
    .where("supergroup_id", "in", (eb) => eb.selectFrom("user_group").select("id").where("realm_id", "=", realmId))
    .orderBy("supergroup_id")
    .orderBy("subgroup_id")
    .execute();
  return rows.map((r) => [r.supergroup_id, r.subgroup_id]);
}

/** Ids of the groups `userId` is a direct member of. */
export async function directGroupIdsOfUser(db: Db, userId: number): Promise<number[]> {
  const rows = await db.selectFrom("user_group_member").select("group_id").where("user_id", "=", userId).execute();
  return rows.map((r) => r.group_id);
}

/** Adds direct members (the caller has checked they are not members yet). */
export async function insertMembers(db: Db, groupId: number, userIds: readonly number[]): Promise<void> {
  const rows = userIds.map((user_id) => ({ group_id: groupId, user_id }));
  await insertInChunks(rows, (slice) => db.insertInto("user_group_member").values(slice).execute());
}

/** Removes direct members. */
export async function deleteMembers(db: Db, groupId: number, userIds: readonly number[]): Promise<void> {
  await runInChunks(userIds, (slice) => db.deleteFrom("user_group_member").where("group_id", "=", groupId).where("user_id", "in", slice).execute());
}

/** Adds direct subgroups. */
export async function insertSubgroups(db: Db, supergroupId: number, subgroupIds: readonly number[]): Promise<void> {
  const rows = subgroupIds.map((subgroup_id) => ({ supergroup_id: supergroupId, subgroup_id }));
  await insertInChunks(rows, (slice) => db.insertInto("user_group_subgroup").values(slice).execute());
}

/** Removes direct subgroups. */
export async function deleteSubgroups(db: Db, supergroupId: number, subgroupIds: readonly number[]): Promise<void> {
  await runInChunks(subgroupIds, (slice) =>
    db.deleteFrom("user_group_subgroup").where("supergroup_id", "=", supergroupId).where("subgroup_id", "in", slice).execute(),
  );
}

/** Replaces an anonymous group's direct members and subgroups. */
export async function replaceContents(db: Db, groupId: number, userIds: readonly number[], subgroupIds: readonly number[]): Promise<void> {
  await db.deleteFrom("user_group_member").where("group_id", "=", groupId).execute();
  await db.deleteFrom("user_group_subgroup").where("supergroup_id", "=", groupId).execute();
  await insertMembers(db, groupId, userIds);
  await insertSubgroups(db, groupId, subgroupIds);
}

/** Ids of `rootIds` and every group below them, following subgroup links level by level. */
export async function recursiveSubgroupIds(db: Db, rootIds: readonly number[]): Promise<number[]> {
  if (rootIds.length === 0) return [];
  const found = new Set<number>(rootIds);
  let frontier = [...rootIds];
  // Level by level rather than a recursive CTE: group graphs are shallow, and this is the same SQL on both backends.
  while (frontier.length > 0) {
    const rows = await selectInChunks(frontier, (slice) => db.selectFrom("user_group_subgroup").select("subgroup_id").where("supergroup_id", "in", slice).execute());
    frontier = [];
    for (const { subgroup_id } of rows) {
      if (!found.has(subgroup_id)) {
        found.add(subgroup_id);
        frontier.push(subgroup_id);
      }
    }
  }
  return [...found];
}

/** Ids of users who are direct members of any of `groupIds`, ascending and distinct. */
export async function membersOfGroups(db: Db, groupIds: readonly number[]): Promise<number[]> {
  const rows = await selectInChunks(groupIds, (slice) => db.selectFrom("user_group_member").select("user_id").distinct().where("group_id", "in", slice).execute());
  return [...new Set(rows.map((r) => r.user_id))].sort((a, b) => a - b);
}

/** Users of a realm among `ids` (for resolving member lists). */
export function realmUsersByIds(db: Db, realmId: number, ids: readonly number[]): Promise<Selectable<UserTable>[]> {
  return selectInChunks(ids, (slice) => db.selectFrom("user").selectAll().where("realm_id", "=", realmId).where("id", "in", slice).execute());
}

/** A group of a realm by id (named or not), with whether it is a system group. */
export function groupOfRealm(db: Db, realmId: number, id: number): Promise<{ id: number; is_system_group: number } | undefined> {
  return db.selectFrom("user_group").select(["id", "is_system_group"]).where("id", "=", id).where("realm_id", "=", realmId).executeTakeFirst();
}
