import { systemBotsOfRealm } from "../../db/queries/users.js";
import { apiUser, loadProfileData } from "../users/users.js";
import type { StateSection } from "./types.js";

type Person = Record<string, unknown> & { user_id: number };

/** realm_users, realm_non_active_users and cross_realm_bots, and realm_user/realm_bot events applied to them. */
export const realmUserSection: StateSection = {
  types: ["realm_user"],
  async fetch(ctx, user, want, opts, state) {
    if (!want("realm_user")) return;
    const users = await ctx.users.ofRealm(user.realm_id);
    const profileData = await loadProfileData(ctx.db, user.realm_id);
    const all = users.map((u) => apiUser(u, user, { clientGravatar: opts.clientGravatar, profileData }));
    state.realm_users = all.filter((u) => u.is_active);
    state.realm_non_active_users = all.filter((u) => !u.is_active);
    // Zulip's get_cross_realm_dicts: formatted as the bot sees itself, without an owner.
    const bots = await systemBotsOfRealm(ctx.db, user.realm_id);
    state.cross_realm_bots = bots.map((bot) => apiUser({ ...bot, bot_owner_id: null }, bot, { clientGravatar: false }));
  },
  apply(state, event, _user, opts) {
    if (event.type !== "realm_user" || !Array.isArray(state.realm_users)) return;
    const active = state.realm_users as Person[];
    const inactive = (state.realm_non_active_users ?? []) as Person[];
    if (event.op === "add") {
      const person = { ...event.person };
      // The event carries the real URL; a client_gravatar client computes Gravatar URLs itself (Zulip's apply_event).
      if (opts.clientGravatar && typeof person.avatar_url === "string" && person.avatar_url.startsWith("https://secure.gravatar.com/")) {
        person.avatar_url = null;
      }
      active.push(person);
      return;
    }
    if (event.op === "remove") {
      state.realm_users = active.filter((p) => p.user_id !== event.person.user_id);
      return;
    }
    const person = event.person;
    const where = active.find((p) => p.user_id === person.user_id) ?? inactive.find((p) => p.user_id === person.user_id);
    if (!where) return;
    const { user_id: _id, ...changes } = person;
    if ("role" in changes) {
      const role = Number(changes.role);
      Object.assign(where, { is_owner: role === 100, is_admin: role <= 200, is_guest: role === 600 });
    }
    if ("new_email" in changes) {
      where.email = changes.new_email;
      delete changes.new_email;
    }
    if ("custom_profile_field" in changes) {
      const field = changes.custom_profile_field as { id: number; value: string | null; rendered_value?: string };
      const data = (where.profile_data ?? {}) as Record<string, unknown>;
      if (field.value === null) delete data[String(field.id)];
      else data[String(field.id)] = field.rendered_value === undefined ? { value: field.value } : { value: field.value, rendered_value: field.rendered_value };
      where.profile_data = data;
      delete changes.custom_profile_field;
    }
    // A client_gravatar client computes the Gravatar of people whose address is public (their API
    // email is not the user<id>@ placeholder); new_email, applied above, already says which.
    const publicAddress = typeof where.email === "string" && !where.email.startsWith(`user${person.user_id}@`);
    if (opts.clientGravatar && publicAddress && typeof changes.avatar_url === "string" && changes.avatar_url.startsWith("https://secure.gravatar.com/")) {
      changes.avatar_url = null;
    }
    // Like Zulip's apply_event: only the fields the person already has (avatar_url_medium is not one).
    for (const [key, value] of Object.entries(changes)) if (key in where) where[key] = value;
    if ("is_active" in changes) {
      state.realm_users = [...active, ...inactive].filter((p) => p.is_active);
      state.realm_non_active_users = [...active, ...inactive].filter((p) => !p.is_active);
    }
  },
};
