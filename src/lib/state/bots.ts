import type { UserRow } from "../../db/queries/users.js";
import { isAdmin } from "../users/roles.js";
import { avatarUrl } from "../users/users.js";
import type { StateSection } from "./types.js";

type BotDict = Record<string, unknown> & { user_id: number };

/**
 * realm_bots (fetch_event_types entry realm_bot): every bot of the realm for administrators, the
 * user's own bots otherwise, active or not (Zulip's get_owned_bot_dicts), with realm_bot events
 * applied.
 */
export const botsSection: StateSection = {
  types: ["realm_bot"],
  async fetch(ctx, user, want, _opts, state) {
    if (!want("realm_bot")) return;
    const me = (await ctx.users.get(user.id)) ?? user;
    const people = await ctx.users.ofRealm(me.realm_id);
    state.realm_bots = people.filter((u) => u.is_bot === 1 && (isAdmin(me) || u.bot_owner_id === me.id)).map(botDict);
  },
  apply(state, event, user) {
    if (!Array.isArray(state.realm_bots)) return;
    const bots = state.realm_bots as BotDict[];
    if (event.type === "realm_bot") {
      const bot = bots.find((b) => b.user_id === event.bot.user_id);
      if (event.op === "add") {
        if (!bot) bots.push({ ...event.bot });
        return;
      }
      if (bot) Object.assign(bot, event.bot);
      return;
    }
    // A user who stops being an administrator keeps only their own bots (Zulip's apply_event).
    if (event.type === "realm_user" && event.op === "update" && event.person.user_id === user.id && typeof event.person.role === "number" && !isAdmin({ role: event.person.role })) {
      state.realm_bots = bots.filter((b) => b.owner_id === user.id);
    }
  },
};

/** One bot as realm_bots lists it; Rookery keeps no default channels and no services for bots. */
export function botDict(bot: UserRow): BotDict {
  return {
    email: bot.email,
    user_id: bot.id,
    full_name: bot.full_name,
    bot_type: bot.bot_type,
    is_active: bot.is_active === 1,
    api_key: bot.api_key,
    default_sending_stream: null,
    default_events_register_stream: null,
    default_all_public_streams: false,
    owner_id: bot.bot_owner_id,
    avatar_url: avatarUrl(bot, false),
    services: [],
  };
}
