import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import {
  deleteInvite,
  insertInvite,
  insertMultiuse,
  InviteStatus,
  inviteById,
  invitesSentSince,
  multiuseById,
  revokeMultiuse,
  updateInvite,
  type InviteRow,
} from "../db/queries/invites.js";
import type { RealmRow } from "../db/queries/realms.js";
import { userByDeliveryEmail, usersOfRealm, type UserRow } from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";
import { ApiError, badRequest, insufficientPermission } from "../base/errors.js";
import {
  canCreateMultiuseInvite,
  canInviteToRealm,
  canSubscribeOthers,
  checkRoleBasedPermissions,
  isValidEmail,
  joinUrl,
  parseInviteeEmails,
} from "../lib/users/invites.js";
import { isAdmin } from "../lib/users/roles.js";
import { randomToken } from "../base/secrets.js";
import { accessStreamById } from "../lib/channels/streams.js";
import { realmSetting } from "../lib/realm/props.js";
import { emailDomainRefusal } from "../lib/realm/domains.js";
import { requireMemberOrAdmin } from "../lib/groups/user-groups.js";
import { queueMail } from "./mail.js";

/** What POST /invites and POST /invites/multiuse share, decoded. */
export interface InviteOptions {
  expiresInMinutes: number | null;
  inviteAs: number;
  streamIds: number[];
  includeRealmDefaultSubscriptions: boolean;
}

/** Why an address outside the realm's allowed domains is not invited (Zulip's validate_email_is_valid). */
const DOMAIN_REFUSALS: Readonly<Record<string, string>> = { outside: "Outside your domain.", plus: "Email addresses containing + are not allowed." };

/** Zulip's INVITES_MIN_USER_AGE_DAYS: in open realms, younger accounts may not invite. */
const MIN_INVITER_AGE_MS = 3 * 86_400_000;
const DAILY_LIMIT_MSG =
  "To protect users, Zulip limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.";

/**
 * POST /invites: Zulip's checks in order, then one pending invitation per good address, each
 * emailed after the commit. invites_changed goes to the administrators and the inviter. Partial
 * failures are INVITATION_FAILED errors, even when some invitations were sent.
 */
export async function checkInviteUsers(ctx: AppContext, actor: UserRow, emailsRaw: string, opts: InviteOptions & { notifyReferrerOnJoin: boolean }): Promise<void> {
  const realm = await realmOf(ctx, actor);
  const now = ctx.clock.now();
  requireMemberOrAdmin(actor);
  if (!canInviteToRealm(actor, realm, now)) throw insufficientPermission();
  checkRoleBasedPermissions(opts.inviteAs, actor, false);
  const emails = parseInviteeEmails(emailsRaw);
  if (emails.length === 0) throw badRequest("You must specify at least one email address.");
  await checkInviteStreams(ctx, actor, realm, opts.streamIds);
  const created = await write(ctx, async (tx, outbox) => {
    await checkDailyLimit(tx, realm, emails.length, now);
    if (!realmSetting(realm, "invite_required") && actor.date_joined > now - MIN_INVITER_AGE_MS && !isAdmin(actor)) {
      throw invitationError("Your account is too new to send invites for this organization. Ask an organization admin, or a more experienced user.", [], false);
    }
    const invalid: [string, string, boolean][] = [];
    const validated: string[] = [];
    for (const email of emails) {
      const problem = isValidEmail(email) ? DOMAIN_REFUSALS[(await emailDomainRefusal(tx, realm, email)) ?? ""] : "Invalid address.";
      if (problem === undefined) validated.push(email);
      else invalid.push([email, problem, false]);
    }
    const skipped: [string, string, boolean][] = [];
    for (const email of validated) {
      const existing = await userByDeliveryEmail(tx, realm.id, email);
      if (existing) skipped.push(existing.is_active ? [email, "Already has an account.", false] : [email, "Account has been deactivated.", true]);
    }
    if (invalid.length > 0) throw invitationError("Some emails did not validate, so we didn't send any invitations.", [...invalid, ...skipped], false);
    if (skipped.length === emails.length) throw invitationError("We weren't able to invite anyone.", skipped, false);
    const rows: InviteRow[] = [];
    for (const email of emails.filter((e) => !skipped.some(([s]) => s === e))) {
      const id = await insertInvite(tx, {
        realm_id: realm.id,
        email,
        referred_by_id: actor.id,
        invited_as: opts.inviteAs,
        stream_ids: JSON.stringify(opts.streamIds),
        include_realm_default_subscriptions: opts.includeRealmDefaultSubscriptions ? 1 : 0,
        notify_referrer_on_join: opts.notifyReferrerOnJoin ? 1 : 0,
        key: randomToken(24),
        invited_at: now,
        expiry_date: opts.expiresInMinutes === null ? null : now + opts.expiresInMinutes * 60_000,
        status: InviteStatus.PENDING,
        created_user_id: null,
      });
      const row = await inviteById(tx, id);
      if (row) rows.push(row);
    }
    await notifyInvitesChanged(tx, outbox, realm.id, actor.id);
    return { rows, skipped };
  });
  for (const row of created.rows) await sendInvitationEmail(ctx, realm, actor, row);
  if (created.skipped.length > 0) {
    throw invitationError(
      "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
      created.skipped,
      true,
    );
  }
}

/** POST /invites/multiuse: a reusable link; invites_changed to the administrators and the creator. */
export async function checkCreateMultiuseInvite(ctx: AppContext, actor: UserRow, opts: InviteOptions): Promise<string> {
  const realm = await realmOf(ctx, actor);
  requireMemberOrAdmin(actor);
  if (!canCreateMultiuseInvite(await ctx.groups.of(realm.id), actor, realm)) throw insufficientPermission();
  checkRoleBasedPermissions(opts.inviteAs, actor, false);
  await checkInviteStreams(ctx, actor, realm, opts.streamIds);
  const now = ctx.clock.now();
  const key = randomToken(24);
  await write(ctx, async (tx, outbox) => {
    await insertMultiuse(tx, {
      realm_id: realm.id,
      referred_by_id: actor.id,
      invited_as: opts.inviteAs,
      stream_ids: JSON.stringify(opts.streamIds),
      include_realm_default_subscriptions: opts.includeRealmDefaultSubscriptions ? 1 : 0,
      key,
      created_at: now,
      expiry_date: opts.expiresInMinutes === null ? null : now + opts.expiresInMinutes * 60_000,
      status: InviteStatus.PENDING,
    });
    await notifyInvitesChanged(tx, outbox, realm.id, actor.id);
  });
  return joinUrl(ctx.config.externalUrl, key);
}

/** DELETE /invites/{id}: the invitation is deleted; invites_changed to the administrators and its creator. */
export async function checkRevokeInvite(ctx: AppContext, actor: UserRow, inviteId: number): Promise<void> {
  requireMemberOrAdmin(actor);
  await write(ctx, async (tx, outbox) => {
    const invite = await accessInvite(tx, actor, inviteId);
    await deleteInvite(tx, invite.id);
    await notifyInvitesChanged(tx, outbox, invite.realm_id, invite.referred_by_id);
  });
}

/** POST /invites/{id}/resend: a fresh link with the same expiry date, emailed again; counts against the daily limit. */
export async function checkResendInvite(ctx: AppContext, actor: UserRow, inviteId: number): Promise<void> {
  requireMemberOrAdmin(actor);
  const realm = await realmOf(ctx, actor);
  const now = ctx.clock.now();
  const invite = await write(ctx, async (tx) => {
    const found = await accessInvite(tx, actor, inviteId);
    await checkDailyLimit(tx, realm, 1, now);
    await updateInvite(tx, found.id, { key: randomToken(24), invited_at: now });
    return inviteById(tx, found.id);
  });
  const referrer = invite ? await ctx.users.get(invite.referred_by_id) : undefined;
  if (invite && referrer) await sendInvitationEmail(ctx, realm, referrer, invite);
}

/** DELETE /invites/multiuse/{id}: revokes a reusable link; invites_changed to the administrators and its creator. */
export async function checkRevokeMultiuseInvite(ctx: AppContext, actor: UserRow, inviteId: number): Promise<void> {
  requireMemberOrAdmin(actor);
  await write(ctx, async (tx, outbox) => {
    const invite = await multiuseById(tx, inviteId);
    if (!invite || invite.realm_id !== actor.realm_id) throw badRequest("No such invitation");
    if (invite.referred_by_id !== actor.id) checkRoleBasedPermissions(invite.invited_as, actor, true);
    if (invite.status === InviteStatus.REVOKED) throw badRequest("Invitation has already been revoked");
    await revokeMultiuse(tx, invite.id);
    await notifyInvitesChanged(tx, outbox, invite.realm_id, invite.referred_by_id);
  });
}

/** invites_changed to the realm's active administrators (bots included, as Zulip does) and the invitation's creator. */
export async function notifyInvitesChanged(tx: Db, outbox: Outbox, realmId: number, referrerId: number | null): Promise<void> {
  const admins = (await usersOfRealm(tx, realmId)).filter((u) => u.is_active && isAdmin(u)).map((u) => u.id);
  const recipients = referrerId === null || admins.includes(referrerId) ? admins : [...admins, referrerId];
  outbox.send({ type: "invites_changed" }, recipients);
}

async function accessInvite(tx: Db, actor: UserRow, inviteId: number): Promise<InviteRow> {
  const invite = await inviteById(tx, inviteId);
  if (!invite || invite.realm_id !== actor.realm_id || invite.status !== InviteStatus.PENDING) throw badRequest("No such invitation");
  if (invite.referred_by_id !== actor.id) checkRoleBasedPermissions(invite.invited_as, actor, true);
  return invite;
}

async function checkInviteStreams(ctx: AppContext, actor: UserRow, realm: RealmRow, streamIds: number[]): Promise<void> {
  for (const id of streamIds) {
    try {
      await accessStreamById(ctx.db, actor, id);
    } catch (error) {
      if (error instanceof ApiError) throw badRequest(`Invalid channel ID ${id}. No invites were sent.`);
      throw error;
    }
  }
  if (streamIds.length > 0 && !canSubscribeOthers(actor, realm, ctx.clock.now())) {
    throw badRequest("You do not have permission to subscribe other users to channels.");
  }
}

async function checkDailyLimit(tx: Db, realm: RealmRow, count: number, now: number): Promise<void> {
  const recent = await invitesSentSince(tx, realm.id, now - 86_400_000);
  if (recent + count > realmSetting(realm, "max_invites")) throw invitationError(DAILY_LIMIT_MSG, [], false, { daily_limit_reached: true });
}

function invitationError(msg: string, errors: [string, string, boolean][], sent: boolean, flags: { daily_limit_reached?: boolean } = {}): ApiError {
  return new ApiError(msg, "INVITATION_FAILED", 400, {
    errors,
    sent_invitations: sent,
    license_limit_reached: false,
    daily_limit_reached: flags.daily_limit_reached ?? false,
  });
}

async function realmOf(ctx: AppContext, user: UserRow): Promise<RealmRow> {
  const realm = await ctx.realms.get(user.realm_id);
  if (!realm) throw new Error(`user ${user.id} has no realm`);
  return realm;
}

/** Emails one invitation; a mail failure is logged, not fatal: the invitation exists and can be resent. */
async function sendInvitationEmail(ctx: AppContext, realm: RealmRow, referrer: UserRow, invite: InviteRow): Promise<void> {
  const link = joinUrl(ctx.config.externalUrl, invite.key);
  const expiry = invite.expiry_date === null ? "This invitation does not expire." : `This invitation expires on ${new Date(invite.expiry_date).toUTCString()}.`;
  const text = [
    `Hi there,`,
    ``,
    `${referrer.full_name} (${referrer.delivery_email}) wants you to join them in ${realm.name}, at ${ctx.config.externalUrl}.`,
    ``,
    `To get started, open this link and choose your name and password:`,
    ``,
    link,
    ``,
    expiry,
    ``,
  ].join("\n");
  try {
    await queueMail(ctx, { to: invite.email, subject: `${referrer.full_name} invited you to join ${realm.name}`, text, realmId: realm.id, senderId: referrer.id });
  } catch (error) {
    ctx.log.error({ err: error, invite: invite.id }, "invitation email could not be sent");
  }
}
