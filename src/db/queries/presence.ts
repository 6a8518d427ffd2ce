import type { Selectable } from "kysely";
import type { Db } from "../index.js";
import type { PresenceTable } from "../schema.js";

/** A presence row as stored. */
export type PresenceRow = Selectable<PresenceTable>;

/** Every presence row of a realm. */
export function presenceRowsOfRealm(db: Db, realmId: number): Promise<PresenceRow[]> {
  return db.selectFrom("presence").selectAll().where("realm_id", "=", realmId).execute();
}

/** Writes rows (insert or replace), in one statement per row inside the caller's transaction. */
export async function upsertPresenceRows(db: Db, rows: readonly PresenceRow[]): Promise<void> {
  for (const row of rows) {
    await db
      .insertInto("presence")
      .values(row)
      .onConflict((oc) =>
        oc.column("user_id").doUpdateSet({
          last_active_time: row.last_active_time,
          last_connected_time: row.last_connected_time,
          last_update_id: row.last_update_id,
        }),
      )
      .execute();
  }
}

/** How many active users a realm has (presence events are skipped above a limit); system bots are not members. */
export async function activeUserCount(db: Db, realmId: number): Promise<number> {
  const row = await db
    .selectFrom("user")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("realm_id", "=", realmId)
    .where("is_active", "=", 1)
    .where("is_system_bot", "=", 0)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}
