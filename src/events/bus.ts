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
