import type { AppEvent } from "../../events/types.js";
import { defaultStreamGroupDicts, type ApiDefaultStreamGroup } from "../channels/default-stream-groups.js";
import { Role } from "../users/roles.js";
import { byName } from "../channels/list.js";
import { applyStreamUpdate } from "./streams.js";
import type { StateSection } from "./types.js";

/**
 * realm_default_stream_groups (guests get []) and default_stream_groups events. The groups carry
 * whole channel objects at this feature level, so channel updates are applied to them too.
 */
export const defaultStreamGroupsSection: StateSection = {
  types: ["default_stream_groups"],
  async fetch(ctx, user, want, _opts, state) {
    if (!want("default_stream_groups")) return;
    state.realm_default_stream_groups = user.role === Role.GUEST ? [] : await defaultStreamGroupDicts(ctx.db, user.realm_id);
  },
  apply(state, event) {
    const groups = state.realm_default_stream_groups;
    if (!Array.isArray(groups)) return;
    if (event.type === "default_stream_groups") state.realm_default_stream_groups = structuredClone(event.default_stream_groups);
    else if (event.type === "stream") applyStream(groups as ApiDefaultStreamGroup[], event);
  },
};

function applyStream(groups: ApiDefaultStreamGroup[], event: Extract<AppEvent, { type: "stream" }>): void {
  if (event.op !== "update") {
    if (event.op !== "delete") return;
    const gone = new Set(event.streams.map((s) => s.stream_id));
    for (const group of groups) group.streams = group.streams.filter((s) => !gone.has(s.stream_id));
    return;
  }
  for (const group of groups) {
    for (const entry of group.streams) applyStreamUpdate(entry, event);
    group.streams.sort(byName);
  }
}
