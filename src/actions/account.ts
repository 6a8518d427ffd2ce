import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import { emailChangeByKey, insertEmailChange, markEmailChangeUsed, revokeEmailChanges } from "../db/queries/email-changes.js";
import { InviteStatus } from "../db/queries/invites.js";
import { realmById, type RealmRow } from "../db/queries/realms.js";
import { updateUser, userByDeliveryEmail, userById, usersOfRealm, type UserRow } from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";
import { badRequest, rateLimited } from "../base/errors.js";
import { isValidEmail } from "../lib/users/invites.js";
import { authenticationKey } from "../lib/users/login.js";
import { isStrongPassword } from "../lib/users/passwords.js";
import { realmProp } from "../lib/realm/props.js";
import { isAdmin } from "../lib/users/roles.js";
import { hashPassword, needsRehash, randomToken, verifyPassword } from "../base/secrets.js";
import { avatarChangePerson, canSeeDeliveryEmail, checkFullName, checkFullNameAvailable, EmailVisibility } from "../lib/users/users.js";
import { doEndSessionsOfUser } from "./sessions.js";
import { InvitationUnusable } from "./signup.js";
import { doChangeFullName } from "./users.js";
import { queueMail } from "./mail.js";

/** Zulip's CONFIRMATION_LINK_DEFAULT_VALIDITY_DAYS: an email-change link works for one day. */
const EMAIL_CHANGE_VALIDITY_MS = 86_400_000;

/** The account fields of PATCH /settings, as sent. */
export interface AccountChanges {
  fullName?: string;
  email?: string;
  oldPassword?: string;
  newPassword?: string;
  /** The session (cookie digest) making the change: a new password ends every other session. */
  keepSession?: string | undefined;
}

/**
 * The account part of PATCH /settings, in Zulip's order: password, then address, then name
 * (silently ignored for non-administrators when the organisation forbids name changes).
 */
export async function checkChangeAccount(ctx: AppContext, user: UserRow, changes: AccountChanges): Promise<void> {
  if (changes.newPassword !== undefined) await checkChangePassword(ctx, user, changes.oldPassword ?? "", changes.newPassword, changes.keepSession);
  if (changes.email !== undefined) await checkStartEmailChange(ctx, user, changes.email);
  if (changes.fullName === undefined || changes.fullName === user.full_name) return;
  const realm = await ctx.realms.get(user.realm_id);
  if (realmProp(realm, "name_changes_disabled") === true && !isAdmin(user)) return;
  const fullName = checkFullName(changes.fullName);
  await checkFullNameAvailable(ctx.db, realm, fullName, user.id);
  await doChangeFullName(ctx, user, fullName);
}

/**
 * Opens an email-change link: the user's delivery_email (and API email when it is public)
 * becomes the new address, the link is used up, and the old address is told. Events as
 * Zulip's do_change_user_delivery_email: delivery_email to those who may see it, the avatar
 * URL to everyone when it is a Gravatar, new_email to everyone when the address is public.
 */
export async function confirmEmailChange(ctx: AppContext, key: string): Promise<{ user: UserRow; oldEmail: string; realm: RealmRow }> {
  const now = ctx.clock.now();
  const done = await write(ctx, async (tx, outbox) => {
    const change = await emailChangeByKey(tx, key);
    if (!change) throw new InvitationUnusable("unknown");
    if (change.status !== InviteStatus.PENDING || change.expiry_date <= now) throw new InvitationUnusable("expired");
    const user = await userById(tx, change.user_id);
    const realm = await realmById(tx, change.realm_id);
    if (!user || !realm || realm.deactivated) throw new InvitationUnusable("unknown");
    if (user.delivery_email !== change.old_email) throw new InvitationUnusable("expired");
    await validateEmailChange(tx, realm, user, change.new_email);
    await markEmailChangeUsed(tx, change.id);
    const changed = await doChangeDeliveryEmail(tx, outbox, user, change.new_email);
    outbox.invalidate({ cache: "user", id: user.id });
    return { user: changed, oldEmail: change.old_email, realm };
  });
  await sendEmailChangedNotice(ctx, done.user, done.oldEmail, done.realm);
  return done;
}

/**
 * The server's operator changes a user's address at once (the rookery command change-email):
 * Zulip's checks on the new address (an operator may change it where the organisation forbids
 * changes), the events of a confirmed change, the user's pending change requests revoked, and a
 * notice to the old address.
 */
export async function doOperatorEmailChange(ctx: AppContext, user: UserRow, rawEmail: string): Promise<UserRow> {
  const newEmail = rawEmail.trim();
  const realm = await realmById(ctx.db, user.realm_id);
  if (!realm) throw new Error(`user ${user.id} has no realm`);
  const changed = await write(ctx, async (tx, outbox) => {
    await validateEmailChange(tx, realm, user, newEmail, true);
    await revokeEmailChanges(tx, user.id);
    const row = await doChangeDeliveryEmail(tx, outbox, user, newEmail);
    outbox.invalidate({ cache: "user", id: user.id });
    return row;
  });
  await sendEmailChangedNotice(ctx, changed, user.delivery_email, realm);
  return changed;
}

/** Tells the old address of an account that its address has changed. */
async function sendEmailChangedNotice(ctx: AppContext, user: UserRow, oldEmail: string, realm: RealmRow): Promise<void> {
  const text = [
    `Hi ${user.full_name},`,
    ``,
    `The email address of your account in ${realm.name} (${ctx.config.externalUrl}) has been changed to ${user.delivery_email}.`,
    ``,
    `If you did not make this change, contact an administrator of the organization right away.`,
    ``,
  ].join("\n");
  try {
    await queueMail(ctx, { to: oldEmail, subject: `Email address changed for ${realm.name}`, text, realmId: realm.id });
  } catch (error) {
    ctx.log.error({ err: error, user: user.id }, "email-change notice could not be sent");
  }
}

/**
 * PATCH /settings new_password: the old password must be right (wrong attempts count against
 * the address, 5 per 30 minutes, and a right one clears them), the new one strong enough. No
 * event. Every browser session of the user ends but `keepSession` (as Zulip's session auth hash
 * does); API keys stay valid.
 */
async function checkChangePassword(ctx: AppContext, user: UserRow, oldPassword: string, newPassword: string, keepSession: string | undefined): Promise<void> {
  const key = authenticationKey(user.realm_id, user.delivery_email);
  const wait = await ctx.limits.authentication.hit(key, ctx.clock.now());
  if (wait > 0) throw badRequest(`You're making too many attempts! Try again in ${Math.floor(wait)} seconds.`);
  if (oldPassword === "" || !(await verifyPassword(oldPassword, user.password_hash))) throw badRequest("Wrong password!");
  await ctx.limits.authentication.clear(key);
  if (!isStrongPassword(newPassword)) throw badRequest("New password is too weak!");
  const passwordHash = await hashPassword(newPassword);
  await write(ctx, async (tx, outbox) => {
    await updateUser(tx, user.id, { password_hash: passwordHash });
    await doEndSessionsOfUser(tx, outbox, user.id, keepSession);
    outbox.invalidate({ cache: "user", id: user.id });
  });
}

/**
 * PATCH /settings email: nothing changes yet. The request is checked, recorded (revoking the
 * user's earlier ones) and a confirmation link is mailed to the new address; opening it makes
 * the change (confirmEmailChange). Limited to 2 requests an hour and 5 a day per user.
 */
async function checkStartEmailChange(ctx: AppContext, user: UserRow, rawEmail: string): Promise<void> {
  const newEmail = rawEmail.trim();
  if (newEmail === user.delivery_email) return;
  const realm = await ctx.realms.get(user.realm_id);
  if (!realm) throw new Error(`user ${user.id} has no realm`);
  await validateEmailChange(ctx.db, realm, user, newEmail);
  const now = ctx.clock.now();
  const wait = await ctx.limits.emailChange.hit(String(user.id), now);
  if (wait > 0) throw rateLimited(wait);
  const key = randomToken(24);
  await write(ctx, async (tx) => {
    await insertEmailChange(tx, {
      realm_id: realm.id,
      user_id: user.id,
      old_email: user.delivery_email,
      new_email: newEmail,
      key,
      created_at: now,
      expiry_date: now + EMAIL_CHANGE_VALIDITY_MS,
      status: InviteStatus.PENDING,
    });
  });
  const link = `${ctx.config.externalUrl}/accounts/confirm_new_email/${key}/`;
  const text = [
    `Hi ${user.full_name},`,
    ``,
    `Someone asked to change the email address of your account in ${realm.name} (${ctx.config.externalUrl}) from ${user.delivery_email} to ${newEmail}.`,
    ``,
    `If that was you, open this link within a day to confirm the new address:`,
    ``,
    link,
    ``,
    `If it was not you, ignore this email: your address stays as it is.`,
    ``,
  ].join("\n");
  try {
    await queueMail(ctx, { to: newEmail, subject: `Confirm your new email address for ${realm.name}`, text, realmId: realm.id, senderId: user.id });
  } catch (error) {
    ctx.log.error({ err: error, user: user.id }, "email-change confirmation could not be sent");
  }
}

/** Stores a new delivery address and queues the realm_user updates; returns the changed row. */
async function doChangeDeliveryEmail(tx: Db, outbox: Outbox, user: UserRow, newEmail: string): Promise<UserRow> {
  const isPublic = user.email_address_visibility === EmailVisibility.EVERYONE;
  const changed: UserRow = { ...user, delivery_email: newEmail, email: isPublic ? newEmail : user.email };
  await updateUser(tx, user.id, isPublic ? { delivery_email: newEmail, email: newEmail } : { delivery_email: newEmail });
  const active = (await usersOfRealm(tx, user.realm_id)).filter((u) => u.is_active);
  const everyone = active.map((u) => u.id);
  const viewers = active.filter((v) => canSeeDeliveryEmail(v, user)).map((u) => u.id);
  outbox.send({ type: "realm_user", op: "update", person: { user_id: user.id, delivery_email: newEmail } }, viewers);
  if (user.avatar_source === "G") outbox.send({ type: "realm_user", op: "update", person: avatarChangePerson(changed) }, everyone);
  if (isPublic) outbox.send({ type: "realm_user", op: "update", person: { user_id: user.id, new_email: newEmail } }, everyone);
  return changed;
}

/** Zulip's validate_email_change_request, with its texts. */
async function validateEmailChange(db: Db, realm: RealmRow, user: UserRow, email: string, byOperator = false): Promise<void> {
  if (realmProp(realm, "email_changes_disabled") === true && !isAdmin(user) && !byOperator) {
    throw badRequest("Email address changes are disabled in this organization.");
  }
  if (!isValidEmail(email)) throw badRequest("Invalid address.");
  const existing = await userByDeliveryEmail(db, realm.id, email);
  if (!existing) return;
  if (existing.is_system_bot) throw badRequest("Reserved for system bots.");
  throw badRequest(existing.is_active ? "Already has an account." : "Account has been deactivated.");
}

/**
 * After a successful password login: a password still stored in another format (a Django hash
 * brought by `rookery import`) is stored again in Rookery's, so each imported hash is read once.
 */
export async function doUpgradePasswordHash(ctx: AppContext, user: UserRow, password: string): Promise<void> {
  if (!needsRehash(user.password_hash)) return;
  const passwordHash = await hashPassword(password);
  await write(ctx, async (tx, outbox) => {
    await updateUser(tx, user.id, { password_hash: passwordHash });
    outbox.invalidate({ cache: "user", id: user.id });
  });
}
