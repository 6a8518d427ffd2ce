import type { RealmDomainRow } from "../../db/queries/realm-domains.js";
import type { RealmDomainDict } from "../../events/types.js";
import { badRequest } from "../../http/errors.js";

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
