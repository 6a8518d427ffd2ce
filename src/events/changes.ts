import type { QueuedEvent } from "./types.js";

/** One user's presence. */
export interface PresenceEntry {
  userId: number;
  realmId: number;
  lastActive: number | null;
  lastConnected: number | null;
  updateId: number;
}

/**
 * What a committed write made stale in the in-memory caches, named by key so that every process
 * can drop its own copy (in cluster mode the bus carries these to the other processes too).
 */
export type CacheChange =
  | { cache: "user"; id: number }
  | { cache: "realm"; id: number }
  /** A user's browser sessions were ended or changed. */
  | { cache: "sessions"; userId: number }
  | { cache: "linkifiers"; realmId: number }
  | { cache: "alert_words"; realmId: number }
  /** A scheduled message now falls due at `dueAt` (ms): the timer that sends them wakes. */
  | { cache: "scheduled_messages"; dueAt: number }
  /** A queued mail is due at `dueAt` (ms): the timer that sends mail wakes. */
  | { cache: "mail"; dueAt: number }
  /** Everything: the process missed changes (its connection to the other processes broke). */
  | { cache: "all" };

/** What one write transaction hands the bus once it has committed. */
export interface Commit {
  events: readonly QueuedEvent[];
  changes: readonly CacheChange[];
}

/** A commit sent as JSON by another process (the cluster stream, the CLI), or undefined when it is not one. */
export function parseCommitText(text: string): Commit | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof data !== "object" || data === null || !("events" in data) || !("changes" in data)) return undefined;
  const { events, changes } = data;
  if (!Array.isArray(events) || !Array.isArray(changes)) return undefined;
  if (!events.every(isQueuedEvent) || !changes.every(isCacheChange)) return undefined;
  return { events, changes };
}

function isQueuedEvent(value: unknown): value is QueuedEvent {
  if (typeof value !== "object" || value === null || !("event" in value) || !("userIds" in value)) return false;
  const { event, userIds } = value;
  return typeof event === "object" && event !== null && "type" in event && typeof event.type === "string" && Array.isArray(userIds);
}

function isCacheChange(value: unknown): value is CacheChange {
  return typeof value === "object" && value !== null && "cache" in value && typeof value.cache === "string";
}
