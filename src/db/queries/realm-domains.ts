import type { Selectable } from "kysely";
import type { Db } from "../index.js";
import type { RealmDomainTable } from "../schema.js";

/** A realm domain as stored. */
export type RealmDomainRow = Selectable<RealmDomainTable>;

/** A realm's domains in the order they were added. */
export function realmDomainsOfRealm(db: Db, realmId: number): Promise<RealmDomainRow[]> {
  return db.selectFrom("realm_domain").selectAll().where("realm_id", "=", realmId).orderBy("id").execute();
}

/** One domain of a realm, matched exactly. */
export function realmDomainByName(db: Db, realmId: number, domain: string): Promise<RealmDomainRow | undefined> {
  return db.selectFrom("realm_domain").selectAll().where("realm_id", "=", realmId).where("domain", "=", domain).executeTakeFirst();
}

/** Adds a domain and returns its id. */
export async function insertRealmDomain(db: Db, realmId: number, domain: string, allowSubdomains: boolean): Promise<number> {
  const { id } = await db
    .insertInto("realm_domain")
    .values({ realm_id: realmId, domain, allow_subdomains: allowSubdomains ? 1 : 0 })
    .returning("id")
    .executeTakeFirstOrThrow();
  return id;
}

/** Changes whether a domain's subdomains are accepted too. */
export async function setRealmDomainSubdomains(db: Db, id: number, allowSubdomains: boolean): Promise<void> {
  await db.updateTable("realm_domain").set({ allow_subdomains: allowSubdomains ? 1 : 0 }).where("id", "=", id).execute();
}

/** Removes a domain. */
export async function deleteRealmDomain(db: Db, id: number): Promise<void> {
  await db.deleteFrom("realm_domain").where("id", "=", id).execute();
}
