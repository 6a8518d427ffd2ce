import { checkUpdateGroupMembers, checkUpdateSubgroups } from "../actions/user-group-members.js";
import { checkCreateUserGroup, checkDeleteUserGroup, checkEditUserGroup } from "../actions/user-groups.js";
import type { GroupSettingValue } from "../events/types.js";
import { endpoint } from "../http/endpoint.js";
import { bool, isDict, isEither, isInt, isList, json, pathInt, str, type Check } from "../http/params.js";
import { accessUserById } from "../lib/users/users.js";
import { requireMemberOrAdmin } from "../lib/groups/user-groups.js";

/** A group-setting value: a group id or {direct_members, direct_subgroups} (level 258). */
const isSettingValue: Check<GroupSettingValue> = isEither(
  isInt(),
  isDict({ direct_members: isList(isInt()), direct_subgroups: isList(isInt()) }),
);

const idList = json(isList(isInt())).default([]);

/** User groups: create, list, edit, delete, members and subgroups (feature level 275). */
export const userGroupEndpoints = [
  endpoint({
    method: "POST",
    path: "/user_groups/create",
    params: { name: str(), description: str(), members: idList, can_mention_group: json(isSettingValue).optional() },
    async handler({ ctx, user, params }) {
      await checkCreateUserGroup(ctx, user, {
        name: params.name,
        description: params.description,
        members: params.members,
        canMentionGroup: params.can_mention_group,
      });
      return {};
    },
  }),
  endpoint({
    method: "GET",
    path: "/user_groups",
    params: {},
    async handler({ ctx, user }) {
      requireMemberOrAdmin(user);
      return { user_groups: (await ctx.groups.of(user.realm_id)).listJson };
    },
  }),
  endpoint({
    method: "PATCH",
    path: "/user_groups/:user_group_id",
    params: {
      name: str().optional(),
      description: str().optional(),
      can_mention_group: json(isDict({ new: isSettingValue }, { old: isSettingValue })).optional(),
    },
    async handler({ ctx, user, params, path }) {
      await checkEditUserGroup(ctx, user, pathInt(path.user_group_id), {
        name: params.name,
        description: params.description,
        canMentionGroup: params.can_mention_group,
      });
      return {};
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/user_groups/:user_group_id",
    params: {},
    async handler({ ctx, user, path }) {
      await checkDeleteUserGroup(ctx, user, pathInt(path.user_group_id));
      return {};
    },
  }),
  endpoint({
    method: "POST",
    path: "/user_groups/:user_group_id/members",
    params: { add: idList, delete: idList },
    async handler({ ctx, user, params, path }) {
      await checkUpdateGroupMembers(ctx, user, pathInt(path.user_group_id), params.add, params.delete);
      return {};
    },
  }),
  endpoint({
    method: "GET",
    path: "/user_groups/:user_group_id/members",
    params: { direct_member_only: bool().default(false) },
    async handler({ ctx, user, params, path }) {
      requireMemberOrAdmin(user);
      const groups = await ctx.groups.of(user.realm_id);
      const group = groups.access(pathInt(path.user_group_id));
      return { members: params.direct_member_only ? group.members : groups.recursiveMembers(group.id) };
    },
  }),
  endpoint({
    method: "GET",
    path: "/user_groups/:user_group_id/members/:user_id",
    params: { direct_member_only: bool().default(false) },
    async handler({ ctx, user, params, path }) {
      requireMemberOrAdmin(user);
      const groups = await ctx.groups.of(user.realm_id);
      const group = groups.access(pathInt(path.user_group_id));
      const target = await accessUserById(ctx.db, user, pathInt(path.user_id), { allowDeactivated: false, allowBots: false });
      return { is_user_group_member: params.direct_member_only ? group.members.includes(target.id) : groups.settingIncludes(group.id, target.id) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/user_groups/:user_group_id/subgroups",
    params: { add: idList, delete: idList },
    async handler({ ctx, user, params, path }) {
      await checkUpdateSubgroups(ctx, user, pathInt(path.user_group_id), params.add, params.delete);
      return {};
    },
  }),
  endpoint({
    method: "GET",
    path: "/user_groups/:user_group_id/subgroups",
    params: { direct_subgroup_only: bool().default(false) },
    async handler({ ctx, user, params, path }) {
      requireMemberOrAdmin(user);
      const groups = await ctx.groups.of(user.realm_id);
      const group = groups.access(pathInt(path.user_group_id));
      return { subgroups: params.direct_subgroup_only ? group.direct_subgroup_ids : groups.recursiveSubgroups(group.id) };
    },
  }),
];
