import type { CacheChange } from "./changes.js";
import type { AppEvent, QueuedEvent } from "./types.js";

/** What one write transaction will announce, and what it will invalidate, once it has committed. */
export class Outbox {
  readonly events: QueuedEvent[] = [];
  readonly changes: CacheChange[] = [];

  /** Queues `event` for the queues of `userIds`; it leaves only if the transaction commits. */
  send(event: AppEvent, userIds: Iterable<number>): void {
    const ids = [...userIds];
    if (ids.length > 0) this.events.push({ event, userIds: ids });
  }

  /**
   * Queues an event that carries per-recipient fields (a message's flags) or is also offered to
   * the realm's all-public-streams queues; it leaves only if the transaction commits.
   */
  queue(item: QueuedEvent): void {
    if (item.userIds.length > 0 || item.publicRealmId !== undefined) this.events.push(item);
  }

  /** Marks a cache entry stale after commit (in every process); never after a rollback. */
  invalidate(change: CacheChange): void {
    this.changes.push(change);
  }
}
