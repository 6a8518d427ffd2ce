import type { Insertable, Selectable, Updateable } from "kysely";
import type { Db } from "../index.js";
import type { InviteTable, MultiuseInviteTable, SignupConfirmationTable } from "../schema.js";

/** An email invitation as stored. */
export type InviteRow = Selectable<InviteTable>;
/** A reusable invitation link as stored. */
export type MultiuseInviteRow = Selectable<MultiuseInviteTable>;

/** A reusable-link signup waiting for its address to be confirmed. */
export type SignupConfirmationRow = Selectable<SignupConfirmationTable>;

/** Invitation states (Zulip's confirmation STATUS_USED / STATUS_REVOKED; 0 is pending). */
export const InviteStatus = { PENDING: 0, USED: 1, REVOKED: 2 } as const;

/** An email invitation by id. */
export function inviteById(db: Db, id: number): Promise<InviteRow | undefined> {
  return db.selectFrom("invite").selectAll().where("id", "=", id).executeTakeFirst();
}

/** An email invitation by its link key. */
export function inviteByKey(db: Db, key: string): Promise<InviteRow | undefined> {
  return db.selectFrom("invite").selectAll().where("key", "=", key).executeTakeFirst();
}

/** Pending email invitations of a realm (or of one referrer), unexpired at `now`, by id. */
export function pendingInvites(db: Db, realmId: number, now: number, referrerId?: number): Promise<InviteRow[]> {
  let query = db
    .selectFrom("invite")
    .selectAll()
    .where("realm_id", "=", realmId)
    .where("status", "=", InviteStatus.PENDING)
    .where((eb) => eb.or([eb("expiry_date", "is", null), eb("expiry_date", ">", now)]));
  if (referrerId !== undefined) query = query.where("referred_by_id", "=", referrerId);
  return query.orderBy("id").execute();
}

/** How many email invitations a realm has sent since `since` (resends count again). */
export async function invitesSentSince(db: Db, realmId: number, since: number): Promise<number> {
  const row = await db
    .selectFrom("invite")
    .select((eb) => eb.fn.countAll<number>().as("n"))
    .where("realm_id", "=", realmId)
    .where("invited_at", ">=", since)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Inserts an email invitation and returns its id. */
export async function insertInvite(db: Db, row: Insertable<InviteTable>): Promise<number> {
  const { id } = await db.insertInto("invite").values(row).returning("id").executeTakeFirstOrThrow();
  return id;
}

/** Updates one email invitation. */
export async function updateInvite(db: Db, id: number, changes: Updateable<InviteTable>): Promise<void> {
  await db.updateTable("invite").set(changes).where("id", "=", id).execute();
}

/** Deletes one email invitation (revocation). */
export async function deleteInvite(db: Db, id: number): Promise<void> {
  await db.deleteFrom("invite").where("id", "=", id).execute();
}

/** Deletes the other pending invitations of an address in a realm, once one has been used; returns how many. */
export async function deletePendingInvitesFor(db: Db, realmId: number, email: string): Promise<number> {
  const result = await db
    .deleteFrom("invite")
    .where("realm_id", "=", realmId)
    .where("status", "=", InviteStatus.PENDING)
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", email.toLowerCase()))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** A reusable link by id. */
export function multiuseById(db: Db, id: number): Promise<MultiuseInviteRow | undefined> {
  return db.selectFrom("multiuse_invite").selectAll().where("id", "=", id).executeTakeFirst();
}

/** A reusable link by key. */
export function multiuseByKey(db: Db, key: string): Promise<MultiuseInviteRow | undefined> {
  return db.selectFrom("multiuse_invite").selectAll().where("key", "=", key).executeTakeFirst();
}

/** Unrevoked, unexpired reusable links of a realm (or of one referrer), by id. */
export function activeMultiuseInvites(db: Db, realmId: number, now: number, referrerId?: number): Promise<MultiuseInviteRow[]> {
  let query = db
    .selectFrom("multiuse_invite")
    .selectAll()
    .where("realm_id", "=", realmId)
    .where("status", "!=", InviteStatus.REVOKED)
    .where((eb) => eb.or([eb("expiry_date", "is", null), eb("expiry_date", ">", now)]));
  if (referrerId !== undefined) query = query.where("referred_by_id", "=", referrerId);
  return query.orderBy("id").execute();
}

/** Inserts a reusable link and returns its id. */
export async function insertMultiuse(db: Db, row: Insertable<MultiuseInviteTable>): Promise<number> {
  const { id } = await db.insertInto("multiuse_invite").values(row).returning("id").executeTakeFirstOrThrow();
  return id;
}

/** Marks a reusable link revoked. */
export async function revokeMultiuse(db: Db, id: number): Promise<void> {
  await db.updateTable("multiuse_invite").set({ status: InviteStatus.REVOKED }).where("id", "=", id).execute();
}

/** A signup confirmation by key. */
export function confirmationByKey(db: Db, key: string): Promise<SignupConfirmationRow | undefined> {
  return db.selectFrom("signup_confirmation").selectAll().where("key", "=", key).executeTakeFirst();
}

/** Inserts a signup confirmation. */
export async function insertConfirmation(db: Db, row: Insertable<SignupConfirmationTable>): Promise<void> {
  await db.insertInto("signup_confirmation").values(row).execute();
}

/** Marks a signup confirmation used by the account it created. */
export async function markConfirmationUsed(db: Db, id: number, userId: number): Promise<void> {
  await db.updateTable("signup_confirmation").set({ status: InviteStatus.USED, created_user_id: userId }).where("id", "=", id).execute();
}
