import type { QueuedEvent } from "./types.js";

/** Carries committed events to whoever delivers them (in-process now; Redis between processes later). */
export interface EventBus {
  publish(batch: readonly QueuedEvent[]): void;
  subscribe(listener: (batch: readonly QueuedEvent[]) => void): () => void;
}

/** The in-process bus: listeners are called synchronously, in subscription order. */
export function localBus(): EventBus {
  const listeners = new Set<(batch: readonly QueuedEvent[]) => void>();
  return {
    publish(batch) {
      if (batch.length === 0) return;
      for (const listener of listeners) listener(batch);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
