import type { Insertable, Selectable, Updateable } from "kysely";
import type { Db } from "../index.js";
import type { RealmTable } from "../schema.js";

/** A realm row as stored. */
export type RealmRow = Selectable<RealmTable>;

/** Finds a realm by id. */
export function realmById(db: Db, id: number): Promise<RealmRow | undefined> {
  return db.selectFrom("realm").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Finds a realm by its subdomain ("" for the root domain). */
export function realmByStringId(db: Db, stringId: string): Promise<RealmRow | undefined> {
  return db.selectFrom("realm").selectAll().where("string_id", "=", stringId).executeTakeFirst();
}

/** The first realm created: the one served when the host names none. */
export function defaultRealm(db: Db): Promise<RealmRow | undefined> {
  return db.selectFrom("realm").selectAll().orderBy("id").limit(1).executeTakeFirst();
}

/** Inserts a realm and returns its id. */
export async function insertRealm(db: Db, row: Insertable<RealmTable>): Promise<number> {
  const { id } = await db.insertInto("realm").values(row).returning("id").executeTakeFirstOrThrow();
  return id;
}

/** Changes a realm's columns (name, description, the props JSON…). */
export async function updateRealm(db: Db, id: number, changes: Updateable<RealmTable>): Promise<void> {
  await db.updateTable("realm").set(changes).where("id", "=", id).execute();
}
