import type { Selectable } from "kysely";
import type { Db } from "../index.js";
import type { UserStatusTable } from "../schema.js";

/** A status row as stored. */
export type UserStatusRow = Selectable<UserStatusTable>;

/** A user's status row, if any. */
export function statusOf(db: Db, userId: number): Promise<UserStatusRow | undefined> {
  return db.selectFrom("user_status").selectAll().where("user_id", "=", userId).executeTakeFirst();
}

/** Every status row of a realm. */
export function statusesOfRealm(db: Db, realmId: number): Promise<UserStatusRow[]> {
  return db.selectFrom("user_status").selectAll().where("realm_id", "=", realmId).orderBy("user_id").execute();
}

/** Inserts or replaces a user's status. */
export async function saveStatus(db: Db, row: UserStatusRow): Promise<void> {
  const { user_id: _id, realm_id: _realm, ...changes } = row;
  await db
    .insertInto("user_status")
    .values(row)
    .onConflict((oc) => oc.column("user_id").doUpdateSet(changes))
    .execute();
}
