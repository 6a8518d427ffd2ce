import type { ApiUserGroup } from "../../events/types.js";
import type { StateSection } from "./types.js";

/**
 * realm_user_groups (fetch_event_types entry realm_user_groups, as in Zulip; the queue's event
 * type is user_group), and user_group events applied to it.
 */
export const userGroupSection: StateSection = {
  types: ["realm_user_groups", "user_group"],
  async fetch(ctx, user, want, _opts, state) {
    if (!want("realm_user_groups")) return;
    // A copy: events that arrive while /register runs are applied to it in place.
    state.realm_user_groups = structuredClone((await ctx.groups.of(user.realm_id)).list);
  },
  apply(state, event) {
    if (event.type !== "user_group" || !Array.isArray(state.realm_user_groups)) return;
    const groups = state.realm_user_groups as ApiUserGroup[];
    if (event.op === "add") {
      groups.push(structuredClone(event.group));
      groups.sort((a, b) => a.id - b.id);
      return;
    }
    if (event.op === "remove") {
      state.realm_user_groups = groups.filter((g) => g.id !== event.group_id);
      // A deleted group also leaves the subgroup lists it was in.
      for (const g of state.realm_user_groups as ApiUserGroup[]) {
        g.direct_subgroup_ids = g.direct_subgroup_ids.filter((id) => id !== event.group_id);
        const value = g.can_mention_group;
        if (typeof value !== "number") value.direct_subgroups = value.direct_subgroups.filter((id) => id !== event.group_id);
      }
      return;
    }
    const group = groups.find((g) => g.id === event.group_id);
    if (!group) return;
    switch (event.op) {
      case "update":
        Object.assign(group, structuredClone(event.data));
        return;
      case "add_members":
        group.members = [...new Set([...group.members, ...event.user_ids])].sort((a, b) => a - b);
        return;
      case "remove_members":
        group.members = group.members.filter((id) => !event.user_ids.includes(id));
        return;
      case "add_subgroups":
        group.direct_subgroup_ids = [...new Set([...group.direct_subgroup_ids, ...event.direct_subgroup_ids])].sort((a, b) => a - b);
        return;
      case "remove_subgroups":
        group.direct_subgroup_ids = group.direct_subgroup_ids.filter((id) => !event.direct_subgroup_ids.includes(id));
        return;
    }
  },
};
