import type { Selectable } from "kysely";
import type { Db } from "../index.js";
import type { RealmFilterTable } from "../schema.js";

/** A linkifier as stored. */
export type RealmFilterRow = Selectable<RealmFilterTable>;

/** A realm's linkifiers in the order they apply (ties by id, oldest first). */
export function linkifiersOfRealm(db: Db, realmId: number): Promise<RealmFilterRow[]> {
  return db.selectFrom("realm_filter").selectAll().where("realm_id", "=", realmId).orderBy("ordering").orderBy("id").execute();
}

/** A linkifier of a realm by id. */
export function linkifierById(db: Db, realmId: number, id: number): Promise<RealmFilterRow | undefined> {
  return db.selectFrom("realm_filter").selectAll().where("realm_id", "=", realmId).where("id", "=", id).executeTakeFirst();
}

/** Another linkifier of the realm with exactly this pattern (`exceptId` excluded). */
export function linkifierWithPattern(db: Db, realmId: number, pattern: string, exceptId?: number): Promise<RealmFilterRow | undefined> {
  let query = db.selectFrom("realm_filter").selectAll().where("realm_id", "=", realmId).where("pattern", "=", pattern);
  if (exceptId !== undefined) query = query.where("id", "!=", exceptId);
  return query.executeTakeFirst();
}

/** Adds a linkifier after the realm's others and returns its id. */
export async function insertLinkifier(db: Db, realmId: number, pattern: string, urlTemplate: string): Promise<number> {
  const last = await db.selectFrom("realm_filter").select((eb) => eb.fn.max("ordering").as("max")).where("realm_id", "=", realmId).executeTakeFirst();
  const ordering = last?.max === null || last?.max === undefined ? 0 : Number(last.max) + 1;
  const { id } = await db
    .insertInto("realm_filter")
    .values({ realm_id: realmId, pattern, url_template: urlTemplate, ordering })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

/** Replaces a linkifier's pattern and URL template. */
export async function updateLinkifier(db: Db, id: number, pattern: string, urlTemplate: string): Promise<void> {
  await db.updateTable("realm_filter").set({ pattern, url_template: urlTemplate }).where("id", "=", id).execute();
}

/** Sets the position of each linkifier: the first id applies first. */
export async function reorderLinkifiers(db: Db, orderedIds: readonly number[]): Promise<void> {
  for (const [ordering, id] of orderedIds.entries()) {
    await db.updateTable("realm_filter").set({ ordering }).where("id", "=", id).execute();
  }
}

/** Deletes a linkifier. */
export async function deleteLinkifier(db: Db, id: number): Promise<void> {
  await db.deleteFrom("realm_filter").where("id", "=", id).execute();
}
