import { starredMessageIds } from "../../db/queries/messages.js";
import { Flag } from "../messages/flags.js";
import type { StateSection } from "./types.js";

// Zulip's get_starred_message_ids returns at most this many.
const MAX_STARRED = 10000;

/** starred_messages, with starring and deletions applied. */
export const starredSection: StateSection = {
  types: ["starred_messages"],
  async fetch(ctx, user, want, _opts, state) {
    if (want("starred_messages")) state.starred_messages = await starredMessageIds(ctx.db, user.id, Flag.starred, MAX_STARRED);
  },
  apply(state, event) {
    if (!Array.isArray(state.starred_messages)) return;
    const starred = state.starred_messages as number[];
    if (event.type === "update_message_flags" && event.flag === "starred") {
      const changed = new Set(event.messages);
      const rest = starred.filter((id) => !changed.has(id));
      // Kept in id order, as a fresh /register lists them.
      state.starred_messages = event.op === "add" ? [...rest, ...changed].sort((a, b) => a - b) : rest;
    } else if (event.type === "delete_message") {
      const legacy: unknown = (event as Record<string, unknown>).message_id;
      const gone = new Set(Array.isArray(event.message_ids) ? event.message_ids : typeof legacy === "number" ? [legacy] : []);
      state.starred_messages = starred.filter((id) => !gone.has(id));
    }
  },
};
