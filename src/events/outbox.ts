import type { CacheChange } from "./changes.js";
import type { AppEvent, QueuedEvent } from "./types.js";

/** Who an event goes to: listed users, or every active user of a realm but some (one fan-out entry). */
export type Recipients = { userIds: readonly number[] } | { realmId: number; except: readonly number[] };

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
   * Queues `event` for every active user of the realm but `except`, as one entry (the queues of the
   * realm are found at delivery); it leaves only if the transaction commits.
   */
  sendToRealm(event: AppEvent, realmId: number, except: Iterable<number> = []): void {
    this.events.push({ event, userIds: [], realm: { id: realmId, except: [...except] } });
  }

  /** Queues `event` for `to` (send or sendToRealm); it leaves only if the transaction commits. */
  sendTo(event: AppEvent, to: Recipients): void {
    if ("realmId" in to) this.sendToRealm(event, to.realmId, to.except);
    else this.send(event, to.userIds);
  }

  /**
   * Queues an event that carries per-recipient fields (a message's flags) or is also offered to
   * the realm's all-public-streams queues; it leaves only if the transaction commits.
   */
  queue(item: QueuedEvent): void {
    if (item.userIds.length > 0 || item.publicRealmId !== undefined || item.realm !== undefined) this.events.push(item);
  }

  /** Marks a cache entry stale after commit (in every process); never after a rollback. */
  invalidate(change: CacheChange): void {
    this.changes.push(change);
  }
}
