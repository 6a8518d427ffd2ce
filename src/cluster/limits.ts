import type { Redis } from "ioredis";
import { randomUUID } from "node:crypto";
import type { Clock } from "../base/clock.js";
import { rateLimitHit, WINDOW_MS, type CallLimiter, type RateLimitState } from "../base/rate-limit.js";
import type { MaybePromise } from "../base/maybe-promise.js";
import { attemptKey, type AttemptRule, type Attempts } from "../base/attempts.js";
import { Script, type ClusterKeys } from "./redis.js";

/**
 * Borrows up to ARGV[5] slots of a key's sliding window (one sorted set of call times): drops
 * what left the window, then grants what is free but at most a ARGV[6]th of it (at least one),
 * each slot a member "<ARGV[4]>:<n>" at the time of the borrow. Answers the slots granted (0:
 * the window is full), the count after them, and the oldest time in the window.
 */
const BORROW = new Script(`
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
local count = redis.call('ZCARD', KEYS[1])
local free = tonumber(ARGV[3]) - count
local grant = 0
if free > 0 then
  grant = math.min(tonumber(ARGV[5]), math.max(1, math.floor(free / tonumber(ARGV[6]))))
  local members = {}
  for i = 1, grant do
    members[#members + 1] = now
    members[#members + 1] = ARGV[4] .. ':' .. i
  end
  redis.call('ZADD', KEYS[1], unpack(members))
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  count = count + grant
end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {grant, count, first[2]}`);

/** Gives back slots ARGV[2]..ARGV[3] of the borrow named ARGV[1]. */
const GIVE_BACK = new Script(`
local members = {}
for i = tonumber(ARGV[2]), tonumber(ARGV[3]) do members[#members + 1] = ARGV[1] .. ':' .. i end
return redis.call('ZREM', KEYS[1], unpack(members))`);

/**
 * Attempt limits with several rules (window ms, max) on one sorted set: the wait is the longest
 * any full rule imposes; an attempt is counted only when none is full.
 */
const ATTEMPT = new Script(`
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[2]))
local wait = 0
for i = 4, #ARGV, 2 do
  local window = tonumber(ARGV[i])
  local max = tonumber(ARGV[i + 1])
  local inside = redis.call('ZRANGEBYSCORE', KEYS[1], '(' .. (now - window), '+inf', 'WITHSCORES')
  local n = #inside / 2
  if n >= max then
    local w = (tonumber(inside[(n - max) * 2 + 2]) + window - now) / 1000
    if w > wait then wait = w end
  end
end
if wait == 0 then
  redis.call('ZADD', KEYS[1], now, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return tostring(wait)`);

/** How long (ms) borrowed slots serve this process before the unused ones are given back. */
const LEASE_MS = 1_000;
/** The most slots one borrow takes. */
const MOST_SLOTS = 256;
/** A borrow takes at most this share of the window's free room, so that borrowed slots are few near the limit. */
const SHARE_OF_FREE = 16;

/** One key's slots borrowed by this process. */
interface Borrowed {
  /** The borrow's member name in the window. */
  name: string;
  granted: number;
  used: number;
  /** The window's count and oldest call time just after the borrow. */
  count: number;
  oldest: number;
  /** When the unused slots go back. */
  until: number;
  /** Whether every slot was used within the lease: the next borrow asks for twice as many, else for as many as were used. */
  ranOut: boolean;
  /** The borrow under way, that concurrent calls of the key wait for. */
  pending?: Promise<void>;
  refusal?: Error;
}

/** Whether `slots` has a slot left to use at `now`. */
function usable(slots: Borrowed, now: number): boolean {
  return slots.used < slots.granted && now < slots.until;
}

/**
 * The API limits of cluster mode: the same windows as RateLimiter, shared by every process in
 * one Redis sorted set per key. A key that calls now and then costs one Redis call per call and
 * is counted exactly. A key that calls often through one process costs far fewer: the process
 * borrows several slots of the window at once (doubling while they run out within a second) and
 * serves the calls from them; slots unused after a second are given back. The window never holds
 * more than the limit; a borrow takes at most a sixteenth of the free room, so near the limit every
 * borrow is one slot and slots held unused elsewhere are at most a few, for at most a second.
 * A borrowed slot carries the time of its borrow, at most a second before its call.
 */
export class RedisCallLimiter implements CallLimiter {
  private readonly borrowed = new Map<number | string, Borrowed>();
  private readonly timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly keys: ClusterKeys,
    private readonly domain: string,
    private readonly limit: number,
    private readonly clock: Clock,
  ) {
    if (limit <= 0) return;
    this.timer = setInterval(() => void this.giveBackExpired(this.clock.now()), LEASE_MS);
    this.timer.unref();
  }

  hit(key: number | string, now: number): MaybePromise<RateLimitState | undefined> {
    if (this.limit <= 0) return undefined;
    const slots = this.borrowed.get(key);
    return slots && usable(slots, now) ? this.take(slots) : this.borrowThenTake(key, now);
  }

  /** Gives back every key's unused slots (a clean stop) and stops the timer. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.giveBackExpired(Infinity);
  }

  private take(slots: Borrowed): RateLimitState {
    slots.used++;
    if (slots.used === slots.granted) slots.ranOut = true;
    return { limit: this.limit, remaining: Math.max(0, this.limit - (slots.count - slots.granted + slots.used)), reset: Math.ceil((slots.oldest + WINDOW_MS) / 1000) };
  }

  private async borrowThenTake(key: number | string, now: number): Promise<RateLimitState> {
    for (;;) {
      let slots = this.borrowed.get(key);
      if (slots?.pending) {
        await slots.pending;
        slots = this.borrowed.get(key);
        if (slots?.refusal) throw slots.refusal;
        if (slots && slots.used < slots.granted) return this.take(slots);
        continue;
      }
      if (slots && usable(slots, now)) return this.take(slots);
      const borrow = this.borrow(key, slots, now);
      slots = this.borrowed.get(key)!;
      slots.pending = borrow;
      await borrow;
      slots.pending = undefined;
      if (slots.refusal) throw slots.refusal;
      return this.take(slots);
    }
  }

  /** Gives back what the last borrow left unused, then borrows anew; the key's entry holds the outcome. */
  private borrow(key: number | string, previous: Borrowed | undefined, now: number): Promise<void> {
    let want = 1;
    if (previous && !previous.refusal) {
      want = previous.ranOut ? Math.min(MOST_SLOTS, previous.granted * 2) : Math.max(1, previous.used);
      void this.giveBack(key, previous);
    }
    const name = `${now}:${randomUUID()}`;
    const slots: Borrowed = { name, granted: 0, used: 0, count: 0, oldest: now, until: now + LEASE_MS, ranOut: false };
    this.borrowed.set(key, slots);
    const args = [now, WINDOW_MS, this.limit, name, want, SHARE_OF_FREE];
    return BORROW.run(this.redis, [this.keys.limit(this.domain, String(key))], args).then(
      (reply) => {
        const [granted, count, first] = Array.isArray(reply) ? reply : [];
        slots.granted = Number(granted);
        slots.count = Number(count);
        slots.oldest = Number(first ?? now);
        if (slots.granted === 0) slots.refusal = rateLimitHit(this.limit, (slots.oldest + WINDOW_MS - now) / 1000, now);
      },
      (error: unknown) => {
        // Redis unreachable after the client's retries: this call fails as when the database is
        // unreachable (Zulip's internal-error envelope); the next one asks again.
        this.borrowed.delete(key);
        throw error;
      },
    );
  }

  /** Removes the unused slots of `slots` from the window (a Redis that is down loses them when they expire). */
  private async giveBack(key: number | string, slots: Borrowed): Promise<void> {
    if (slots.used >= slots.granted) return;
    const [first, last] = [slots.used + 1, slots.granted];
    slots.granted = slots.used;
    await GIVE_BACK.run(this.redis, [this.keys.limit(this.domain, String(key))], [slots.name, first, last]).catch(() => undefined);
  }

  /** Gives back the slots whose lease ended, and forgets keys idle for a lease since. */
  private async giveBackExpired(now: number): Promise<void> {
    const work: Promise<unknown>[] = [];
    for (const [key, slots] of this.borrowed) {
      if (slots.pending || now < slots.until) continue;
      work.push(this.giveBack(key, slots));
      if (now >= slots.until + LEASE_MS) this.borrowed.delete(key);
    }
    await Promise.all(work);
  }
}

/** The attempt limits of cluster mode: AttemptLimiter's rules, shared by every process. */
export class RedisAttempts implements Attempts {
  private readonly longest: number;

  constructor(
    private readonly redis: Redis,
    private readonly keys: ClusterKeys,
    private readonly domain: string,
    private readonly rules: readonly AttemptRule[],
  ) {
    this.longest = Math.max(0, ...rules.map(([secs]) => secs)) * 1000;
  }

  async hit(rawKey: string, now: number): Promise<number> {
    const args = this.rules.flatMap(([secs, max]) => [secs * 1000, max]);
    const reply = await ATTEMPT.run(this.redis, [this.keys.limit(this.domain, attemptKey(rawKey))], [now, this.longest, `${now}:${randomUUID()}`, ...args]);
    return Number(reply);
  }

  readonly size = 0;

  async clear(rawKey: string): Promise<void> {
    await this.redis.del(this.keys.limit(this.domain, attemptKey(rawKey)));
  }
}
