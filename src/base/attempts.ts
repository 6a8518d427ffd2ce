import { createHash } from "node:crypto";
import type { MaybePromise } from "./maybe-promise.js";

/** One limit: at most `max` attempts within `windowSecs` seconds. */
export type AttemptRule = readonly [windowSecs: number, max: number];

/** Keys longer than this are kept as their SHA-256 digest. */
const MAX_KEY_LENGTH = 64;

/** Attempt limits per key: in this process's memory, or (cluster mode) in Redis. */
export interface Attempts {
  /** Counts an attempt at `now` (ms); resolves to 0, or the seconds to wait when over a limit (then not counted). */
  hit(rawKey: string, now: number): MaybePromise<number>;
  /** Forgets the attempts of a key. */
  clear(rawKey: string): MaybePromise<void>;
  /** How many keys this process holds in memory (0 when they are kept in Redis). */
  readonly size: number;
}

/**
 * Zulip's RateLimitedObject for one domain: per-key sliding windows kept in memory. An attempt
 * is counted when made, whether it succeeds or not; `clear` forgets a key (a correct password
 * clears the failed attempts before it). Anyone can make up keys (addresses tried at login), so
 * the memory is bounded: long keys are kept as a digest, and past `maxKeys` the keys whose
 * windows have emptied are dropped, then the least recently used.
 */
export class AttemptLimiter implements Attempts {
  private readonly stamps = new Map<string, number[]>();
  private readonly longest: number;

  constructor(
    private readonly rules: readonly AttemptRule[],
    private readonly maxKeys = 100_000,
  ) {
    this.longest = Math.max(0, ...rules.map(([secs]) => secs)) * 1000;
  }

  /** How many keys are held. */
  get size(): number {
    return this.stamps.size;
  }

  /** Counts an attempt at `now` (ms); returns 0, or the seconds to wait when over a limit (then not counted). */
  hit(rawKey: string, now: number): number {
    const key = attemptKey(rawKey);
    const kept = (this.stamps.get(key) ?? []).filter((t) => t > now - this.longest);
    let wait = 0;
    for (const [secs, max] of this.rules) {
      const inWindow = kept.filter((t) => t > now - secs * 1000);
      if (inWindow.length >= max) wait = Math.max(wait, ((inWindow[inWindow.length - max] ?? now) + secs * 1000 - now) / 1000);
    }
    if (wait === 0) kept.push(now);
    // Deleted first so that the map's order is least recently used first.
    this.stamps.delete(key);
    if (this.stamps.size >= this.maxKeys) this.makeRoom(now);
    this.stamps.set(key, kept);
    return wait;
  }

  /** Forgets the attempts of a key. */
  clear(rawKey: string): void {
    this.stamps.delete(attemptKey(rawKey));
  }

  private makeRoom(now: number): void {
    for (const [key, stamps] of this.stamps) if (stamps.every((t) => t <= now - this.longest)) this.stamps.delete(key);
    for (const key of this.stamps.keys()) {
      if (this.stamps.size < this.maxKeys) break;
      this.stamps.delete(key);
    }
  }
}

/** The key an attempt is kept under: itself, or the digest of a long one. */
export function attemptKey(key: string): string {
  return key.length <= MAX_KEY_LENGTH ? key : `sha256:${createHash("sha256").update(key).digest("base64")}`;
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
  /** password_reset_form_by_email: 2 reset emails to one address per hour, 5 per day. */
  passwordResetForm: [
    [3600, 2],
    [86400, 5],
  ],
  /** spectator_attachment_access_by_file: 1000 downloads of one file a day without credentials. */
  spectatorAttachmentAccess: [[86400, 1000]],
} as const satisfies Record<string, readonly AttemptRule[]>;
