import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import {
  deletePendingInvitesFor,
  InviteStatus,
  inviteByKey,
  multiuseByKey,
  updateInvite,
  type InviteRow,
  type MultiuseInviteRow,
} from "../db/queries/invites.js";
import { realmById, type RealmRow } from "../db/queries/realms.js";
import { activeStreamsByIds, defaultStreamIds } from "../db/queries/streams.js";
import { userByDeliveryEmail, userById, type UserRow } from "../db/queries/users.js";
import { ApiError, badRequest } from "../http/errors.js";
import { inviteStreamIds, isValidEmail } from "../lib/invites.js";
import { isStrongPassword } from "../lib/passwords.js";
import { hashPassword } from "../lib/secrets.js";
import { checkFullName } from "../lib/users.js";
import { notifyInvitesChanged } from "./invites.js";
import { notifyReferrerOfJoin } from "./notification-bot.js";
import { bulkAddSubscriptions } from "./subscriptions.js";
import { doCreateUser } from "./users.js";

/** A usable invitation behind a signup key. */
export type Invitation =
  | { kind: "email"; invite: InviteRow; realm: RealmRow }
  | { kind: "multiuse"; invite: MultiuseInviteRow; realm: RealmRow };

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

/** The invitation behind a key if it can still be used, else InvitationUnusable. */
export async function findInvitation(db: Db, key: string, now: number): Promise<Invitation> {
  const invite = await inviteByKey(db, key);
  if (invite) {
    if (invite.status === InviteStatus.USED) throw new InvitationUnusable("used");
    if (invite.status === InviteStatus.REVOKED) throw new InvitationUnusable("revoked");
    if (invite.expiry_date !== null && invite.expiry_date <= now) throw new InvitationUnusable("expired");
    return { kind: "email", invite, realm: await mustRealm(db, invite.realm_id) };
  }
  const link = await multiuseByKey(db, key);
  if (!link) throw new InvitationUnusable("unknown");
  if (link.status === InviteStatus.REVOKED) throw new InvitationUnusable("revoked");
  if (link.expiry_date !== null && link.expiry_date <= now) throw new InvitationUnusable("expired");
  return { kind: "multiuse", invite: link, realm: await mustRealm(db, link.realm_id) };
}

/** What the invitee submits: an address only for reusable links (email invitations fix it). */
export interface SignupForm {
  email?: string;
  fullName: string;
  password: string;
}

/**
 * Creates the invited account in one transaction: the user with the invited role (realm_user add
 * to everyone, system groups), the invitation marked used and the address's other pending
 * invitations revoked (invites_changed to the administrators and the inviter), and subscriptions
 * to the invitation's channels plus the realm defaults when it asked for them.
 */
export async function acceptInvitation(ctx: AppContext, key: string, form: SignupForm): Promise<UserRow> {
  const first = await findInvitation(ctx.db, key, ctx.clock.now());
  const fullName = checkFullName(form.fullName);
  if (!isStrongPassword(form.password)) throw badRequest("The password is too weak.");
  const email = first.kind === "email" ? first.invite.email : (form.email ?? "").trim();
  if (!isValidEmail(email)) throw badRequest("Please enter a valid email address.");
  const passwordHash = await hashPassword(form.password);
  return write(ctx, async (tx, outbox) => {
    // Checked again inside the transaction: two submissions of one link must not both succeed.
    const invitation = await findInvitation(tx, key, ctx.clock.now());
    const { invite, realm } = invitation;
    if (await userByDeliveryEmail(tx, realm.id, email)) throw badRequest(`${email} already has an account in this organization.`);
    const user = await doCreateUser(ctx, tx, outbox, { realmId: realm.id, email, fullName, password: form.password, role: invite.invited_as, defaultSubscriptions: false }, passwordHash);
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
    }
    return user;
  });
}

async function mustRealm(db: Db, realmId: number): Promise<RealmRow> {
  const realm = await realmById(db, realmId);
  if (!realm || realm.deactivated) throw new InvitationUnusable("unknown");
  return realm;
}
