import type { Selectable } from "kysely";
import type { Db } from "../index.js";
import type { RealmUserDefaultTable } from "../schema.js";

/** The stored overrides of a realm's defaults for new users. */
export function realmDefaultsRow(db: Db, realmId: number): Promise<Selectable<RealmUserDefaultTable> | undefined> {
  return db.selectFrom("realm_user_default").selectAll().where("realm_id", "=", realmId).executeTakeFirst();
}

/** Replaces a realm's default overrides. */
export async function saveRealmDefaults(db: Db, realmId: number, settings: string): Promise<void> {
  await db
    .insertInto("realm_user_default")
    .values({ realm_id: realmId, settings })
    .onConflict((oc) => oc.column("realm_id").doUpdateSet({ settings }))
    .execute();
}
