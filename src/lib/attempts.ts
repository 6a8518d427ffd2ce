/** One limit: at most `max` attempts within `windowSecs` seconds. */
export type AttemptRule = readonly [windowSecs: number, max: number];

/**
 * Zulip's RateLimitedObject for one domain: per-key sliding windows kept in memory. An attempt
 * is counted when made, whether it succeeds or not; `clear` forgets a key (a correct password
 * clears the failed attempts before it).
 */
export class AttemptLimiter {
  private readonly stamps = new Map<string, number[]>();
  private readonly longest: number;

  constructor(private readonly rules: readonly AttemptRule[]) {
    this.longest = Math.max(0, ...rules.map(([secs]) => secs)) * 1000;
  }

  /** Counts an attempt at `now` (ms); returns 0, or the seconds to wait when over a limit (then not counted). */
  hit(key: string, now: number): number {
    const kept = (this.stamps.get(key) ?? []).filter((t) => t > now - this.longest);
    let wait = 0;
    for (const [secs, max] of this.rules) {
      const inWindow = kept.filter((t) => t > now - secs * 1000);
      if (inWindow.length >= max) wait = Math.max(wait, ((inWindow[inWindow.length - max] ?? now) + secs * 1000 - now) / 1000);
    }
    if (wait === 0) kept.push(now);
    this.stamps.set(key, kept);
    return wait;
  }

  /** Forgets the attempts of a key. */
  clear(key: string): void {
    this.stamps.delete(key);
  }
}

/** Zulip's default rules for the domains we apply. */
export const ATTEMPT_RULES = {
  /** authenticate_by_username: 5 password attempts per 30 minutes. */
  authentication: [[1800, 5]],
  /** email_change_by_user: 2 email-change requests per hour, 5 per day. */
  emailChange: [
    [3600, 2],
    [86400, 5],
  ],
} as const satisfies Record<string, readonly AttemptRule[]>;
