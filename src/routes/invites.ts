import {
  checkCreateMultiuseInvite,
  checkInviteUsers,
  checkResendInvite,
  checkRevokeInvite,
  checkRevokeMultiuseInvite,
} from "../actions/invites.js";
import { endpoint } from "../http/endpoint.js";
import { bool, isInt, isList, isNullable, isOneOf, json, pathInt, str } from "../http/params.js";
import { DEFAULT_INVITE_VALIDITY_MINUTES, invitesControlledBy } from "../lib/users/invites.js";
import { ROLE_VALUES } from "../lib/users/roles.js";
import { requireMemberOrAdmin } from "../lib/groups/user-groups.js";

const common = {
  invite_expires_in_minutes: json(isNullable(isInt())).default(DEFAULT_INVITE_VALIDITY_MINUTES),
  invite_as: json(isOneOf(ROLE_VALUES)).default(400),
  include_realm_default_subscriptions: bool().default(false),
};

/** Invitations: by email, reusable links, listing, revoking, resending. */
export const inviteEndpoints = [
  endpoint({
    method: "POST",
    path: "/invites",
    params: { ...common, invitee_emails: str(), stream_ids: json(isList(isInt())), notify_referrer_on_join: bool().default(true) },
    async handler({ ctx, user, params }) {
      await checkInviteUsers(ctx, user, params.invitee_emails, {
        expiresInMinutes: params.invite_expires_in_minutes,
        inviteAs: params.invite_as,
        streamIds: params.stream_ids,
        includeRealmDefaultSubscriptions: params.include_realm_default_subscriptions,
        notifyReferrerOnJoin: params.notify_referrer_on_join,
      });
      return {};
    },
  }),
  endpoint({
    method: "GET",
    path: "/invites",
    params: {},
    async handler({ ctx, user }) {
      requireMemberOrAdmin(user);
      return { invites: await invitesControlledBy(ctx.db, user, ctx.clock.now(), ctx.config.externalUrl) };
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/invites/:invite_id",
    params: {},
    async handler({ ctx, user, path }) {
      await checkRevokeInvite(ctx, user, pathInt(path.invite_id));
      return {};
    },
  }),
  endpoint({
    method: "POST",
    path: "/invites/:invite_id/resend",
    params: {},
    async handler({ ctx, user, path }) {
      await checkResendInvite(ctx, user, pathInt(path.invite_id));
      return {};
    },
  }),
  endpoint({
    method: "POST",
    path: "/invites/multiuse",
    params: { ...common, stream_ids: json(isList(isInt())).default([]) },
    async handler({ ctx, user, params }) {
      const link = await checkCreateMultiuseInvite(ctx, user, {
        expiresInMinutes: params.invite_expires_in_minutes,
        inviteAs: params.invite_as,
        streamIds: params.stream_ids,
        includeRealmDefaultSubscriptions: params.include_realm_default_subscriptions,
      });
      return { invite_link: link };
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/invites/multiuse/:invite_id",
    params: {},
    async handler({ ctx, user, path }) {
      await checkRevokeMultiuseInvite(ctx, user, pathInt(path.invite_id));
      return {};
    },
  }),
];
