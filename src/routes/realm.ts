import { checkAddRealmDomain, checkChangeRealmDomain, checkRemoveRealmDomain } from "../actions/realm-domains.js";
import { checkUpdateRealm } from "../actions/realm-settings.js";
import { realmDomainsOfRealm } from "../db/queries/realm-domains.js";
import type { UserRow } from "../db/queries/users.js";
import { endpoint } from "../http/endpoint.js";
import { adminRequired, missingArgument, ownerRequired } from "../base/errors.js";
import { decodeJson, isBool, str, type Param } from "../http/params.js";
import { realmDomainDict } from "../lib/realm/domains.js";
import { decodeRealmSetting, REALM_SETTINGS, type DecodedSettingValue } from "../lib/realm/settings.js";
import { isAdmin, Role } from "../lib/users/roles.js";

// Parameters are taken raw and decoded in the handler: Zulip refuses callers without the role
// before it reads the values.
const rawSettings: Record<string, Param<string | undefined>> = Object.fromEntries(REALM_SETTINGS.map((s) => [s.name, str().optional()]));

/** The organisation's settings (PATCH /realm) and the email domains new users may sign up from. */
export const realmEndpoints = [
  endpoint({
    method: "PATCH",
    path: "/realm",
    params: rawSettings,
    async handler({ ctx, user, params }) {
      if (!isAdmin(user)) throw adminRequired();
      const changes = new Map<string, DecodedSettingValue>();
      for (const def of REALM_SETTINGS) {
        const raw = params[def.name];
        if (raw !== undefined) changes.set(def.name, decodeRealmSetting(def, raw));
      }
      return checkUpdateRealm(ctx, user, changes);
    },
  }),
  endpoint({
    method: "GET",
    path: "/realm/domains",
    params: {},
    async handler({ ctx, user }) {
      return { domains: (await realmDomainsOfRealm(ctx.db, user.realm_id)).map(realmDomainDict) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/realm/domains",
    params: { allow_subdomains: str().optional(), domain: str().optional() },
    async handler({ ctx, user, params }) {
      requireOwner(user);
      const allowSubdomains = readFlag(params.allow_subdomains);
      if (params.domain === undefined) throw missingArgument("domain");
      return { new_domain: await checkAddRealmDomain(ctx, user, params.domain, allowSubdomains) };
    },
  }),
  endpoint({
    method: "PATCH",
    path: "/realm/domains/:domain",
    params: { allow_subdomains: str().optional() },
    async handler({ ctx, user, params, path }) {
      requireOwner(user);
      await checkChangeRealmDomain(ctx, user, path.domain ?? "", readFlag(params.allow_subdomains));
      return {};
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/realm/domains/:domain",
    params: {},
    async handler({ ctx, user, path }) {
      requireOwner(user);
      await checkRemoveRealmDomain(ctx, user, path.domain ?? "");
      return {};
    },
  }),
];

function requireOwner(user: UserRow): void {
  if (user.role !== Role.OWNER) throw ownerRequired();
}

function readFlag(raw: string | undefined): boolean {
  if (raw === undefined) throw missingArgument("allow_subdomains");
  return isBool(decodeJson(raw, "allow_subdomains"), "allow_subdomains");
}
