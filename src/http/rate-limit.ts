import { ApiError } from "./errors.js";

const WINDOW_MS = 60_000;

/** The outcome of counting one call: the X-RateLimit-* header values. */
export interface RateLimitState {
  limit: number;
  remaining: number;
  /** UNIX seconds at which the window is free again. */
  reset: number;
}

/**
 * Per-user sliding-window limiter (Zulip's api_by_user rule: N calls per 60 s). Keeps the
 * timestamps of each user's calls in the window; a limit of 0 disables it.
 */
export class RateLimiter {
  private readonly calls = new Map<number, number[]>();

  constructor(private readonly limit: number) {}

  /** Counts one call by `userId` at `now` (ms); throws RATE_LIMIT_HIT when over the limit. */
  hit(userId: number, now: number): RateLimitState | undefined {
    if (this.limit <= 0) return undefined;
    let stamps = this.calls.get(userId);
    if (!stamps) {
      stamps = [];
      this.calls.set(userId, stamps);
    }
    let expired = 0;
    while (expired < stamps.length && stamps[expired]! <= now - WINDOW_MS) expired++;
    if (expired > 0) stamps.splice(0, expired);
    if (stamps.length >= this.limit) {
      const retryAfter = (stamps[0]! + WINDOW_MS - now) / 1000;
      throw new ApiError("API usage exceeded rate limit", "RATE_LIMIT_HIT", 429, { "retry-after": retryAfter }, {
        "Retry-After": String(retryAfter),
        "X-RateLimit-Limit": String(this.limit),
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": String(Math.ceil((now + retryAfter * 1000) / 1000)),
      });
    }
    stamps.push(now);
    return { limit: this.limit, remaining: this.limit - stamps.length, reset: Math.ceil((stamps[0]! + WINDOW_MS) / 1000) };
  }
}
