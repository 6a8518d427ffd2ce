import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import { realmById } from "../db/queries/realms.js";
import {
  activeBotsOwnedBy,
  activeHumanOwnerIds,
  activeUserIds,
  activeUserIdsWithRoles,
  insertUser,
  updateUser,
  userByDeliveryEmail,
  userById,
  type UserRow,
} from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";
import { doEndSessionsOfUser } from "./sessions.js";
import { ApiError, badRequest, ownerRequired, adminRequired, insufficientPermission } from "../base/errors.js";
import { Role } from "../lib/users/roles.js";
import { hashPassword, randomToken } from "../base/secrets.js";
import { apiUser, canSeeDeliveryEmail, dummyEmail, EmailVisibility } from "../lib/users/users.js";
import { initialSettingsFor } from "../lib/users/settings.js";
import { addNewUserToSystemGroups, moveUserToRoleGroups } from "./user-groups.js";
import { doSetSubscriptionsUserActive, subscribeToDefaultStreams } from "./subscriptions.js";
import { welcomeNewUser } from "./onboarding.js";
import { queueMail } from "./mail.js";

/** Every role, highest first. */
const ALL_ROLES = [Role.OWNER, Role.ADMINISTRATOR, Role.MODERATOR, Role.MEMBER, Role.GUEST];

/** What a new account is made of. */
export interface NewUser {
  realmId: number;
  email: string;
  fullName: string;
  password: string | null;
  role: number;
  bot?: { type: number; ownerId: number | null };
  /** false when an invitation chooses the channels instead of the realm's defaults (Zulip's prereg_user streams). */
  defaultSubscriptions?: boolean;
  /**
   * false when the caller welcomes the account itself (at the point of its own flow Zulip does) or
   * not at all: accounts made in bulk, as Zulip's test fixtures are, get no welcome.
   */
  welcome?: boolean;
}

/** The host part of dummy API emails (user<ID>@host). */
export function emailHost(ctx: AppContext): string {
  return new URL(ctx.config.externalUrl).hostname;
}

/** Checks that an address looks like an email and is free in the realm, then creates the account. */
export async function checkCreateUser(ctx: AppContext, input: NewUser): Promise<UserRow> {
  const email = input.email.trim();
  if (!/^[^\s@]+@[^\s@]+\.?[^\s@]*$/.test(email)) throw badRequest("Bad name or username");
  const passwordHash = input.password === null ? null : await hashPassword(input.password);
  return write(ctx, async (tx, outbox) => {
    if (await userByDeliveryEmail(tx, input.realmId, email)) throw badRequest(`Email '${email}' already in use`);
    return doCreateUser(ctx, tx, outbox, { ...input, email }, passwordHash);
  });
}

/**
 * Creates an account. Sends realm_user add to every active user of the realm (each sees the
 * new address only if its visibility allows).
 */
export async function doCreateUser(ctx: AppContext, tx: Db, outbox: Outbox, input: NewUser, passwordHash: string | null): Promise<UserRow> {
  // New accounts (created, invited or bots) start from the realm's defaults for new users.
  const initial = await initialSettingsFor(tx, input.realmId);
  const visibility = initial.emailAddressVisibility;
  const id = await insertUser(tx, {
    realm_id: input.realmId,
    email: input.email,
    delivery_email: input.email,
    full_name: input.fullName,
    password_hash: passwordHash,
    api_key: randomToken(32),
    role: input.role,
    is_active: 1,
    is_bot: input.bot ? 1 : 0,
    bot_type: input.bot ? input.bot.type : null,
    bot_owner_id: input.bot ? input.bot.ownerId : null,
    is_billing_admin: 0,
    date_joined: ctx.clock.now(),
    timezone: "",
    avatar_source: "G",
    avatar_version: 1,
    email_address_visibility: visibility,
    settings: initial.settings,
  });
  if (visibility !== EmailVisibility.EVERYONE) {
    await updateUser(tx, id, { email: dummyEmail(id, emailHost(ctx)) });
  }
  const user = await userById(tx, id);
  if (!user) throw new Error("created user vanished");
  await sendUserAdd(tx, outbox, user);
  await addNewUserToSystemGroups(ctx, tx, outbox, user);
  if (!input.bot && input.defaultSubscriptions !== false) await subscribeToDefaultStreams(tx, outbox, user);
  if (!input.bot && input.welcome !== false) await welcomeNewUser(ctx, tx, outbox, user);
  return user;
}

async function sendUserAdd(tx: Db, outbox: Outbox, user: UserRow): Promise<void> {
  const seeingRoles = ALL_ROLES.filter((role) => canSeeDeliveryEmail({ id: -1, role }, user));
  const hiddenRoles = ALL_ROLES.filter((role) => !seeingRoles.includes(role));
  // A bot has no custom profile fields: its user dict has no profile_data (as in /register).
  const person = (viewer: Pick<UserRow, "id" | "role">) => ({ ...apiUser(user, viewer, { clientGravatar: false }), ...(user.is_bot ? {} : { profile_data: {} }) });
  const seen = { type: "realm_user", op: "add", person: person(user) } as const;
  const hidden = { type: "realm_user", op: "add", person: person({ id: -1, role: hiddenRoles[0] ?? Role.GUEST }) } as const;
  // One realm-wide fan-out for the larger side; the smaller side (by role: few guests, or few
  // administrators) is listed. The new user always sees their own address.
  if (hiddenRoles.length === 0) {
    outbox.sendToRealm(seen, user.realm_id);
  } else if (seeingRoles.includes(Role.MEMBER)) {
    const blind = (await activeUserIdsWithRoles(tx, user.realm_id, hiddenRoles)).filter((id) => id !== user.id);
    outbox.sendToRealm(seen, user.realm_id, blind);
    outbox.send(hidden, blind);
  } else {
    const seeing = [...new Set([...(seeingRoles.length > 0 ? await activeUserIdsWithRoles(tx, user.realm_id, seeingRoles) : []), user.id])];
    outbox.send(seen, seeing);
    outbox.sendToRealm(hidden, user.realm_id, seeing);
  }
}

/**
 * Admin deactivates another user (DELETE /users/{user_id}), with Zulip's checks in order. A null
 * `actor` is the server's operator (the rookery command), who has an owner's rights: the
 * organisation's own rules (its last owner stays) still hold.
 */
export async function checkDeactivateUser(ctx: AppContext, actor: UserRow | null, target: UserRow, comment: string | null): Promise<void> {
  const role = actor?.role ?? Role.OWNER;
  if (role > Role.ADMINISTRATOR) throw insufficientPermission();
  if (target.role === Role.OWNER && role !== Role.OWNER) throw ownerRequired();
  await write(ctx, async (tx, outbox) => {
    const owners = await activeHumanOwnerIds(tx, target.realm_id);
    if (target.role === Role.OWNER && owners.length === 1 && owners[0] === target.id) {
      throw badRequest("Cannot deactivate the only organization owner");
    }
    await doDeactivateUser(ctx, tx, outbox, target);
  });
  if (comment !== null) await sendDeactivationEmail(ctx, target, comment, actor);
}

/** A user deactivates their own account (DELETE /users/me). */
export async function checkDeactivateOwnUser(ctx: AppContext, user: UserRow): Promise<void> {
  await write(ctx, async (tx, outbox) => {
    const active = await activeUserIds(tx, user.realm_id);
    if (active.length === 1) {
      throw new ApiError("Cannot deactivate the only user.", "CANNOT_DEACTIVATE_LAST_USER", 400, { is_last_owner: false, entity: "user" });
    }
    const owners = await activeHumanOwnerIds(tx, user.realm_id);
    if (user.role === Role.OWNER && owners.length === 1) {
      throw new ApiError("Cannot deactivate the only organization owner.", "CANNOT_DEACTIVATE_LAST_USER", 400, {
        is_last_owner: true,
        entity: "organization owner",
      });
    }
    await doDeactivateUser(ctx, tx, outbox, user);
  });
}

/**
 * Deactivates a user and, first, the active bots it owns. Sends realm_user update
 * {user_id, is_active: false} (the level-222 form) to the realm's remaining active users, and
 * realm_bot update to a bot's owner and the administrators.
 */
export async function doDeactivateUser(_ctx: AppContext, tx: Db, outbox: Outbox, user: UserRow): Promise<void> {
  for (const bot of await activeBotsOwnedBy(tx, user.id)) await deactivateOne(tx, outbox, bot);
  await deactivateOne(tx, outbox, user);
}

async function deactivateOne(tx: Db, outbox: Outbox, user: UserRow): Promise<void> {
  await updateUser(tx, user.id, { is_active: 0 });
  // Its browsers are signed out: their next /json call is a 401 (its event queues end below).
  await doEndSessionsOfUser(tx, outbox, user.id);
  await doSetSubscriptionsUserActive(tx, outbox, user, false);
  outbox.invalidate({ cache: "user", id: user.id });
  // The remaining active users: one realm-wide entry, not the whole organisation read in the transaction.
  outbox.sendToRealm({ type: "realm_user", op: "update", person: { user_id: user.id, is_active: false } }, user.realm_id, [user.id]);
  if (user.is_bot) outbox.send({ type: "realm_bot", op: "update", bot: { user_id: user.id, is_active: false } }, await botAudience(tx, user));
}

async function sendDeactivationEmail(ctx: AppContext, user: UserRow, comment: string, actor: UserRow | null): Promise<void> {
  const realm = await realmById(ctx.db, user.realm_id);
  const realmName = realm?.name ?? "your organization";
  const lines = [
    `Your Rookery account on ${realmName} (${ctx.config.externalUrl}) has been deactivated.`,
    "You will no longer be able to log in.",
  ];
  if (comment.length > 0) lines.push("", "The administrators provided the following comment:", "", comment);
  await queueMail(ctx, { to: user.delivery_email, subject: `Notification of account deactivation on ${realmName}`, text: lines.join("\n") + "\n", realmId: user.realm_id, ...(actor ? { senderId: actor.id } : {}) });
}

/** Admin reactivates a user (POST /users/{user_id}/reactivate); a null `actor` is the server's operator. */
export async function checkReactivateUser(ctx: AppContext, actor: UserRow | null, target: UserRow): Promise<void> {
  if (actor && actor.role > Role.ADMINISTRATOR && !(target.is_bot && target.bot_owner_id === actor.id)) throw insufficientPermission();
  if (target.is_active) throw badRequest("User is already active");
  await write(ctx, async (tx, outbox) => {
    await updateUser(tx, target.id, { is_active: 1 });
    await doSetSubscriptionsUserActive(tx, outbox, target, true);
    outbox.invalidate({ cache: "user", id: target.id });
    outbox.sendToRealm({ type: "realm_user", op: "update", person: { user_id: target.id, is_active: true } }, target.realm_id);
    if (target.is_bot) outbox.send({ type: "realm_bot", op: "update", bot: { user_id: target.id, is_active: true } }, await botAudience(tx, target));
  });
}

/**
 * Changes a user's role, with the owner rules; realm_user update {user_id, role} to active users.
 * A null `actor` is the server's operator, with an owner's rights.
 */
export async function checkChangeRole(ctx: AppContext, actor: UserRow | null, target: UserRow, role: number): Promise<void> {
  if (role === target.role) return;
  const actorRole = actor?.role ?? Role.OWNER;
  if ((role === Role.OWNER || target.role === Role.OWNER) && actorRole !== Role.OWNER) throw ownerRequired();
  if (actorRole > Role.ADMINISTRATOR) throw adminRequired();
  await write(ctx, async (tx, outbox) => {
    const owners = await activeHumanOwnerIds(tx, target.realm_id);
    if (target.role === Role.OWNER && owners.length === 1 && owners[0] === target.id) {
      throw badRequest("The owner permission cannot be removed from the only organization owner.");
    }
    await updateUser(tx, target.id, { role });
    outbox.invalidate({ cache: "user", id: target.id });
    outbox.sendToRealm({ type: "realm_user", op: "update", person: { user_id: target.id, role } }, target.realm_id);
    await moveUserToRoleGroups(ctx, tx, outbox, target, role);
  });
}

/** Changes a user's full name; realm_user update {user_id, full_name} (and realm_bot update for bots). */
export async function doChangeFullName(ctx: AppContext, target: UserRow, fullName: string): Promise<void> {
  if (fullName === target.full_name) return;
  await write(ctx, async (tx, outbox) => {
    await updateUser(tx, target.id, { full_name: fullName });
    outbox.invalidate({ cache: "user", id: target.id });
    // Every active user: one realm-wide entry, not the whole organisation read in the transaction.
    outbox.sendToRealm({ type: "realm_user", op: "update", person: { user_id: target.id, full_name: fullName } }, target.realm_id);
    if (target.is_bot) outbox.send({ type: "realm_bot", op: "update", bot: { user_id: target.id, full_name: fullName } }, await botAudience(tx, target));
  });
}

/** Who hears of a bot's changes (realm_bot): its owner and the administrators, active ones only, in id order. */
export async function botAudience(tx: Db, bot: UserRow): Promise<number[]> {
  const to = await activeUserIdsWithRoles(tx, bot.realm_id, [Role.OWNER, Role.ADMINISTRATOR]);
  if (bot.bot_owner_id === null || to.includes(bot.bot_owner_id)) return to;
  const owner = await userById(tx, bot.bot_owner_id);
  if (!owner?.is_active || owner.is_system_bot || owner.realm_id !== bot.realm_id) return to;
  return [...to, owner.id].sort((a, b) => a - b);
}

/** Gives a user a new API key; the old one stops working at once. */
export async function doRegenerateApiKey(ctx: AppContext, user: UserRow): Promise<string> {
  const apiKey = randomToken(32);
  await write(ctx, async (tx, outbox) => {
    await updateUser(tx, user.id, { api_key: apiKey });
    outbox.invalidate({ cache: "user", id: user.id });
  });
  return apiKey;
}
