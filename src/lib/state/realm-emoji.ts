import { realmEmojiOfRealm } from "../../db/queries/realm-emoji.js";
import { realmEmojiDict } from "../realm/emoji.js";
import type { StateSection } from "./types.js";

/** realm_emoji: the realm's custom emoji keyed by id; an event replaces the whole dictionary. */
export const realmEmojiSection: StateSection = {
  types: ["realm_emoji"],
  async fetch(ctx, user, want, _opts, state) {
    if (!want("realm_emoji")) return;
    state.realm_emoji = realmEmojiDict(await realmEmojiOfRealm(ctx.db, user.realm_id));
  },
  apply(state, event) {
    if (event.type === "realm_emoji" && "realm_emoji" in state) state.realm_emoji = event.realm_emoji;
  },
};
