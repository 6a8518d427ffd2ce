import type { Redis } from "ioredis";
import { randomUUID } from "node:crypto";
import { rateLimitHit, WINDOW_MS, type CallLimiter, type RateLimitState } from "../http/rate-limit.js";
import { attemptKey, type AttemptRule, type Attempts } from "../lib/attempts.js";
import { Script, type ClusterKeys } from "./redis.js";

/**
 * The sliding window of the API limits, one sorted set of call times per key: drops what left
 * the window, refuses when full (answering the oldest time), else adds the call.
 */
const CALL = new Script(`
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', tonumber(ARGV[1]) - tonumber(ARGV[2]))
local count = redis.call('ZCARD', KEYS[1])
local allowed = 0
if count < tonumber(ARGV[3]) then
  redis.call('ZADD', KEYS[1], ARGV[1], ARGV[4])
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  count = count + 1
  allowed = 1
end
local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {allowed, count, first[2]}`);

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

/** The API limits of cluster mode: the same windows as RateLimiter, shared by every process. */
export class RedisCallLimiter implements CallLimiter {
  constructor(
    private readonly redis: Redis,
    private readonly keys: ClusterKeys,
    private readonly domain: string,
    private readonly limit: number,
  ) {}

  hit(key: number | string, now: number): Promise<RateLimitState | undefined> | undefined {
    if (this.limit <= 0) return undefined;
    return CALL.run(this.redis, [this.keys.limit(this.domain, String(key))], [now, WINDOW_MS, this.limit, `${now}:${randomUUID()}`]).then((reply) => {
      const [allowed, count, first] = Array.isArray(reply) ? reply : [];
      const oldest = Number(first ?? now);
      if (Number(allowed) !== 1) throw rateLimitHit(this.limit, (oldest + WINDOW_MS - now) / 1000, now);
      return { limit: this.limit, remaining: this.limit - Number(count), reset: Math.ceil((oldest + WINDOW_MS) / 1000) };
    });
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
