/** Bots: list one's own, create, deactivate, regenerate the API key. */
import { checkCreateBot, checkDeactivateBot, doRegenerateBotApiKey } from "../actions/bots.js";
import { badRequest, insufficientPermission } from "../base/errors.js";
import { userById, type UserRow } from "../db/queries/users.js";
import { endpoint } from "../http/endpoint.js";
import { int, pathInt, str } from "../http/params.js";
import { isAdmin } from "../lib/users/roles.js";
import { avatarUrl } from "../lib/users/users.js";
import type { Db } from "../db/index.js";

/** A bot of the caller's realm that the caller owns or administers (Zulip's access_bot_by_id). */
async function accessBot(db: Db, caller: UserRow, id: number): Promise<UserRow> {
  const bot = await userById(db, id);
  if (!bot || bot.realm_id !== caller.realm_id || !bot.is_bot || bot.is_system_bot) throw badRequest("No such bot");
  if (!isAdmin(caller) && bot.bot_owner_id !== caller.id) throw insufficientPermission();
  return bot;
}

export const botEndpoints = [
  endpoint({
    method: "GET",
    path: "/bots",
    params: {},
    async handler({ ctx, user }) {
      const bots = (await ctx.users.ofRealm(user.realm_id)).filter((u) => u.is_bot && u.is_active && u.bot_owner_id === user.id).sort((a, b) => a.id - b.id);
      return {
        bots: bots.map((b) => ({
          username: b.email,
          full_name: b.full_name,
          api_key: b.api_key,
          avatar_url: avatarUrl(b, false),
          default_sending_stream: null,
          default_events_register_stream: null,
          default_all_public_streams: false,
        })),
      };
    },
  }),
  endpoint({
    method: "POST",
    path: "/bots",
    params: { full_name: str(), short_name: str(), bot_type: int().default(1) },
    async handler({ ctx, user, params }) {
      const bot = await checkCreateBot(ctx, user, { fullName: params.full_name, shortName: params.short_name, botType: params.bot_type });
      return {
        user_id: bot.id,
        api_key: bot.api_key,
        avatar_url: avatarUrl(bot, false),
        default_sending_stream: null,
        default_events_register_stream: null,
        default_all_public_streams: false,
      };
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/bots/:bot_id",
    params: {},
    async handler({ ctx, user, path }) {
      const bot = await accessBot(ctx.db, user, pathInt(path.bot_id));
      await checkDeactivateBot(ctx, bot);
      return {};
    },
  }),
  endpoint({
    method: "POST",
    path: "/bots/:bot_id/api_key/regenerate",
    params: {},
    async handler({ ctx, user, path }) {
      const bot = await accessBot(ctx.db, user, pathInt(path.bot_id));
      return { api_key: await doRegenerateBotApiKey(ctx, bot) };
    },
  }),
];
