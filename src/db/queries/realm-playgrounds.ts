import type { Insertable, Selectable } from "kysely";
import type { Db } from "../index.js";
import type { RealmPlaygroundTable } from "../schema.js";

/** A code playground as stored. */
export type RealmPlaygroundRow = Selectable<RealmPlaygroundTable>;

/** A realm's code playgrounds, by id. */
export function playgroundsOfRealm(db: Db, realmId: number): Promise<RealmPlaygroundRow[]> {
  return db.selectFrom("realm_playground").selectAll().where("realm_id", "=", realmId).orderBy("id").execute();
}

/** A code playground of a realm by id. */
export function playgroundById(db: Db, realmId: number, id: number): Promise<RealmPlaygroundRow | undefined> {
  return db.selectFrom("realm_playground").selectAll().where("realm_id", "=", realmId).where("id", "=", id).executeTakeFirst();
}

/** The realm's playground with this language and name, if any. */
export function playgroundByLanguageAndName(db: Db, realmId: number, language: string, name: string): Promise<RealmPlaygroundRow | undefined> {
  return db
    .selectFrom("realm_playground")
    .selectAll()
    .where("realm_id", "=", realmId)
    .where("pygments_language", "=", language)
    .where("name", "=", name)
    .executeTakeFirst();
}

/** Inserts a code playground and returns its id. */
export async function insertPlayground(db: Db, row: Insertable<RealmPlaygroundTable>): Promise<number> {
  const { id } = await db.insertInto("realm_playground").values(row).returning("id").executeTakeFirstOrThrow();
  return id;
}

/** Deletes a code playground. */
export async function deletePlayground(db: Db, id: number): Promise<void> {
  await db.deleteFrom("realm_playground").where("id", "=", id).execute();
}
