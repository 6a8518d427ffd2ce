import { adminRequired } from "../../base/errors.js";

/** Zulip's role values; a lower number is more privileged. */
export const Role = {
  OWNER: 100,
  ADMINISTRATOR: 200,
  MODERATOR: 300,
  MEMBER: 400,
  GUEST: 600,
} as const;

/** The role values the API accepts. */
export const ROLE_VALUES = [100, 200, 300, 400, 600] as const;

/** Names the CLI accepts for --role. */
export const ROLE_NAMES: Record<string, number> = {
  owner: Role.OWNER,
  admin: Role.ADMINISTRATOR,
  moderator: Role.MODERATOR,
  member: Role.MEMBER,
  guest: Role.GUEST,
};

/** Owners and administrators. */
export function isAdmin(user: { role: number }): boolean {
  return user.role <= Role.ADMINISTRATOR;
}

/** Moderators and above. */
export function isModerator(user: { role: number }): boolean {
  return user.role <= Role.MODERATOR;
}

/** Zulip's require_realm_admin: owners and administrators only. */
export function requireAdmin(user: { role: number }): void {
  if (!isAdmin(user)) throw adminRequired();
}
