import type { AppContext } from "../../context.js";
import type { UserRow } from "../../db/queries/users.js";
import type { AppEvent } from "../../events/types.js";

/** The register options every state section may consult (POST /register parameters, decoded). */
export interface StateOptions {
  clientGravatar: boolean;
  slimPresence: boolean;
  applyMarkdown: boolean;
  includeSubscribers: boolean | "partial";
  allPublicStreams: boolean;
  /** Declared client_capabilities, keyed by name (absent = false). */
  capabilities: Record<string, boolean>;
  narrow: readonly [string, string][];
}

/** Initial state for /register and the inverse, events applied to that state (Zulip's apply_events). */
export interface StateSection {
  /** Event types this section answers for: fetch_event_types / event_types names. */
  types: readonly string[];
  /** Adds this section's keys to `state` for the types `want` accepts. */
  fetch(ctx: AppContext, user: UserRow, want: (type: string) => boolean, opts: StateOptions, state: Record<string, unknown>): Promise<void>;
  /** Applies one event of one of `types` to a state this section fetched; ignores events it does not own. */
  apply(state: Record<string, unknown>, event: AppEvent, user: UserRow, opts: StateOptions): void;
}
