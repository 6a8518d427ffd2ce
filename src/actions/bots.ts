/** Bots: creation (POST /bots), deactivation (DELETE /bots/{id}) and a new API key (POST /bots/{id}/api_key/regenerate). */
import { write, type AppContext } from "../context.js";
import { adminRequired, badRequest } from "../base/errors.js";
import { randomToken } from "../base/secrets.js";
import type { Db } from "../db/index.js";
import { updateUser, userByDeliveryEmail, usersOfRealm, type UserRow } from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";
import { realmSetting } from "../lib/realm/props.js";
import { botDict } from "../lib/state/bots.js";
import { isAdmin, Role } from "../lib/users/roles.js";
import { checkFullName, checkFullNameAvailable } from "../lib/users/users.js";
import { doCreateUser, doDeactivateUser, emailHost } from "./users.js";

/** Bot types Rookery creates: generic and incoming webhook (it runs no outgoing-webhook or embedded services). */
export const BOT_TYPES = { generic: 1, incomingWebhook: 2 } as const;

/** Who hears of a bot: its owner and the realm's active administrators (Zulip's bot_owner_user_ids). */
async function botAudience(tx: Db, bot: UserRow): Promise<number[]> {
  const active = (await usersOfRealm(tx, bot.realm_id)).filter((u) => u.is_active && !u.is_bot);
  return active.filter((u) => u.id === bot.bot_owner_id || u.role <= Role.ADMINISTRATOR).map((u) => u.id);
}

/** Zulip's checks in its order: the short name, the name, the address free, the name free, the creation policy, the type. */
export async function checkCreateBot(ctx: AppContext, owner: UserRow, input: { fullName: string; shortName: string; botType: number }): Promise<UserRow> {
  if (owner.role === Role.GUEST) throw badRequest("Not allowed for guest users");
  const shortName = input.shortName.trim();
  if (shortName.length === 0) throw badRequest("Bad name or username");
  const fullName = checkFullName(input.fullName);
  const email = `${shortName}-bot@${emailHost(ctx)}`;
  if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw badRequest("Bad name or username");
  const realm = await ctx.realms.get(owner.realm_id);
  if (await userByDeliveryEmail(ctx.db, owner.realm_id, email)) throw badRequest("Username already in use");
  const taken = (await usersOfRealm(ctx.db, owner.realm_id)).some((u) => u.is_bot && u.full_name.toLowerCase() === fullName.toLowerCase());
  if (taken) throw badRequest("Name is already in use!");
  await checkFullNameAvailable(ctx.db, realm, fullName, null);
  const policy = realm ? Number(realmSetting(realm, "bot_creation_policy")) : 1;
  if (!isAdmin(owner) && (policy === 3 || (policy === 2 && input.botType === BOT_TYPES.generic))) throw adminRequired();
  if (input.botType !== BOT_TYPES.generic && input.botType !== BOT_TYPES.incomingWebhook) throw badRequest("Invalid bot type");
  return write(ctx, async (tx, outbox) => {
    if (await userByDeliveryEmail(tx, owner.realm_id, email)) throw badRequest("Username already in use");
    const bot = await doCreateUser(ctx, tx, outbox, { realmId: owner.realm_id, email, fullName, password: null, role: Role.MEMBER, bot: { type: input.botType, ownerId: owner.id }, welcome: false, defaultSubscriptions: false }, null);
    outbox.send({ type: "realm_bot", op: "add", bot: botDict(bot) }, await botAudience(tx, bot));
    return bot;
  });
}

/** Deactivates a bot its owner or an administrator may manage (access checked by the caller). */
export async function checkDeactivateBot(ctx: AppContext, bot: UserRow): Promise<void> {
  await write(ctx, async (tx, outbox) => {
    await doDeactivateUser(ctx, tx, outbox, bot);
  });
}

/** Gives a bot a new API key; its owner and the administrators get realm_bot update {user_id, api_key}. */
export async function doRegenerateBotApiKey(ctx: AppContext, bot: UserRow): Promise<string> {
  const apiKey = randomToken(32);
  await write(ctx, async (tx, outbox: Outbox) => {
    await updateUser(tx, bot.id, { api_key: apiKey });
    outbox.invalidate({ cache: "user", id: bot.id });
    outbox.send({ type: "realm_bot", op: "update", bot: { user_id: bot.id, api_key: apiKey } }, await botAudience(tx, bot));
  });
  return apiKey;
}
