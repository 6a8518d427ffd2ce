import type { Insertable, Selectable } from "kysely";
import type { Db } from "../index.js";
import type { RealmEmojiTable } from "../schema.js";

/** A custom emoji as stored. */
export type RealmEmojiRow = Selectable<RealmEmojiTable>;

/** Every custom emoji of a realm, deactivated ones included, by id. */
export function realmEmojiOfRealm(db: Db, realmId: number): Promise<RealmEmojiRow[]> {
  return db.selectFrom("realm_emoji").selectAll().where("realm_id", "=", realmId).orderBy("id").execute();
}

/** The active custom emoji of a realm with this name. */
export function activeRealmEmojiByName(db: Db, realmId: number, name: string): Promise<RealmEmojiRow | undefined> {
  return db.selectFrom("realm_emoji").selectAll().where("realm_id", "=", realmId).where("name", "=", name).where("deactivated", "=", 0).executeTakeFirst();
}

/** A custom emoji of a realm by id, active or not. */
export function realmEmojiById(db: Db, realmId: number, id: number): Promise<RealmEmojiRow | undefined> {
  return db.selectFrom("realm_emoji").selectAll().where("realm_id", "=", realmId).where("id", "=", id).executeTakeFirst();
}

/** Inserts a custom emoji and returns its id. */
export async function insertRealmEmoji(db: Db, row: Insertable<RealmEmojiTable>): Promise<number> {
  const { id } = await db.insertInto("realm_emoji").values(row).returning("id").executeTakeFirstOrThrow();
  return id;
}

/** Records the stored image's file name. */
export async function setRealmEmojiFile(db: Db, id: number, fileName: string): Promise<void> {
  await db.updateTable("realm_emoji").set({ file_name: fileName }).where("id", "=", id).execute();
}

/** Deactivates a custom emoji (it stays for old messages, reactions and statuses). */
export async function deactivateRealmEmoji(db: Db, id: number): Promise<void> {
  await db.updateTable("realm_emoji").set({ deactivated: 1 }).where("id", "=", id).execute();
}
