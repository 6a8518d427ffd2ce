import type { AlertWordCache } from "./alert-words.js";
import type { GroupCache } from "./groups.js";
import type { LinkifierCache } from "./linkifiers.js";
import type { PresenceStore } from "./presence.js";
import type { RealmCache } from "./realms.js";
import type { SessionCache } from "./sessions.js";
import type { UserCache } from "./users.js";

/**
 * The in-memory caches of one server process, fields of the context. Each loads on first use;
 * committed writes name what they made stale (events/changes.ts) and apply.ts drops it here.
 */
export interface Caches {
  users: UserCache;
  realms: RealmCache;
  /** Browser sessions by cookie digest; actions that end sessions invalidate them after their commit. */
  sessions: SessionCache;
  /** Each realm's user groups, kept current from committed user_group events on `bus`. */
  groups: GroupCache;
  /** Each realm's linkifiers compiled for the renderer; the linkifier actions drop a realm after their commit. */
  linkifiers: LinkifierCache;
  /** Each realm's alert words by user; the alert-word actions drop a realm after their commit. */
  alertWords: AlertWordCache;
  /** Presence of every realm, written behind (in cluster mode each process keeps its own copy). */
  presence: PresenceStore;
}
