import type { AppEvent, QueuedEvent } from "./types.js";

/** What one write transaction will announce, and what it will invalidate, once it has committed. */
export class Outbox {
  readonly events: QueuedEvent[] = [];
  readonly afterCommitHooks: (() => void)[] = [];

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

  /** Runs `fn` after commit (cache invalidation); never after a rollback. */
  afterCommit(fn: () => void): void {
    this.afterCommitHooks.push(fn);
  }
}
