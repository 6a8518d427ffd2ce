import type { Db } from "../../db/index.js";
import { realmDomainsOfRealm, type RealmDomainRow } from "../../db/queries/realm-domains.js";
import type { RealmRow } from "../../db/queries/realms.js";
import type { RealmDomainDict } from "../../events/types.js";
import { badRequest } from "../../base/errors.js";
import { realmSetting } from "./props.js";

/** A realm domain as the API shows it. */
export function realmDomainDict(row: RealmDomainRow): RealmDomainDict {
  return { domain: row.domain, allow_subdomains: row.allow_subdomains === 1 };
}

/** Zulip's validate_domain, its first complaint wrapped as `Invalid domain: <reason>`. */
export function checkDomain(domain: string): void {
  const reason = domainProblem(domain);
  if (reason !== undefined) throw badRequest(`Invalid domain: ${reason}`);
}

function domainProblem(domain: string): string | undefined {
  if (domain.length === 0) return "Domain can't be empty.";
  if (!domain.includes(".")) return "Domain must have at least one dot (.)";
  if ([...domain].length > 255) return "Domain is too long";
  if (domain.startsWith(".") || domain.endsWith(".")) return "Domain cannot start or end with a dot (.)";
  for (const label of domain.split(".")) {
    if (label === "") return "Consecutive '.' are not allowed.";
    if (label.startsWith("-") || label.endsWith("-")) return "Subdomains cannot start or end with a '-'.";
    if (!/^[a-z0-9-]*$/.test(label)) return "Domain can only have letters, numbers, '.' and '-'s.";
  }
  return undefined;
}

/**
 * Zulip's email_allowed_for_realm without its disposable-address list: when the realm restricts
 * addresses to its domains, the address must be in one (or below one that allows subdomains) and
 * have no "+" in its local part. Returns which rule refuses the address, if any.
 */
export async function emailDomainRefusal(db: Db, realm: RealmRow, email: string): Promise<"outside" | "plus" | undefined> {
  if (!realmSetting(realm, "emails_restricted_to_domains")) return undefined;
  const at = email.lastIndexOf("@");
  if (email.slice(0, at).includes("+")) return "plus";
  const domains = await realmDomainsOfRealm(db, realm.id);
  let domain = email.slice(at + 1).toLowerCase();
  if (domains.some((d) => d.domain === domain)) return undefined;
  const parents = domains.filter((d) => d.allow_subdomains === 1).map((d) => d.domain);
  while (domain.includes(".")) {
    domain = domain.slice(domain.indexOf(".") + 1);
    if (parents.includes(domain)) return undefined;
  }
  return "outside";
}
