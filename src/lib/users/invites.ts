import type { Db } from "../../db/index.js";
import { activeMultiuseInvites, pendingInvites, type InviteRow, type MultiuseInviteRow } from "../../db/queries/invites.js";
import type { RealmRow } from "../../db/queries/realms.js";
import type { UserRow } from "../../db/queries/users.js";
import { badRequest, ownerRequired } from "../../base/errors.js";
import { isAdmin, Role } from "./roles.js";
import { realmSetting } from "../realm/props.js";
import type { RealmGroups } from "../../caches/groups.js";
import { isInRealmGroupSetting } from "../groups/realm-groups.js";
import { hasRolePolicy } from "../groups/user-groups.js";

/** Zulip's INVITATION_LINK_VALIDITY_MINUTES default: 10 days. */
export const DEFAULT_INVITE_VALIDITY_MINUTES = 14400;

/**
 * The addresses of invitee_emails (Zulip's get_invitee_emails_set): split on commas and newlines,
 * `Name <addr>` reduced to the address, stripped, empty entries dropped, duplicates collapsed.
 */
export function parseInviteeEmails(raw: string): string[] {
  const out = new Set<string>();
  for (const part of raw.split(/[,\n]/)) {
    const named = /<(.*)>/.exec(part);
    const email = (named?.[1] ?? part).trim();
    if (email.length > 0) out.add(email);
  }
  return [...out];
}

/** Whether an address is syntactically valid (Django's validate_email, in its common form). */
export function isValidEmail(email: string): boolean {
  if (email.length > 254) return false;
  const at = email.lastIndexOf("@");
  if (at <= 0 || at === email.length - 1) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (!/^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/.test(local)) return false;
  return /^(?=.{1,253}$)([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/.test(domain) || domain === "localhost";
}

/**
 * Zulip's check_role_based_permissions: inviting owners needs an owner; with `requireAdmin`
 * (managing someone else's invitation) any other invitation needs an administrator, and without
 * it administrator and moderator invitations do.
 */
export function checkRoleBasedPermissions(invitedAs: number, user: UserRow, requireAdmin: boolean): void {
  if (invitedAs === Role.OWNER && user.role !== Role.OWNER) throw ownerRequired();
  const needsAdmin = requireAdmin || invitedAs === Role.ADMINISTRATOR || invitedAs === Role.MODERATOR;
  if (needsAdmin && !isAdmin(user)) throw badRequest("Must be an organization administrator");
}

/** Whether a user may send email invitations (realm invite_to_realm_policy at level 275). */
export function canInviteToRealm(user: UserRow, realm: RealmRow, now: number): boolean {
  return hasRolePolicy(user, realmSetting(realm, "invite_to_realm_policy"), realm, now);
}

/** Whether a user may subscribe others to channels (invite_to_stream_policy). */
export function canSubscribeOthers(user: UserRow, realm: RealmRow, now: number): boolean {
  return hasRolePolicy(user, realmSetting(realm, "invite_to_stream_policy"), realm, now);
}

/** Whether a user may create reusable links: a member of create_multiuse_invite_group (default role:administrators). */
export function canCreateMultiuseInvite(groups: RealmGroups, user: UserRow, realm: RealmRow): boolean {
  return isInRealmGroupSetting(groups, realm, "create_multiuse_invite_group", user.id);
}

/** The signup link of an invitation key. */
export function joinUrl(externalUrl: string, key: string): string {
  return `${externalUrl}/join/${key}/`;
}

/** The channel ids an invitation stores. */
export function inviteStreamIds(row: { stream_ids: string }): number[] {
  try {
    const ids: unknown = JSON.parse(row.stream_ids);
    return Array.isArray(ids) ? ids.filter((id): id is number => Number.isInteger(id)) : [];
  } catch {
    return [];
  }
}

/** An email invitation as GET /invites shows it. */
export function apiInvite(row: InviteRow): Record<string, unknown> {
  return {
    email: row.email,
    invited_by_user_id: row.referred_by_id,
    invited: Math.floor(row.invited_at / 1000),
    expiry_date: row.expiry_date === null ? null : Math.floor(row.expiry_date / 1000),
    id: row.id,
    invited_as: row.invited_as,
    is_multiuse: false,
    notify_referrer_on_join: row.notify_referrer_on_join === 1,
  };
}

/** A reusable link as GET /invites shows it. */
export function apiMultiuseInvite(row: MultiuseInviteRow, externalUrl: string): Record<string, unknown> {
  return {
    invited_by_user_id: row.referred_by_id,
    invited: Math.floor(row.created_at / 1000),
    expiry_date: row.expiry_date === null ? null : Math.floor(row.expiry_date / 1000),
    id: row.id,
    link_url: joinUrl(externalUrl, row.key),
    invited_as: row.invited_as,
    is_multiuse: true,
  };
}

/** GET /invites: administrators see every pending invitation of the realm, others their own (email invitations first). */
export async function invitesControlledBy(db: Db, user: UserRow, now: number, externalUrl: string): Promise<Record<string, unknown>[]> {
  const referrer = isAdmin(user) ? undefined : user.id;
  const invites = (await pendingInvites(db, user.realm_id, now, referrer)).map(apiInvite);
  const links = (await activeMultiuseInvites(db, user.realm_id, now, referrer)).map((row) => apiMultiuseInvite(row, externalUrl));
  return [...invites, ...links];
}
