import type { Selectable } from "kysely";
import type { Db } from "../index.js";
import type { CustomProfileFieldTable, CustomProfileFieldValueTable } from "../schema.js";

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
  let query = db
    .selectFrom("custom_profile_field_value as v")
    .innerJoin("custom_profile_field as f", "f.id", "v.field_id")
    .selectAll("v")
    .where("f.realm_id", "=", realmId);
  if (userIds) query = query.where("v.user_id", "in", userIds.length ? [...userIds] : [-1]);
  return query.execute();
}

/** Sets (or, with null, removes) one user's value for one field. */
export async function setProfileValue(db: Db, userId: number, fieldId: number, value: string | null, rendered: string | null): Promise<void> {
  await db.deleteFrom("custom_profile_field_value").where("user_id", "=", userId).where("field_id", "=", fieldId).execute();
  if (value !== null) {
    await db.insertInto("custom_profile_field_value").values({ user_id: userId, field_id: fieldId, value, rendered_value: rendered }).execute();
  }
}
