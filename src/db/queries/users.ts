import type { Insertable, Selectable, Updateable } from "kysely";
import type { Db } from "../index.js";
import type { UserTable } from "../schema.js";
import { selectInChunks } from "../chunks.js";

/** A user row as stored. */
export type UserRow = Selectable<UserTable>;

/** Finds a user by id. */
export function userById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom("user").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Finds a user by API key. */
export function userByApiKey(db: Db, apiKey: string): Promise<UserRow | undefined> {
  return db.selectFrom("user").selectAll().where("api_key", "=", apiKey).executeTakeFirst();
}

/** Finds a user of a realm by real address, case-insensitively. */
export function userByDeliveryEmail(db: Db, realmId: number, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom("user")
    .selectAll()
    .where("realm_id", "=", realmId)
    .where((eb) => eb(eb.fn("lower", ["delivery_email"]), "=", email.toLowerCase()))
    .executeTakeFirst();
}

/** Finds a user of a realm by API email, case-insensitively. */
export function userByApiEmail(db: Db, realmId: number, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom("user")
    .selectAll()
    .where("realm_id", "=", realmId)
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", email.toLowerCase()))
    .executeTakeFirst();
}

/** Every user of a realm, ordered by id; system bots are not the realm's members (Zulip's cross-realm bots). */
export function usersOfRealm(db: Db, realmId: number): Promise<UserRow[]> {
  return db.selectFrom("user").selectAll().where("realm_id", "=", realmId).where("is_system_bot", "=", 0).orderBy("id").execute();
}

/** Ids of a realm's active users (system bots excluded). */
export async function activeUserIds(db: Db, realmId: number): Promise<number[]> {
  const rows = await db.selectFrom("user").select("id").where("realm_id", "=", realmId).where("is_active", "=", 1).where("is_system_bot", "=", 0).execute();
  return rows.map((r) => r.id);
}

/** Ids of a realm's active users (system bots excluded) whose role is one of `roles`: the few guests or administrators. */
export async function activeUserIdsWithRoles(db: Db, realmId: number, roles: readonly number[]): Promise<number[]> {
  const rows = await db
    .selectFrom("user")
    .select("id")
    .where("realm_id", "=", realmId)
    .where("is_active", "=", 1)
    .where("is_system_bot", "=", 0)
    .where("role", "in", [...roles])
    .orderBy("id")
    .execute();
  return rows.map((r) => r.id);
}

/** Whether the realm has an active human other than `userId` (system bots excluded). */
export async function hasOtherActiveHuman(db: Db, realmId: number, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom("user")
    .select("id")
    .where("realm_id", "=", realmId)
    .where("is_active", "=", 1)
    .where("is_bot", "=", 0)
    .where("is_system_bot", "=", 0)
    .where("id", "!=", userId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The names of these active users of a realm (system bots excluded). */
export async function activeUserNames(db: Db, realmId: number, ids: readonly number[]): Promise<{ id: number; full_name: string }[]> {
  return selectInChunks(ids, (slice) =>
    db.selectFrom("user").select(["id", "full_name"]).where("realm_id", "=", realmId).where("is_active", "=", 1).where("is_system_bot", "=", 0).where("id", "in", slice).execute(),
  );
}

/** A realm's system bots (cross_realm_bots), ordered by full name as Zulip lists them. */
export function systemBotsOfRealm(db: Db, realmId: number): Promise<UserRow[]> {
  return db.selectFrom("user").selectAll().where("realm_id", "=", realmId).where("is_system_bot", "=", 1).orderBy("full_name").orderBy("id").execute();
}

/** A realm's system bot with this address (Zulip's get_system_bot). */
export function systemBotOf(db: Db, realmId: number, email: string): Promise<UserRow | undefined> {
  return db.selectFrom("user").selectAll().where("realm_id", "=", realmId).where("is_system_bot", "=", 1).where("email", "=", email).executeTakeFirst();
}

/** Active human owners of a realm. */
export async function activeHumanOwnerIds(db: Db, realmId: number): Promise<number[]> {
  const rows = await db
    .selectFrom("user")
    .select("id")
    .where("realm_id", "=", realmId)
    .where("is_active", "=", 1)
    .where("is_bot", "=", 0)
    .where("role", "=", 100)
    .execute();
  return rows.map((r) => r.id);
}

/** Active bots owned by a user. */
export function activeBotsOwnedBy(db: Db, ownerId: number): Promise<UserRow[]> {
  return db.selectFrom("user").selectAll().where("bot_owner_id", "=", ownerId).where("is_active", "=", 1).execute();
}

/** Inserts a user and returns its id. */
export async function insertUser(db: Db, row: Insertable<UserTable>): Promise<number> {
  const { id } = await db.insertInto("user").values(row).returning("id").executeTakeFirstOrThrow();
  return id;
}

/** Updates columns of one user. */
export async function updateUser(db: Db, id: number, changes: Updateable<UserTable>): Promise<void> {
  await db.updateTable("user").set(changes).where("id", "=", id).execute();
}

/** The guests among these users. */
export async function guestIdsAmong(db: Db, userIds: readonly number[], guestRole: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < userIds.length; i += 500) {
    const rows = await db.selectFrom("user").select("id").where("id", "in", userIds.slice(i, i + 500)).where("role", "=", guestRole).execute();
    out.push(...rows.map((r) => r.id));
  }
  return out;
}
