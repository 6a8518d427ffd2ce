import type { MaybePromise } from "./maybe-promise.js";
import { ApiError } from "./errors.js";

/** The window of the API limits. */
export const WINDOW_MS = 60_000;
/** Past this many keys, the keys whose window has emptied are dropped before one more is added. */
const SWEEP_AT = 10_000;

/** The outcome of counting one call: the X-RateLimit-* header values. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** UNIX seconds at which the window is free again. */
  reset: number;
}

/** Counts API calls per key: in this process's memory, or (cluster mode) in Redis. */
export interface CallLimiter {
  /** Counts one call by `key` at `now` (ms); throws RATE_LIMIT_HIT when over the limit; undefined when disabled. */
  hit(key: number | string, now: number): MaybePromise<RateLimitState | undefined>;
}

/** Zulip's RATE_LIMIT_HIT error, `retryAfter` seconds before the window has room. */
export function rateLimitHit(limit: number, retryAfter: number, now: number): ApiError {
  return new ApiError("API usage exceeded rate limit", "RATE_LIMIT_HIT", 429, { "retry-after": retryAfter }, {
    "Retry-After": String(retryAfter),
    "X-RateLimit-Limit": String(limit),
    "X-RateLimit-Remaining": "0",
    "X-RateLimit-Reset": String(Math.ceil((now + retryAfter * 1000) / 1000)),
  });
}

/**
 * Sliding-window limiter of N calls per 60 s per key: Zulip's api_by_user (keyed by user id,
 * 200 by default) and api_by_ip (unauthenticated calls, keyed by address, 100 by default). Keeps
 * the timestamps of each key's calls in the window, at most N; a limit of 0 disables it. Keys
 * whose window has emptied are swept once there are many, so distinct callers (addresses) cannot
 * grow it without bound.
 */
export class RateLimiter implements CallLimiter {
  private readonly calls = new Map<number | string, number[]>();

  constructor(private readonly limit: number) {}

  /** Counts one call by `key` at `now` (ms); throws RATE_LIMIT_HIT when over the limit. */
  hit(key: number | string, now: number): RateLimitState | undefined {
    if (this.limit <= 0) return undefined;
    let stamps = this.calls.get(key);
    if (!stamps) {
      if (this.calls.size >= SWEEP_AT) this.sweep(now);
      stamps = [];
      this.calls.set(key, stamps);
    }
    let expired = 0;
    while (expired < stamps.length && stamps[expired]! <= now - WINDOW_MS) expired++;
    if (expired > 0) stamps.splice(0, expired);
    if (stamps.length >= this.limit) {
      throw rateLimitHit(this.limit, (stamps[0]! + WINDOW_MS - now) / 1000, now);
    }
    stamps.push(now);
    return { limit: this.limit, remaining: this.limit - stamps.length, reset: Math.ceil((stamps[0]! + WINDOW_MS) / 1000) };
  }

  /** How many keys are held (for tests of the bound). */
  get size(): number {
    return this.calls.size;
  }

  private sweep(now: number): void {
    for (const [key, stamps] of this.calls) {
      if (stamps.length === 0 || stamps[stamps.length - 1]! <= now - WINDOW_MS) this.calls.delete(key);
    }
  }
}
