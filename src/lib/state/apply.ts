import type { AppContext } from "../../context.js";
import type { UserRow } from "../../db/queries/users.js";
import type { AppEvent } from "../../events/types.js";
import { FEATURE_LEVEL, VERSION } from "../../base/version.js";
import { stateSections } from "./index.js";
import type { StateOptions } from "./types.js";

/** The state keys /register always sends, whatever fetch_event_types asks for. */
export function versionState(): Record<string, unknown> {
  return { zulip_version: VERSION, zulip_feature_level: FEATURE_LEVEL, zulip_merge_base: VERSION };
}

/**
 * The initial state of /register: every section's keys for the event types `types` names
 * (null = all), plus the version keys.
 */
export async function fetchState(ctx: AppContext, user: UserRow, types: readonly string[] | null, opts: StateOptions): Promise<Record<string, unknown>> {
  const state = versionState();
  const wanted = types === null ? null : new Set(types);
  const want = (type: string) => wanted === null || wanted.has(type);
  await Promise.all(stateSections.map((section) => section.fetch(ctx, user, want, opts, state)));
  return state;
}

/** Applies events to a state fetched for `user` (Zulip's apply_events): each section applies what it owns. */
export function applyEvents(state: Record<string, unknown>, events: readonly AppEvent[], user: UserRow, opts: StateOptions): void {
  for (const event of events) {
    for (const section of stateSections) section.apply(state, event, user, opts);
  }
}
