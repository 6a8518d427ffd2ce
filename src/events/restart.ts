import { FEATURE_LEVEL, VERSION } from "../base/version.js";

/** Changes at every start, like Zulip's server_generation: clients compare it to decide to reload. */
export const SERVER_GENERATION = Math.floor(Date.now() / 1000);

/** The event each reloaded queue gets after a restart (Zulip's send_restart_events). */
export function restartEvent(): { type: "restart"; zulip_version: string; zulip_merge_base: string; zulip_feature_level: number; server_generation: number } {
  return { type: "restart", zulip_version: VERSION, zulip_merge_base: VERSION, zulip_feature_level: FEATURE_LEVEL, server_generation: SERVER_GENERATION };
}
