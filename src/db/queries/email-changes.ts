import type { Insertable, Selectable } from "kysely";
import type { Db } from "../index.js";
import type { EmailChangeTable } from "../schema.js";
import { InviteStatus } from "./invites.js";

/** A requested address change as stored. */
export type EmailChangeRow = Selectable<EmailChangeTable>;

/** An address change by its confirmation key. */
export function emailChangeByKey(db: Db, key: string): Promise<EmailChangeRow | undefined> {
  return db.selectFrom("email_change").selectAll().where("key", "=", key).executeTakeFirst();
}

/** Records a requested change; the user's earlier pending requests are revoked, as Zulip does. */
export async function insertEmailChange(db: Db, row: Insertable<EmailChangeTable>): Promise<void> {
  await revokeEmailChanges(db, row.user_id);
  await db.insertInto("email_change").values(row).execute();
}

/** Revokes a user's pending address changes. */
export async function revokeEmailChanges(db: Db, userId: number): Promise<void> {
  await db.updateTable("email_change").set({ status: InviteStatus.REVOKED }).where("user_id", "=", userId).where("status", "=", InviteStatus.PENDING).execute();
}

/** Marks a change as confirmed, so its link cannot be used twice. */
export async function markEmailChangeUsed(db: Db, id: number): Promise<void> {
  await db.updateTable("email_change").set({ status: InviteStatus.USED }).where("id", "=", id).execute();
}
