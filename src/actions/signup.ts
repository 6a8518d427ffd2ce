import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import {
  confirmationByKey,
  deletePendingInvitesFor,
  insertConfirmation,
  InviteStatus,
  inviteByKey,
  markConfirmationUsed,
  multiuseByKey,
  updateInvite,
  type InviteRow,
  type MultiuseInviteRow,
  type SignupConfirmationRow,
} from "../db/queries/invites.js";
import { realmById, type RealmRow } from "../db/queries/realms.js";
import { activeStreamsByIds, defaultStreamIds } from "../db/queries/streams.js";
import { userByDeliveryEmail, userById, type UserRow } from "../db/queries/users.js";
import { ApiError, badRequest } from "../base/errors.js";
import { inviteStreamIds, isValidEmail, joinUrl } from "../lib/users/invites.js";
import { isStrongPassword } from "../lib/users/passwords.js";
import { hashPassword, randomToken } from "../base/secrets.js";
import { checkFullName, checkFullNameAvailable } from "../lib/users/users.js";
import { emailDomainRefusal } from "../lib/realm/domains.js";
import { notifyInvitesChanged } from "./invites.js";
import { notifyReferrerOfJoin } from "./notification-bot.js";
import { bulkAddSubscriptions } from "./subscriptions.js";
import { doCreateUser } from "./users.js";
import { welcomeNewUser } from "./onboarding.js";
import { queueMail } from "./mail.js";

/**
 * A usable invitation behind a signup key: an email invitation, a reusable link (which asks for
 * an address), or the confirmation mailed to an address submitted on a reusable link.
 */
export type Invitation =
  | { kind: "email"; invite: InviteRow; realm: RealmRow }
  | { kind: "multiuse"; invite: MultiuseInviteRow; realm: RealmRow }
  | { kind: "confirmation"; invite: SignupConfirmationRow; realm: RealmRow };

/** Why a signup key cannot be used. */
export type InvitationProblem = "unknown" | "expired" | "used" | "revoked";

/** A confirmation link (invitation, email change) that cannot be used, with the text its page shows. */
export class InvitationUnusable extends ApiError {
  constructor(readonly problem: InvitationProblem) {
    super(PROBLEM_TEXT[problem], "BAD_REQUEST", 404);
  }
}

const PROBLEM_TEXT: Record<InvitationProblem, string> = {
  unknown: "Whoops. We couldn't find your confirmation ID!",
  expired: "The confirmation link has expired or been deactivated.",
  used: "This invitation has already been used. If you already have an account, log in instead.",
  revoked: "The confirmation link has expired or been deactivated.",
};

/** Zulip's CONFIRMATION_LINK_DEFAULT_VALIDITY_DAYS: a confirmation mail's link works for a day. */
const CONFIRMATION_VALIDITY_MS = 86_400_000;

/** The invitation behind a key if it can still be used, else InvitationUnusable. */
export async function findInvitation(db: Db, key: string, now: number): Promise<Invitation> {
  const invite = await inviteByKey(db, key);
  if (invite) {
    if (invite.status === InviteStatus.USED) throw new InvitationUnusable("used");
    if (invite.status === InviteStatus.REVOKED) throw new InvitationUnusable("revoked");
    if (invite.expiry_date !== null && invite.expiry_date <= now) throw new InvitationUnusable("expired");
    return { kind: "email", invite, realm: await mustRealm(db, invite.realm_id) };
  }
  const confirmation = await confirmationByKey(db, key);
  if (confirmation) {
    if (confirmation.status === InviteStatus.USED) throw new InvitationUnusable("used");
    if (confirmation.expiry_date <= now) throw new InvitationUnusable("expired");
    return { kind: "confirmation", invite: confirmation, realm: await mustRealm(db, confirmation.realm_id) };
  }
  const link = await multiuseByKey(db, key);
  if (!link) throw new InvitationUnusable("unknown");
  if (link.status === InviteStatus.REVOKED) throw new InvitationUnusable("revoked");
  if (link.expiry_date !== null && link.expiry_date <= now) throw new InvitationUnusable("expired");
  return { kind: "multiuse", invite: link, realm: await mustRealm(db, link.realm_id) };
}

/** What the invitee submits once the address is known: a name and a password. */
export interface SignupForm {
  fullName: string;
  password: string;
}

/** The signup form's words for an address outside the realm's allowed domains (Zulip's HomepageForm). */
const SIGNUP_DOMAIN_REFUSALS = {
  outside: "Your email address, {email}, is not in one of the domains that are allowed to register for accounts in this organization.",
  plus: "Email addresses containing + are not allowed in this organization.",
} as const;

/**
 * A reusable link's first step (Zulip's accounts_home with a multiuse invite): records a pending
 * signup for the address with the link's role and channels, then mails the address a confirmation
 * link that leads to the name and password form. No events: nothing visible exists yet.
 */
export async function requestSignupConfirmation(ctx: AppContext, key: string, rawEmail: string): Promise<string> {
  const email = rawEmail.trim();
  if (!isValidEmail(email)) throw badRequest("Please enter a valid email address.");
  const confirmationKey = randomToken(24);
  const realm = await write(ctx, async (tx) => {
    const invitation = await findInvitation(tx, key, ctx.clock.now());
    if (invitation.kind !== "multiuse") throw new InvitationUnusable("unknown");
    const { invite, realm } = invitation;
    const refusal = await emailDomainRefusal(tx, realm, email);
    if (refusal !== undefined) throw badRequest(SIGNUP_DOMAIN_REFUSALS[refusal].replace("{email}", email));
    if (await userByDeliveryEmail(tx, realm.id, email)) throw badRequest(`${email} already has an account in this organization.`);
    const now = ctx.clock.now();
    await insertConfirmation(tx, {
      realm_id: realm.id,
      email,
      multiuse_invite_id: invite.id,
      invited_as: invite.invited_as,
      stream_ids: invite.stream_ids,
      include_realm_default_subscriptions: invite.include_realm_default_subscriptions,
      key: confirmationKey,
      created_at: now,
      expiry_date: now + CONFIRMATION_VALIDITY_MS,
      status: InviteStatus.PENDING,
    });
    return realm;
  });
  const link = joinUrl(ctx.config.externalUrl, confirmationKey);
  await queueMail(ctx, {
    realmId: realm.id,
    to: email,
    subject: `Activate your account on ${realm.name}`,
    text: [
      `Someone (hopefully you) asked to join ${realm.name} (${ctx.config.externalUrl}) with this address.`,
      "",
      "To choose your name and password and finish creating the account, open this link:",
      `    <${link}>`,
      "",
      "The link works for one day. If you did not ask for this, ignore this email.",
      "",
    ].join("\n"),
  });
  return email;
}

/**
 * Creates the invited account in one transaction: the user with the invited role and the realm's
 * defaults for new users (realm_user add to everyone, system groups), the invitation or
 * confirmation marked used and the address's other pending invitations revoked (invites_changed
 * to the administrators and the inviter), and subscriptions to the invitation's channels plus the
 * realm defaults when it asked for them. A reusable link itself creates nothing: it needs an
 * address confirmed first (requestSignupConfirmation).
 */
export async function acceptInvitation(ctx: AppContext, key: string, form: SignupForm): Promise<UserRow> {
  const first = await findInvitation(ctx.db, key, ctx.clock.now());
  if (first.kind === "multiuse") throw new InvitationUnusable("unknown");
  const fullName = checkFullName(form.fullName);
  if (!isStrongPassword(form.password)) throw badRequest("The password is too weak.");
  const passwordHash = await hashPassword(form.password);
  return write(ctx, async (tx, outbox) => {
    // Checked again inside the transaction: two submissions of one link must not both succeed.
    const invitation = await findInvitation(tx, key, ctx.clock.now());
    if (invitation.kind === "multiuse") throw new InvitationUnusable("unknown");
    const { invite, realm } = invitation;
    const email = invite.email;
    if (await userByDeliveryEmail(tx, realm.id, email)) throw badRequest(`${email} already has an account in this organization.`);
    await checkFullNameAvailable(tx, realm, fullName, null);
    await checkFullNameAvailable(tx, realm, fullName, null);
    const user = await doCreateUser(ctx, tx, outbox, { realmId: realm.id, email, fullName, password: form.password, role: invite.invited_as, defaultSubscriptions: false, welcome: false }, passwordHash);
    const streamIds = inviteStreamIds(invite);
    if (invite.include_realm_default_subscriptions) streamIds.push(...(await defaultStreamIds(tx, realm.id)));
    const streams = (await activeStreamsByIds(tx, [...new Set(streamIds)])).filter((s) => s.realm_id === realm.id);
    if (streams.length > 0) await bulkAddSubscriptions(tx, outbox, [user], streams);
    if (invitation.kind === "email") {
      // Zulip's order (process_new_human_user): the inviter's message, then the invitation bookkeeping.
      if (invitation.invite.notify_referrer_on_join) await notifyReferrerOfJoin(ctx, tx, outbox, await userById(tx, invitation.invite.referred_by_id), user);
      await updateInvite(tx, invitation.invite.id, { status: InviteStatus.USED, created_user_id: user.id });
      await deletePendingInvitesFor(tx, realm.id, email);
      await notifyInvitesChanged(tx, outbox, realm.id, invitation.invite.referred_by_id);
    } else {
      await markConfirmationUsed(tx, invitation.invite.id, user.id);
      // A reusable link has no inviter to tell; the administrators hear only if invitations went.
      if ((await deletePendingInvitesFor(tx, realm.id, email)) > 0) await notifyInvitesChanged(tx, outbox, realm.id, null);
    }
    await welcomeNewUser(ctx, tx, outbox, user);
    return user;
  });
}

async function mustRealm(db: Db, realmId: number): Promise<RealmRow> {
  const realm = await realmById(db, realmId);
  if (!realm || realm.deactivated) throw new InvitationUnusable("unknown");
  return realm;
}
