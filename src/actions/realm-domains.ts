import type { Recipients } from "../events/outbox.js";
import { write, type AppContext } from "../context.js";
import { deleteRealmDomain, insertRealmDomain, realmDomainByName, realmDomainsOfRealm, setRealmDomainSubdomains } from "../db/queries/realm-domains.js";
import { realmById, updateRealm } from "../db/queries/realms.js";
import type { UserRow } from "../db/queries/users.js";
import { ApiError, badRequest, ownerRequired } from "../base/errors.js";
import { checkDomain } from "../lib/realm/domains.js";
import { realmProps } from "../lib/realm/props.js";
import { Role } from "../lib/users/roles.js";

/**
 * POST /realm/domains (owners only): the domain, stripped and lower-cased, must be valid and new.
 * Returns its id and name. realm_domains add goes to every active user of the realm.
 */
export async function checkAddRealmDomain(ctx: AppContext, actor: UserRow, rawDomain: string, allowSubdomains: boolean): Promise<[number, string]> {
  requireOwner(actor);
  const domain = rawDomain.trim().toLowerCase();
  checkDomain(domain);
  return uniqueDomain(
    domain,
    write(ctx, async (tx, outbox) => {
      if (await realmDomainByName(tx, actor.realm_id, domain)) throw alreadyThere(domain);
      const id = await insertRealmDomain(tx, actor.realm_id, domain, allowSubdomains);
      outbox.sendToRealm({ type: "realm_domains", op: "add", realm_domain: { domain, allow_subdomains: allowSubdomains } }, actor.realm_id);
      return [id, domain];
    }),
  );
}

/** PATCH /realm/domains/{domain} (owners only): realm_domains change to every active user, even when the flag is unchanged (as Zulip). */
export async function checkChangeRealmDomain(ctx: AppContext, actor: UserRow, domain: string, allowSubdomains: boolean): Promise<void> {
  requireOwner(actor);
  await write(ctx, async (tx, outbox) => {
    const row = await realmDomainByName(tx, actor.realm_id, domain);
    if (!row) throw noEntry(domain);
    await setRealmDomainSubdomains(tx, row.id, allowSubdomains);
    outbox.sendToRealm({ type: "realm_domains", op: "change", realm_domain: { domain, allow_subdomains: allowSubdomains } }, actor.realm_id);
  });
}

/**
 * DELETE /realm/domains/{domain} (owners only). Removing the last domain also turns off
 * emails_restricted_to_domains, which would otherwise admit nobody (realm update first, as Zulip
 * sends it); realm_domains remove to every active user.
 */
export async function checkRemoveRealmDomain(ctx: AppContext, actor: UserRow, domain: string): Promise<void> {
  requireOwner(actor);
  await write(ctx, async (tx, outbox) => {
    const row = await realmDomainByName(tx, actor.realm_id, domain);
    if (!row) throw noEntry(domain);
    await deleteRealmDomain(tx, row.id);
    const recipients: Recipients = { realmId: actor.realm_id, except: [] };
    const realm = await realmById(tx, actor.realm_id);
    const props = realm ? realmProps(realm) : {};
    if (realm && props.emails_restricted_to_domains === true && (await realmDomainsOfRealm(tx, realm.id)).length === 0) {
      await updateRealm(tx, realm.id, { props: JSON.stringify({ ...props, emails_restricted_to_domains: false }) });
      outbox.sendTo({ type: "realm", op: "update", property: "emails_restricted_to_domains", value: false }, recipients);
      outbox.invalidate({ cache: "realm", id: realm.id });
    }
    outbox.sendTo({ type: "realm_domains", op: "remove", domain }, recipients);
  });
}

function requireOwner(actor: UserRow): void {
  if (actor.role !== Role.OWNER) throw ownerRequired();
}

function alreadyThere(domain: string): ApiError {
  return badRequest(`The domain ${domain} is already a part of your organization.`);
}

function noEntry(domain: string): ApiError {
  return badRequest(`No entry found for domain ${domain}.`);
}

/** Two concurrent adds of one domain both pass the check on PostgreSQL; the unique index stops the second with the same answer. */
async function uniqueDomain<T>(domain: string, work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
    if (code === "23505" || code === "SQLITE_CONSTRAINT_UNIQUE") throw alreadyThere(domain);
    throw error;
  }
}
