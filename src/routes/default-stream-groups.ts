import {
  checkCreateDefaultStreamGroup,
  checkRemoveDefaultStreamGroup,
  checkUpdateDefaultStreamGroup,
  checkUpdateDefaultStreamGroupChannels,
} from "../actions/default-stream-groups.js";
import { endpoint } from "../http/endpoint.js";
import { isList, isStr, json, pathInt, str } from "../http/params.js";
import { requireAdmin } from "../lib/users/roles.js";

/** Default channel groups (administrators); clients read them from /register, Zulip has no GET. */
export const defaultStreamGroupEndpoints = [
  endpoint({
    method: "POST",
    path: "/default_stream_groups/create",
    guard: requireAdmin,
    params: { group_name: str(), description: str(), stream_names: json(isList(isStr())) },
    async handler({ ctx, user, params }) {
      await checkCreateDefaultStreamGroup(ctx, user, params.group_name, params.description, params.stream_names);
      return {};
    },
  }),
  endpoint({
    method: "PATCH",
    path: "/default_stream_groups/:group_id",
    guard: requireAdmin,
    params: { new_group_name: str().optional(), new_description: str().optional() },
    async handler({ ctx, user, params, path }) {
      await checkUpdateDefaultStreamGroup(ctx, user, pathInt(path.group_id), { name: params.new_group_name, description: params.new_description });
      return {};
    },
  }),
  endpoint({
    method: "PATCH",
    path: "/default_stream_groups/:group_id/streams",
    guard: requireAdmin,
    params: { op: str(), stream_names: json(isList(isStr())) },
    async handler({ ctx, user, params, path }) {
      await checkUpdateDefaultStreamGroupChannels(ctx, user, pathInt(path.group_id), params.op, params.stream_names);
      return {};
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/default_stream_groups/:group_id",
    guard: requireAdmin,
    params: {},
    async handler({ ctx, user, path }) {
      await checkRemoveDefaultStreamGroup(ctx, user, pathInt(path.group_id));
      return {};
    },
  }),
];
