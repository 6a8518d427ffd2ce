import type { Selectable, Updateable } from "kysely";
import type { Db } from "../index.js";
import type { RealmExportTable } from "../schema.js";

/** A requested data export as stored. */
export type RealmExportRow = Selectable<RealmExportTable>;

/** The realm's exports, oldest first. */
export function exportsOfRealm(db: Db, realmId: number): Promise<RealmExportRow[]> {
  return db.selectFrom("realm_export").selectAll().where("realm_id", "=", realmId).orderBy("id").execute();
}

/** One export of a realm by id. */
export function exportById(db: Db, realmId: number, id: number): Promise<RealmExportRow | undefined> {
  return db.selectFrom("realm_export").selectAll().where("realm_id", "=", realmId).where("id", "=", id).executeTakeFirst();
}

/** How many exports the realm requested since `since` (ms). */
export async function exportsSince(db: Db, realmId: number, since: number): Promise<number> {
  const row = await db.selectFrom("realm_export").select((eb) => eb.fn.countAll<number | string>().as("n")).where("realm_id", "=", realmId).where("export_time", ">=", since).executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Records a requested export and returns its id. */
export async function insertExport(db: Db, realmId: number, actingUserId: number, now: number): Promise<number> {
  const { id } = await db.insertInto("realm_export").values({ realm_id: realmId, acting_user_id: actingUserId, export_time: now }).returning("id").executeTakeFirstOrThrow();
  return id;
}

/** Exports requested but not yet claimed by a process, oldest first. */
export function unstartedExports(db: Db): Promise<RealmExportRow[]> {
  return db.selectFrom("realm_export").selectAll().where("started_time", "is", null).where("failed_time", "is", null).where("deleted_time", "is", null).orderBy("id").execute();
}

/** Exports claimed but neither finished nor failed: their process stopped while writing them. */
export function abandonedExports(db: Db): Promise<RealmExportRow[]> {
  return db.selectFrom("realm_export").selectAll().where("started_time", "is not", null).where("export_path", "is", null).where("failed_time", "is", null).orderBy("id").execute();
}

/** Claims an unstarted export for this process; false when another process took it first. */
export async function claimExport(db: Db, id: number, now: number): Promise<boolean> {
  const result = await db.updateTable("realm_export").set({ started_time: now }).where("id", "=", id).where("started_time", "is", null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Records a finished export's archive; false when the export was marked failed meanwhile. */
export async function completeExport(db: Db, id: number, exportPath: string): Promise<boolean> {
  const result = await db.updateTable("realm_export").set({ export_path: exportPath }).where("id", "=", id).where("failed_time", "is", null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Changes an export's row. */
export async function updateExport(db: Db, id: number, changes: Updateable<RealmExportTable>): Promise<void> {
  await db.updateTable("realm_export").set(changes).where("id", "=", id).execute();
}

/** The number of messages sent to the realm's public channels (Zulip's estimate of an export's size). */
export async function publicChannelMessageCount(db: Db, realmId: number): Promise<number> {
  const row = await db
    .selectFrom("message as m")
    .innerJoin("stream as s", "s.id", "m.stream_id")
    .select((eb) => eb.fn.countAll<number | string>().as("n"))
    .where("m.realm_id", "=", realmId)
    .where("s.invite_only", "=", 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
