/** The source of time, injected so tests never sleep. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** The real clock. */
export const systemClock: Clock = { now: () => Date.now() };
