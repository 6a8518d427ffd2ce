import { playgroundsOfRealm } from "../../db/queries/realm-playgrounds.js";
import { playgroundDicts } from "../realm/playgrounds.js";
import type { StateSection } from "./types.js";

/** realm_playgrounds: the realm's code playgrounds; an event replaces the whole list. */
export const realmPlaygroundsSection: StateSection = {
  types: ["realm_playgrounds"],
  async fetch(ctx, user, want, _opts, state) {
    if (!want("realm_playgrounds")) return;
    state.realm_playgrounds = playgroundDicts(await playgroundsOfRealm(ctx.db, user.realm_id));
  },
  apply(state, event) {
    if (event.type === "realm_playgrounds" && "realm_playgrounds" in state) state.realm_playgrounds = structuredClone(event.realm_playgrounds);
  },
};
