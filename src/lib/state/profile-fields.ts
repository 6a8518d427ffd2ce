import { profileFieldsOfRealm } from "../../db/queries/profile-fields.js";
import { fieldDict, fieldTypeCatalogue } from "../users/profile-fields.js";
import type { StateSection } from "./types.js";

/** custom_profile_fields and custom_profile_field_types, and the custom_profile_fields event applied to them. */
export const profileFieldSection: StateSection = {
  types: ["custom_profile_fields"],
  async fetch(ctx, user, want, _opts, state) {
    if (!want("custom_profile_fields")) return;
    state.custom_profile_fields = (await profileFieldsOfRealm(ctx.db, user.realm_id)).map(fieldDict);
    state.custom_profile_field_types = fieldTypeCatalogue();
  },
  apply(state, event) {
    if (event.type !== "custom_profile_fields") return;
    state.custom_profile_fields = event.fields;
    // A deleted field's values disappear from every user's profile_data (Zulip's apply_event does the same).
    const ids = new Set(event.fields.map((f) => String(f.id)));
    for (const key of ["realm_users", "realm_non_active_users"]) {
      const people = state[key];
      if (!Array.isArray(people)) continue;
      for (const person of people as Record<string, unknown>[]) {
        const data = person.profile_data;
        if (typeof data !== "object" || data === null) continue;
        for (const id of Object.keys(data)) if (!ids.has(id)) delete (data as Record<string, unknown>)[id];
      }
    }
  },
};
