import { createHash } from "node:crypto";
import { write, type AppContext } from "../context.js";
import { InviteStatus } from "../db/queries/invites.js";
import { insertPasswordReset, markPasswordResetUsed, passwordResetByDigest, revokePasswordResets } from "../db/queries/password-resets.js";
import { realmById, type RealmRow } from "../db/queries/realms.js";
import { updateUser, userByDeliveryEmail, userById, type UserRow } from "../db/queries/users.js";
import { badRequest } from "../base/errors.js";
import { isStrongPassword } from "../lib/users/passwords.js";
import { hashPassword, randomToken } from "../base/secrets.js";
import { queueMail } from "./mail.js";
import { doEndSessionsOfUser } from "./sessions.js";

/** A reset link works for one day. */
export const PASSWORD_RESET_VALIDITY_MS = 86_400_000;

/** The page a reset link opens (the web flow at /accounts/password/reset/ serves it). */
export function passwordResetUrl(ctx: AppContext, token: string): string {
  return `${ctx.config.externalUrl}/accounts/password/reset/${token}/`;
}

function digest(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * Makes a one-time password-reset link for an active human `user` and returns its URL; the
 * user's earlier links stop working. Only the token's digest is stored.
 */
export async function doStartPasswordReset(ctx: AppContext, user: UserRow): Promise<string> {
  const token = randomToken(32);
  const now = ctx.clock.now();
  await write(ctx, async (tx) => {
    await insertPasswordReset(tx, { realm_id: user.realm_id, user_id: user.id, token_digest: digest(token), created_at: now, expiry_date: now + PASSWORD_RESET_VALIDITY_MS, status: InviteStatus.PENDING });
  });
  return passwordResetUrl(ctx, token);
}

/** Makes a reset link for `user` and mails it to the user's address: "sent", or "queued" (to be tried again). */
export async function sendPasswordResetMail(ctx: AppContext, user: UserRow): Promise<"sent" | "queued"> {
  const realm = await realmById(ctx.db, user.realm_id);
  if (!realm) throw new Error(`user ${user.id} has no realm`);
  const link = await doStartPasswordReset(ctx, user);
  const text = [
    `Hi ${user.full_name},`,
    ``,
    `Someone asked to reset the password of your account (${user.delivery_email}) in ${realm.name} (${ctx.config.externalUrl}).`,
    ``,
    `To choose a new password, open this link within a day:`,
    ``,
    link,
    ``,
    `If it was not you, ignore this email: your password stays as it is.`,
    ``,
  ].join("\n");
  return queueMail(ctx, { to: user.delivery_email, subject: `Reset your password for ${realm.name}`, text, realmId: realm.id });
}

/** The user a reset token opens: undefined when the token is unknown, used, revoked or expired, or the account is deactivated. */
export async function passwordResetUser(ctx: AppContext, token: string): Promise<UserRow | undefined> {
  const reset = await passwordResetByDigest(ctx.db, digest(token));
  if (!reset || reset.status !== InviteStatus.PENDING || reset.expiry_date <= ctx.clock.now()) return undefined;
  const user = await userById(ctx.db, reset.user_id);
  return user && user.is_active && !user.is_bot ? user : undefined;
}

/**
 * Sets a new password through a reset link: the link is used up, with every other link of the
 * user's, and every browser session of the user ends. Refuses a link that no longer works and a password Zulip would call too weak.
 */
export async function completePasswordReset(ctx: AppContext, token: string, newPassword: string): Promise<UserRow> {
  if (!isStrongPassword(newPassword)) throw badRequest("The password is too weak.");
  const passwordHash = await hashPassword(newPassword);
  return write(ctx, async (tx, outbox) => {
    const reset = await passwordResetByDigest(tx, digest(token));
    const user = reset ? await userById(tx, reset.user_id) : undefined;
    if (!reset || reset.status !== InviteStatus.PENDING || reset.expiry_date <= ctx.clock.now() || !user || !user.is_active || user.is_bot) {
      throw badRequest("The password reset link is invalid or has expired.");
    }
    await markPasswordResetUsed(tx, reset.id);
    await revokePasswordResets(tx, user.id);
    await updateUser(tx, user.id, { password_hash: passwordHash });
    // Whoever held the old password is signed out everywhere.
    await doEndSessionsOfUser(tx, outbox, user.id);
    outbox.invalidate({ cache: "user", id: user.id });
    return user;
  });
}

/**
 * The "Forgot your password?" form (POST /accounts/password/reset/): the address gets a reset
 * link when it has an active account in `realm`, and otherwise a note saying it has none (or that
 * it is deactivated), so the page never tells who has an account. Resolves to 0, or to the
 * seconds to wait when the address has had its reset emails for now (2 an hour, 5 a day:
 * Zulip's password_reset_form_by_email), then nothing is sent.
 */
export async function checkRequestPasswordReset(ctx: AppContext, realm: RealmRow, email: string): Promise<number> {
  const wait = await ctx.limits.passwordReset.hit(email.toLowerCase(), ctx.clock.now());
  if (wait > 0) return wait;
  const user = await userByDeliveryEmail(ctx.db, realm.id, email);
  if (user && user.is_active && !user.is_bot) {
    await sendPasswordResetMail(ctx, user);
    return 0;
  }
  const why = user?.is_active === 0 ? `Your account ${email} in that organization has been deactivated.` : `You do not have an account in that organization.`;
  const text = [
    `Somebody (possibly you) requested a new password for ${email} in ${realm.name} (${ctx.config.externalUrl}).`,
    ``,
    why,
    ``,
    `If you did not ask for this, you can safely ignore this email.`,
    ``,
  ].join("\n");
  await queueMail(ctx, { to: email, subject: `Password reset request for ${realm.name}`, text, realmId: realm.id });
  return 0;
}
