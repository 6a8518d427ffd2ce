import type { Insertable, Selectable } from "kysely";
import type { Db } from "../index.js";
import type { PasswordResetTable } from "../schema.js";
import { InviteStatus } from "./invites.js";

/** A password-reset link as stored. */
export type PasswordResetRow = Selectable<PasswordResetTable>;

/** A reset link by the digest of its token. */
export function passwordResetByDigest(db: Db, digest: string): Promise<PasswordResetRow | undefined> {
  return db.selectFrom("password_reset").selectAll().where("token_digest", "=", digest).executeTakeFirst();
}

/** Records a reset link; the user's earlier pending ones are revoked (only the newest link works). */
export async function insertPasswordReset(db: Db, row: Insertable<PasswordResetTable>): Promise<void> {
  await revokePasswordResets(db, row.user_id);
  await db.insertInto("password_reset").values(row).execute();
}

/** Revokes a user's pending reset links (after a reset, or when a newer link is made). */
export async function revokePasswordResets(db: Db, userId: number): Promise<void> {
  await db.updateTable("password_reset").set({ status: InviteStatus.REVOKED }).where("user_id", "=", userId).where("status", "=", InviteStatus.PENDING).execute();
}

/** Marks a link used, so it cannot open the account twice. */
export async function markPasswordResetUsed(db: Db, id: number): Promise<void> {
  await db.updateTable("password_reset").set({ status: InviteStatus.USED }).where("id", "=", id).execute();
}
