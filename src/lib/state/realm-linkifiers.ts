import { linkifiersOfRealm } from "../../db/queries/realm-filters.js";
import { linkifierDicts } from "../realm/linkifiers.js";
import type { StateSection } from "./types.js";

/**
 * realm_linkifiers (empty for clients without the linkifier_url_template capability, which get
 * no realm_linkifiers events either) and the legacy realm_filters, always empty since feature
 * level 176: its URL format strings cannot express URL templates.
 */
export const realmLinkifiersSection: StateSection = {
  types: ["realm_linkifiers", "realm_filters"],
  async fetch(ctx, user, want, opts, state) {
    if (want("realm_linkifiers")) {
      state.realm_linkifiers = opts.capabilities.linkifier_url_template ? linkifierDicts(await linkifiersOfRealm(ctx.db, user.realm_id)) : [];
    }
    if (want("realm_filters")) state.realm_filters = [];
  },
  apply(state, event, _user, opts) {
    if (event.type !== "realm_linkifiers" || !("realm_linkifiers" in state) || !opts.capabilities.linkifier_url_template) return;
    state.realm_linkifiers = structuredClone(event.realm_linkifiers);
  },
};
