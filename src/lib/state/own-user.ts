import type { AppContext } from "../../context.js";
import type { UserRow } from "../../db/queries/users.js";
import type { ApiUserGroup } from "../../events/types.js";
import { canInviteToRealm } from "../users/invites.js";
import { Role } from "../users/roles.js";
import { Policy, ROLE_GROUP_LIMITS, canCreateStreams, canCreateWebPublicStreams, canSubscribeOthers, roleAllows, webPublicStreamsEnabled } from "../channels/permissions.js";
import { gravatarUrl } from "../../base/gravatar.js";
import { avatarUrl } from "../users/users.js";
import type { StateSection } from "./types.js";

/**
 * The current user's own block of the realm_user state (Zulip's fetch_initial_state_data under
 * want("realm_user")): identity, avatar, role flags and what the user may create or invite,
 * with realm_user updates about the user applied to it.
 */
export const ownUserSection: StateSection = {
  types: ["realm_user"],
  async fetch(ctx, user, want, _opts, state) {
    if (!want("realm_user")) return;
    const me = (await ctx.users.get(user.id)) ?? user;
    Object.assign(state, identityOf(me), roleFlags(me.role), await permissionsOf(ctx, me));
  },
  apply(state, event, user) {
    if (!("user_id" in state)) return;
    // A change of the realm's settings can change what the user may do (Zulip re-reads them); the
    // realm section, applied first, has already updated the settings when they were fetched.
    if (event.type === "realm" && "realm_can_create_public_channel_group" in state) {
      Object.assign(state, permissionsFromState(roleFromState(state), state));
      return;
    }
    if (event.type !== "realm_user" || event.op !== "update" || event.person.user_id !== user.id) return;
    const person = event.person;
    if ("avatar_url" in person) {
      for (const key of ["avatar_source", "avatar_url", "avatar_url_medium"]) if (key in person) state[key] = person[key];
    }
    for (const key of ["delivery_email", "full_name", "is_billing_admin"]) if (key in person) state[key] = person[key];
    if (typeof person.new_email === "string") state.email = person.new_email;
    if (typeof person.role === "number") {
      Object.assign(state, roleFlags(person.role), permissionsFromState(person.role, state));
    }
  },
};

function identityOf(me: UserRow): Record<string, unknown> {
  return {
    user_id: me.id,
    email: me.email,
    delivery_email: me.delivery_email,
    full_name: me.full_name,
    is_billing_admin: me.is_billing_admin === 1,
    // The user's own avatar is always a URL, whatever client_gravatar says (Zulip forces it off here).
    avatar_source: me.avatar_source,
    avatar_url: avatarUrl(me, false),
    avatar_url_medium: gravatarUrl(me.delivery_email, me.avatar_version, true),
  };
}

/** The role the state's flags stand for (members and full members alike). */
function roleFromState(state: Record<string, unknown>): number {
  if (state.is_owner === true) return Role.OWNER;
  if (state.is_admin === true) return Role.ADMINISTRATOR;
  if (state.is_moderator === true) return Role.MODERATOR;
  if (state.is_guest === true) return Role.GUEST;
  return Role.MEMBER;
}

function roleFlags(role: number): Record<string, boolean> {
  return { is_admin: role <= Role.ADMINISTRATOR, is_owner: role === Role.OWNER, is_moderator: role === Role.MODERATOR, is_guest: role === Role.GUEST };
}

/** What the user may do, by the same rules the actions enforce. */
async function permissionsOf(ctx: AppContext, me: UserRow): Promise<Record<string, boolean>> {
  const realm = await ctx.realms.get(me.realm_id);
  if (!realm) return permissionsFromState(me.role, {});
  const groups = await ctx.groups.of(me.realm_id);
  const isPublic = canCreateStreams(groups, realm, me, false);
  const isPrivate = canCreateStreams(groups, realm, me, true);
  const isWebPublic = webPublicStreamsEnabled(realm) && canCreateWebPublicStreams(realm, me);
  return {
    can_create_streams: isPublic || isPrivate || isWebPublic,
    can_create_public_streams: isPublic,
    can_create_private_streams: isPrivate,
    can_create_web_public_streams: isWebPublic,
    can_subscribe_other_users: canSubscribeOthers(realm, me),
    can_invite_others_to_realm: canInviteToRealm(me, realm, ctx.clock.now()),
  };
}

/**
 * The permissions after a role change, from what the state itself says of the realm's settings
 * (each realm setting read at its default when the realm section was not fetched). System groups
 * are judged by the new role: the group membership events of the same change come after it.
 */
function permissionsFromState(role: number, state: Record<string, unknown>): Record<string, boolean> {
  const groups = Array.isArray(state.realm_user_groups) ? (state.realm_user_groups as ApiUserGroup[]) : [];
  const userId = typeof state.user_id === "number" ? state.user_id : 0;
  const inSetting = (setting: string): boolean => {
    const id = state[`realm_${setting}`];
    const group = typeof id === "number" ? groups.find((g) => g.id === id) : undefined;
    return group ? inGroup(groups, group, userId, role, new Set()) : role <= Role.MEMBER;
  };
  const policy = (setting: string, fallback: number): number => {
    const value = state[`realm_${setting}`];
    return typeof value === "number" ? value : fallback;
  };
  const isPublic = inSetting("can_create_public_channel_group");
  const isPrivate = inSetting("can_create_private_channel_group");
  const isWebPublic = state.realm_enable_spectator_access === true && roleAllows(role, policy("create_web_public_stream_policy", Policy.OWNERS));
  return {
    can_create_streams: isPublic || isPrivate || isWebPublic,
    can_create_public_streams: isPublic,
    can_create_private_streams: isPrivate,
    can_create_web_public_streams: isWebPublic,
    can_subscribe_other_users: roleAllows(role, policy("invite_to_stream_policy", Policy.MEMBERS)),
    can_invite_others_to_realm: roleAllows(role, policy("invite_to_realm_policy", Policy.MEMBERS)),
  };
}

function inGroup(groups: readonly ApiUserGroup[], group: ApiUserGroup, userId: number, role: number, seen: Set<number>): boolean {
  if (seen.has(group.id)) return false;
  seen.add(group.id);
  const systemRole = group.is_system_group ? ROLE_GROUP_LIMITS[group.name] : undefined;
  if (systemRole !== undefined) return role <= systemRole;
  if (group.members.includes(userId)) return true;
  return group.direct_subgroup_ids.some((id) => {
    const sub = groups.find((g) => g.id === id);
    return sub !== undefined && inGroup(groups, sub, userId, role, seen);
  });
}

