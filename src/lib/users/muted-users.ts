import type { Db } from "../../db/index.js";
import { mutedUsersOf } from "../../db/queries/muted-users.js";

/** The muted_users list as events and /register carry it: id and UNIX-seconds timestamp. */
export async function mutedUsersList(db: Db, userId: number): Promise<{ id: number; timestamp: number }[]> {
  const rows = await mutedUsersOf(db, userId);
  return rows.map((r) => ({ id: r.muted_user_id, timestamp: Math.floor(r.date_muted / 1000) }));
}
