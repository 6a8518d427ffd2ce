import { checkUpdatePresence } from "../actions/presence.js";
import { checkUpdateStatus } from "../actions/status.js";
import { statusOf } from "../db/queries/user-status.js";
import { endpoint } from "../http/endpoint.js";
import { badRequest, noSuchUser } from "../base/errors.js";
import { bool, int, pathInt, str } from "../http/params.js";
import { requireHuman } from "../http/human.js";
import { OFFLINE_THRESHOLD_SECS } from "../caches/presence.js";
import { legacyPresence, realmPresences } from "../lib/users/presence.js";
import { realmProp } from "../lib/realm/props.js";
import { userSetting } from "../lib/users/settings.js";
import { formatStatus } from "../lib/users/status.js";
import { accessUserByEmail, accessUserById } from "../lib/users/users.js";

/** Presence (report, read one, read the realm) and user status. */
export const presenceEndpoints = [
  endpoint({
    method: "POST",
    path: "/users/me/presence",
    params: {
      status: str(),
      ping_only: bool().default(false),
      new_user_input: bool().default(false),
      slim_presence: bool().default(false),
      last_update_id: int().optional(),
    },
    async handler({ ctx, user, params }) {
      requireHuman(user);
      // new_user_input feeds Zulip's activity analytics, which this server does not keep.
      return checkUpdatePresence(ctx, user, {
        status: params.status,
        pingOnly: params.ping_only,
        slimPresence: params.slim_presence,
        lastUpdateId: params.last_update_id,
      });
    },
  }),
  endpoint({
    method: "GET",
    path: "/users/:user/presence",
    params: {},
    async handler({ ctx, user, path }) {
      const key = path.user ?? "";
      const target = /^\d+$/.test(key)
        ? await accessUserById(ctx.db, user, pathInt(key), { allowDeactivated: false, allowBots: true }).catch(() => undefined)
        : await accessUserByEmail(ctx.db, user, key).catch(() => undefined);
      if (!target || !target.is_active) throw noSuchUser();
      if (target.is_bot) throw badRequest("Presence is not supported for bot users.");
      const entry = (await ctx.presence.realm(target.realm_id)).entries.get(target.id);
      if (!entry) throw badRequest(`No presence data for ${key}`);
      const { aggregated, website } = legacyPresence(entry, target);
      const now = Math.floor(ctx.clock.now() / 1000);
      const status = now - aggregated.timestamp > OFFLINE_THRESHOLD_SECS ? "offline" : aggregated.status;
      return {
        presence: {
          aggregated: { status, timestamp: aggregated.timestamp },
          website: { status: website.status, timestamp: website.timestamp },
        },
      };
    },
  }),
  endpoint({
    method: "GET",
    path: "/realm/presence",
    params: {},
    async handler({ ctx, user }) {
      const realm = await ctx.realms.get(user.realm_id);
      const disabled = realmProp(realm, "presence_disabled") === true;
      const { presences } = await realmPresences(ctx, user, { modern: false, lastUpdateId: undefined, asText: true }, disabled);
      return { presences, server_timestamp: ctx.clock.now() / 1000 };
    },
  }),
  endpoint({
    method: "POST",
    path: "/users/me/status",
    params: {
      away: bool().optional(),
      status_text: str().optional(),
      emoji_name: str().optional(),
      emoji_code: str().optional(),
      reaction_type: str().optional(),
    },
    async handler({ ctx, user, params }) {
      requireHuman(user);
      await checkUpdateStatus(ctx, user, {
        away: params.away,
        statusText: params.status_text,
        emojiName: params.emoji_name,
        emojiCode: params.emoji_code,
        reactionType: params.reaction_type,
      });
      return {};
    },
  }),
  endpoint({
    method: "GET",
    path: "/users/:user/status",
    params: {},
    async handler({ ctx, user, path }) {
      const target = await accessUserById(ctx.db, user, pathInt(path.user), { allowDeactivated: false, allowBots: false });
      return { status: formatStatus(await statusOf(ctx.db, target.id), userSetting(target, "presence_enabled") === true) };
    },
  }),
];
