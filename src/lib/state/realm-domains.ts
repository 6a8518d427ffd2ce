import { realmDomainsOfRealm } from "../../db/queries/realm-domains.js";
import type { RealmDomainDict } from "../../events/types.js";
import { realmDomainDict } from "../realm/domains.js";
import type { StateSection } from "./types.js";

/** realm_domains: the email domains new users may sign up from, and realm_domains events applied to them. */
export const realmDomainsSection: StateSection = {
  types: ["realm_domains"],
  async fetch(ctx, user, want, _opts, state) {
    if (!want("realm_domains")) return;
    state.realm_domains = (await realmDomainsOfRealm(ctx.db, user.realm_id)).map(realmDomainDict);
  },
  apply(state, event) {
    if (event.type !== "realm_domains" || !Array.isArray(state.realm_domains)) return;
    const domains = state.realm_domains as RealmDomainDict[];
    if (event.op === "remove") {
      state.realm_domains = domains.filter((d) => d.domain !== event.domain);
      return;
    }
    const entry = domains.find((d) => d.domain === event.realm_domain.domain);
    if (event.op === "add") domains.push({ ...event.realm_domain });
    else if (entry) entry.allow_subdomains = event.realm_domain.allow_subdomains;
  },
};
