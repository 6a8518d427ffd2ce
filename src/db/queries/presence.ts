import type { Selectable } from "kysely";
import type { Db } from "../index.js";
import type { PresenceTable } from "../schema.js";

/** A presence row as stored. */
export type PresenceRow = Selectable<PresenceTable>;

/** Every presence row of a realm. */
export function presenceRowsOfRealm(db: Db, realmId: number): Promise<PresenceRow[]> {
  return db.selectFrom("presence").selectAll().where("realm_id", "=", realmId).execute();
}

/** Rows per statement: five values each, well under every dialect's limit on parameters. */
const UPSERT_CHUNK = 500;

/**
 * Writes rows (insert, or replace an older change: in a cluster two processes may write one
 * user's row, and the later change wins whichever write lands last), a few hundred per statement,
 * inside the caller's transaction.
 */
export async function upsertPresenceRows(db: Db, rows: readonly PresenceRow[]): Promise<void> {
  for (let at = 0; at < rows.length; at += UPSERT_CHUNK) {
    await db
      .insertInto("presence")
      .values(rows.slice(at, at + UPSERT_CHUNK))
      .onConflict((oc) =>
        oc.column("user_id").doUpdateSet((eb) => ({
          last_active_time: eb.ref("excluded.last_active_time"),
          last_connected_time: eb.ref("excluded.last_connected_time"),
          last_update_id: eb.ref("excluded.last_update_id"),
        })).where("presence.last_update_id", "<", (eb) => eb.ref("excluded.last_update_id")),
      )
      .execute();
  }
}
