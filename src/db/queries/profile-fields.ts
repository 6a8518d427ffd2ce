import type { Insertable, Selectable, Updateable } from "kysely";
import type { Db } from "../index.js";
import type { CustomProfileFieldTable, CustomProfileFieldValueTable } from "../schema.js";
import { runInChunks, selectInChunks } from "../chunks.js";

/** A custom profile field definition. */
export type ProfileFieldRow = Selectable<CustomProfileFieldTable>;
/** One user's value for one field. */
export type ProfileValueRow = Selectable<CustomProfileFieldValueTable>;

/** The fields defined in a realm, in display order. */
export function profileFieldsOfRealm(db: Db, realmId: number): Promise<ProfileFieldRow[]> {
  return db.selectFrom("custom_profile_field").selectAll().where("realm_id", "=", realmId).orderBy("order").orderBy("id").execute();
}

/** The values of the given users (all users of the realm when `userIds` is undefined). */
export function profileValuesOfUsers(db: Db, realmId: number, userIds?: readonly number[]): Promise<ProfileValueRow[]> {
  const query = db
    .selectFrom("custom_profile_field_value as v")
    .innerJoin("custom_profile_field as f", "f.id", "v.field_id")
    .selectAll("v")
    .where("f.realm_id", "=", realmId);
  if (!userIds) return query.execute();
  return selectInChunks(userIds, (slice) => query.where("v.user_id", "in", slice).execute());
}

/** Sets (or, with null, removes) one user's value for one field. */
export async function setProfileValue(db: Db, userId: number, fieldId: number, value: string | null, rendered: string | null): Promise<void> {
  await db.deleteFrom("custom_profile_field_value").where("user_id", "=", userId).where("field_id", "=", fieldId).execute();
  if (value !== null) {
    await db.insertInto("custom_profile_field_value").values({ user_id: userId, field_id: fieldId, value, rendered_value: rendered }).execute();
  }
}

/** One field of a realm by id. */
export function profileFieldById(db: Db, realmId: number, id: number): Promise<ProfileFieldRow | undefined> {
  return db.selectFrom("custom_profile_field").selectAll().where("realm_id", "=", realmId).where("id", "=", id).executeTakeFirst();
}

/** Whether another field of the realm already has this label (labels are unique per realm). */
export async function profileFieldNameTaken(db: Db, realmId: number, name: string, exceptId = -1): Promise<boolean> {
  const row = await db
    .selectFrom("custom_profile_field")
    .select("id")
    .where("realm_id", "=", realmId)
    .where("name", "=", name)
    .where("id", "!=", exceptId)
    .executeTakeFirst();
  return row !== undefined;
}

/** How many fields of the realm are shown in the profile summary, leaving out `exceptId`. */
export async function summaryFieldCount(db: Db, realmId: number, exceptId = -1): Promise<number> {
  const rows = await db
    .selectFrom("custom_profile_field")
    .select("id")
    .where("realm_id", "=", realmId)
    .where("display_in_profile_summary", "=", 1)
    .where("id", "!=", exceptId)
    .execute();
  return rows.length;
}

/** Creates a field; its order is its id, so new fields go last. */
export async function insertProfileField(db: Db, row: Insertable<CustomProfileFieldTable>): Promise<number> {
  const { id } = await db.insertInto("custom_profile_field").values(row).returning("id").executeTakeFirstOrThrow();
  await db.updateTable("custom_profile_field").set({ order: id }).where("id", "=", id).execute();
  return id;
}

/** Changes a field's definition. */
export async function updateProfileField(db: Db, id: number, changes: Updateable<CustomProfileFieldTable>): Promise<void> {
  await db.updateTable("custom_profile_field").set(changes).where("id", "=", id).execute();
}

/** Deletes a field and every value of it. */
export async function deleteProfileField(db: Db, id: number): Promise<void> {
  await db.deleteFrom("custom_profile_field_value").where("field_id", "=", id).execute();
  await db.deleteFrom("custom_profile_field").where("id", "=", id).execute();
}

/** One user's value of one field. */
export function profileValueOf(db: Db, userId: number, fieldId: number): Promise<ProfileValueRow | undefined> {
  return db.selectFrom("custom_profile_field_value").selectAll().where("user_id", "=", userId).where("field_id", "=", fieldId).executeTakeFirst();
}

/** Deletes the values of a field equal to one of `values` and returns the users who had them. */
export async function deleteProfileValuesIn(db: Db, fieldId: number, values: readonly string[]): Promise<number[]> {
  const rows = await selectInChunks(values, (slice) =>
    db.selectFrom("custom_profile_field_value").select("user_id").where("field_id", "=", fieldId).where("value", "in", slice).execute(),
  );
  await runInChunks(values, (slice) => db.deleteFrom("custom_profile_field_value").where("field_id", "=", fieldId).where("value", "in", slice).execute());
  return rows.map((r) => r.user_id);
}

/** The users who have a value for a field. */
export async function usersWithValueOf(db: Db, fieldId: number): Promise<number[]> {
  const rows = await db.selectFrom("custom_profile_field_value").select("user_id").where("field_id", "=", fieldId).execute();
  return rows.map((r) => r.user_id);
}
