import { checkMuteUser, checkUnmuteUser } from "../actions/muted-users.js";
import { endpoint } from "../http/endpoint.js";
import { pathInt } from "../http/params.js";

/** Muting and unmuting users. */
export const mutedUserEndpoints = [
  endpoint({
    method: "POST",
    path: "/users/me/muted_users/:muted_user_id",
    params: {},
    async handler({ ctx, user, path }) {
      await checkMuteUser(ctx, user, pathInt(path.muted_user_id));
      return {};
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/users/me/muted_users/:muted_user_id",
    params: {},
    async handler({ ctx, user, path }) {
      await checkUnmuteUser(ctx, user, pathInt(path.muted_user_id));
      return {};
    },
  }),
];
