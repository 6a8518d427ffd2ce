import { checkChangeRole, checkCreateUser, checkDeactivateOwnUser, checkDeactivateUser, checkReactivateUser, doChangeFullName } from "../actions/users.js";
import { endpoint } from "../http/endpoint.js";
import { adminRequired } from "../base/errors.js";
import { bool, isDict, isInt, isList, isNullable, isOneOf, json, pathInt, str } from "../http/params.js";
import { ROLE_VALUES, isAdmin } from "../lib/users/roles.js";
import { accessUserByEmail, accessUserById, apiUser, checkFullName, checkFullNameAvailable, loadProfileData, NO_PROFILE, ownUserText } from "../lib/users/users.js";
import { checkUpdateProfileData } from "../actions/profile-fields.js";
import { whenBoth } from "../base/maybe-promise.js";
import { isProfileValue } from "../lib/users/profile-fields.js";

const listParams = {
  client_gravatar: bool().default(true),
  include_custom_profile_fields: bool().default(false),
};

/** Users: read, create, update, deactivate, reactivate. */
export const userEndpoints = [
  endpoint({
    method: "GET",
    path: "/users",
    params: listParams,
    async handler({ ctx, user, params }) {
      const users = await ctx.users.ofRealm(user.realm_id);
      const profileData = params.include_custom_profile_fields ? await loadProfileData(ctx.db, user.realm_id) : undefined;
      return { members: users.map((u) => apiUser(u, user, { clientGravatar: params.client_gravatar, profileData })) };
    },
  }),
  endpoint({
    method: "GET",
    path: "/users/me",
    params: {},
    handler({ ctx, user }) {
      // Asked by every client on every start: answered from memory without a wait.
      const profile = user.is_bot ? NO_PROFILE : ctx.users.profileOf(user);
      return whenBoth(profile, ctx.users.maxMessageIdOf(user.id), (p, maxId) => ownUserText(user, p, maxId));
    },
  }),
  endpoint({
    method: "GET",
    path: "/users/:user",
    params: listParams,
    async handler({ ctx, user, params, path }) {
      const key = path.user ?? "";
      const target = /^\d+$/.test(key)
        ? await accessUserById(ctx.db, user, pathInt(key), { allowDeactivated: true, allowBots: true })
        : await accessUserByEmail(ctx.db, user, key);
      const profileData = params.include_custom_profile_fields ? await loadProfileData(ctx.db, user.realm_id, [target.id]) : undefined;
      return { user: apiUser(target, user, { clientGravatar: params.client_gravatar, profileData }) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/users",
    params: { email: str(), password: str(), full_name: str() },
    async handler({ ctx, user, params }) {
      if (!isAdmin(user)) throw adminRequired();
      const fullName = checkFullName(params.full_name);
      await checkFullNameAvailable(ctx.db, await ctx.realms.get(user.realm_id), fullName, null);
      const created = await checkCreateUser(ctx, {
        realmId: user.realm_id,
        email: params.email,
        fullName,
        password: params.password,
        role: 400,
      });
      return { user_id: created.id };
    },
  }),
  endpoint({
    method: "PATCH",
    path: "/users/:user",
    params: {
      full_name: str().optional(),
      role: json(isOneOf(ROLE_VALUES)).optional(),
      profile_data: json(isList(isDict({ id: isInt(), value: isNullable(isProfileValue) }))).optional(),
    },
    async handler({ ctx, user, params, path }) {
      const target = await accessUserById(ctx.db, user, pathInt(path.user), { allowDeactivated: true, allowBots: true, forAdmin: true });
      if (params.role !== undefined) await checkChangeRole(ctx, user, target, params.role);
      if (params.full_name !== undefined) {
        const fullName = checkFullName(params.full_name);
        if (fullName !== target.full_name) await checkFullNameAvailable(ctx.db, await ctx.realms.get(target.realm_id), fullName, target.id);
        await doChangeFullName(ctx, target, fullName);
      }
      if (params.profile_data !== undefined) await checkUpdateProfileData(ctx, target, params.profile_data, { clearEmpty: true });
      return {};
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/users/:user",
    params: { deactivation_notification_comment: str({ maxLength: 2000, trim: true }).optional() },
    async handler({ ctx, user, params, path }) {
      const target = await accessUserById(ctx.db, user, pathInt(path.user), { allowDeactivated: false, allowBots: false, forAdmin: true });
      await checkDeactivateUser(ctx, user, target, params.deactivation_notification_comment ?? null);
      return {};
    },
  }),
  endpoint({
    method: "POST",
    path: "/users/:user/reactivate",
    params: {},
    async handler({ ctx, user, path }) {
      const target = await accessUserById(ctx.db, user, pathInt(path.user), { allowDeactivated: true, allowBots: true, forAdmin: true });
      await checkReactivateUser(ctx, user, target);
      return {};
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/users/me",
    params: {},
    async handler({ ctx, user }) {
      await checkDeactivateOwnUser(ctx, user);
      return {};
    },
  }),
];
