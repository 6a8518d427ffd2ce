import type { Selectable } from "kysely";
import type { Db } from "../index.js";
import type { DefaultStreamGroupTable } from "../schema.js";

/** A default channel group as stored (its channels are rows of default_stream_group_stream). */
export type DefaultStreamGroupRow = Selectable<DefaultStreamGroupTable>;

/** A realm's default channel groups, by id. */
export function defaultStreamGroupsOfRealm(db: Db, realmId: number): Promise<DefaultStreamGroupRow[]> {
  return db.selectFrom("default_stream_group").selectAll().where("realm_id", "=", realmId).orderBy("id").execute();
}

/** A default channel group of a realm by id. */
export function defaultStreamGroupById(db: Db, realmId: number, id: number): Promise<DefaultStreamGroupRow | undefined> {
  return db.selectFrom("default_stream_group").selectAll().where("realm_id", "=", realmId).where("id", "=", id).executeTakeFirst();
}

/** A default channel group of a realm by exact name. */
export function defaultStreamGroupByName(db: Db, realmId: number, name: string): Promise<DefaultStreamGroupRow | undefined> {
  return db.selectFrom("default_stream_group").selectAll().where("realm_id", "=", realmId).where("name", "=", name).executeTakeFirst();
}

/** The channel ids of each of these groups. */
export async function channelIdsOfGroups(db: Db, groupIds: readonly number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>(groupIds.map((id) => [id, []]));
  if (groupIds.length === 0) return out;
  const rows = await db
    .selectFrom("default_stream_group_stream")
    .select(["group_id", "stream_id"])
    .where("group_id", "in", [...groupIds])
    .orderBy("stream_id")
    .execute();
  for (const row of rows) out.get(row.group_id)?.push(row.stream_id);
  return out;
}

/** The ids of the realm's groups that hold this channel. */
export async function groupIdsWithChannel(db: Db, streamId: number): Promise<number[]> {
  const rows = await db.selectFrom("default_stream_group_stream").select("group_id").where("stream_id", "=", streamId).orderBy("group_id").execute();
  return rows.map((r) => r.group_id);
}

/** Creates a group and returns its id. */
export async function insertDefaultStreamGroup(db: Db, realmId: number, name: string, description: string): Promise<number> {
  const { id } = await db.insertInto("default_stream_group").values({ realm_id: realmId, name, description }).returning("id").executeTakeFirstOrThrow();
  return id;
}

/** Changes a group's name or description. */
export async function updateDefaultStreamGroup(db: Db, id: number, changes: { name?: string; description?: string }): Promise<void> {
  await db.updateTable("default_stream_group").set(changes).where("id", "=", id).execute();
}

/** Adds channels to a group (already present ones stay). */
export async function addChannelsToGroup(db: Db, groupId: number, streamIds: readonly number[]): Promise<void> {
  if (streamIds.length === 0) return;
  await db
    .insertInto("default_stream_group_stream")
    .values(streamIds.map((stream_id) => ({ group_id: groupId, stream_id })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

/** Removes channels from a group. */
export async function removeChannelsFromGroup(db: Db, groupId: number, streamIds: readonly number[]): Promise<void> {
  if (streamIds.length === 0) return;
  await db.deleteFrom("default_stream_group_stream").where("group_id", "=", groupId).where("stream_id", "in", [...streamIds]).execute();
}

/** Deletes a group and its channel list. */
export async function deleteDefaultStreamGroup(db: Db, id: number): Promise<void> {
  await db.deleteFrom("default_stream_group_stream").where("group_id", "=", id).execute();
  await db.deleteFrom("default_stream_group").where("id", "=", id).execute();
}
