import { alertWordsOf } from "../../db/queries/alert-words.js";
import { draftsOf } from "../../db/queries/drafts.js";
import { statusesOfRealm } from "../../db/queries/user-status.js";
import { activeUserIds } from "../../db/queries/users.js";
import type { DraftObject } from "../../events/types.js";
import { MAX_DRAFTS_IN_REGISTER, apiDraft } from "../messages/drafts.js";
import { mutedUsersList } from "../users/muted-users.js";
import { realmProp } from "../realm/props.js";
import { realmPresences } from "../users/presence.js";
import { userSettings } from "../users/settings.js";
import { formatStatus } from "../users/status.js";
import type { StateSection } from "./types.js";

/** presences, presence_last_update_id and server_timestamp; presence events applied to them. */
export const presenceSection: StateSection = {
  types: ["presence"],
  async fetch(ctx, user, want, opts, state) {
    if (!want("presence")) return;
    const realm = await ctx.realms.get(user.realm_id);
    const disabled = realmProp(realm, "presence_disabled") === true;
    const { presences, lastUpdateId } = await realmPresences(ctx, user, { modern: opts.slimPresence, lastUpdateId: -1 }, disabled);
    state.presences = presences;
    state.presence_last_update_id = lastUpdateId;
    state.server_timestamp = ctx.clock.now() / 1000;
  },
  apply(state, event, _user, opts) {
    if (event.type !== "presence" || !isRecord(state.presences)) return;
    const website = event.presence.website;
    if (!website) return;
    if (opts.slimPresence) {
      // Events are sent for a new row, a return to activity or a forced reset: an active event means
      // both times are now; an idle one comes from a row with no activity, which reads as date_joined.
      state.presences[String(event.user_id)] =
        website.status === "active"
          ? { active_timestamp: website.timestamp, idle_timestamp: website.timestamp }
          : { active_timestamp: joinedSeconds(state, event.user_id) ?? website.timestamp, idle_timestamp: website.timestamp };
    } else {
      const { client, status, timestamp } = website;
      state.presences[event.email] = { aggregated: { client, status, timestamp }, website: { ...website } };
    }
  },
};

/** user_status: every status set in the realm, keyed by user id. */
export const userStatusSection: StateSection = {
  types: ["user_status"],
  async fetch(ctx, user, want, _opts, state) {
    if (!want("user_status")) return;
    const active = new Set(await activeUserIds(ctx.db, user.realm_id));
    const out: Record<string, Record<string, unknown>> = {};
    for (const row of await statusesOfRealm(ctx.db, user.realm_id)) {
      if (!active.has(row.user_id)) continue;
      const owner = await ctx.users.get(row.user_id);
      const status = formatStatus(row, owner ? userSettings(owner).presence_enabled === true : true);
      if (Object.keys(status).length > 0) out[String(row.user_id)] = status;
    }
    state.user_status = out;
  },
  apply(state, event) {
    if (event.type !== "user_status" || !isRecord(state.user_status)) return;
    const key = String(event.user_id);
    const entry: Record<string, unknown> = isRecord(state.user_status[key]) ? { ...state.user_status[key] } : {};
    if (event.away !== undefined) {
      if (event.away) entry.away = true;
      else delete entry.away;
    }
    if (event.status_text !== undefined) {
      if (event.status_text === "") delete entry.status_text;
      else entry.status_text = event.status_text;
    }
    if (event.emoji_name !== undefined) {
      if (event.emoji_name === "") {
        delete entry.emoji_name;
        delete entry.emoji_code;
        delete entry.reaction_type;
      } else {
        Object.assign(entry, { emoji_name: event.emoji_name, emoji_code: event.emoji_code, reaction_type: event.reaction_type });
      }
    }
    if (Object.keys(entry).length > 0) state.user_status[key] = entry;
    else delete state.user_status[key];
  },
};

/** muted_users, drafts and alert_words: the caller's own lists. */
export const ownListsSection: StateSection = {
  types: ["muted_users", "drafts", "alert_words"],
  async fetch(ctx, user, want, _opts, state) {
    if (want("muted_users")) state.muted_users = await mutedUsersList(ctx.db, user.id);
    if (want("alert_words")) state.alert_words = await alertWordsOf(ctx.db, user.id);
    if (want("drafts")) {
      const fresh = (await ctx.users.get(user.id)) ?? user;
      // With synchronisation off the server holds no drafts to report.
      state.drafts = userSettings(fresh).enable_drafts_synchronization === true ? sortDrafts((await draftsOf(ctx.db, user.id, MAX_DRAFTS_IN_REGISTER)).map(apiDraft)) : [];
    }
  },
  apply(state, event) {
    if (event.type === "muted_users" && "muted_users" in state) state.muted_users = event.muted_users.map((m) => ({ ...m }));
    if (event.type === "alert_words" && "alert_words" in state) state.alert_words = [...event.alert_words];
    if (event.type !== "drafts" || !Array.isArray(state.drafts)) return;
    const drafts = state.drafts as DraftObject[];
    let next: DraftObject[];
    if (event.op === "add") next = [...drafts, ...event.drafts.map((d) => ({ ...d }))];
    else if (event.op === "update") next = drafts.map((d) => (d.id === event.draft.id ? { ...event.draft } : d));
    else next = drafts.filter((d) => d.id !== event.draft_id);
    state.drafts = sortDrafts(next);
  },
};

/** A user's date_joined in seconds, from the realm_users of the same state, when fetched. */
function joinedSeconds(state: Record<string, unknown>, userId: number): number | undefined {
  const people = Array.isArray(state.realm_users) ? (state.realm_users as unknown[]) : [];
  const person = people.find((p): p is Record<string, unknown> => isRecord(p) && p.user_id === userId);
  const joined = typeof person?.date_joined === "string" ? Date.parse(person.date_joined) : NaN;
  return Number.isNaN(joined) ? undefined : Math.floor(joined / 1000);
}

/** Oldest edit first, as GET /drafts and /register list them. */
function sortDrafts(drafts: DraftObject[]): DraftObject[] {
  return drafts.sort((a, b) => a.timestamp - b.timestamp || a.id - b.id);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
