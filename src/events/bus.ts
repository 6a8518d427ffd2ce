import type { Db } from "../db/index.js";
import type { Commit } from "./changes.js";

/** Carries committed events and cache changes to whoever applies them: this process, or every process of a cluster. */
export interface EventBus {
  /**
   * Hands over a commit. The local bus applies it before returning; the cluster bus returns a
   * promise that resolves once every live process has applied it (it never rejects).
   */
  publish(commit: Commit): void | Promise<void>;
  subscribe(listener: (commit: Commit) => void): () => void;
}

/**
 * Keeps a commit in its own transaction and hands it to the bus after the commit, so that a
 * process killed between the two loses none of it: the event log of one process
 * (events/durable.ts), the pending commits of a cluster (cluster/pending.ts). write() (context.ts)
 * drives it.
 */
export interface CommitRecorder {
  /**
   * Inside the transaction: records `commit` if it needs to, and tells `taken` its number before
   * any await. Each number taken is then released or abandoned.
   */
  record(tx: Db, commit: Commit, taken: (seq: number) => void): Promise<void>;
  /** After the commit: hands it on; resolves once it reached the queues (in a cluster, every process). */
  release(seq: number, commit: Commit): Promise<void>;
  /** The transaction that took `seq` failed, or took another number after it (a retry). */
  abandon(seq: number): void;
}

/** The in-process bus: listeners are called synchronously, in subscription order. */
export function localBus(): EventBus {
  const listeners = new Set<(commit: Commit) => void>();
  return {
    publish(commit) {
      if (commit.events.length === 0 && commit.changes.length === 0) return;
      for (const listener of listeners) listener(commit);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
