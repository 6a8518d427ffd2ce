import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/base/errors.js";
import type { RateLimitState } from "../../src/base/rate-limit.js";
import { RedisCallLimiter } from "../../src/cluster/limits.js";
import { ClusterKeys } from "../../src/cluster/redis.js";
import { CLUSTER_SKIP_REASON, clusterBackends } from "../harness/cluster.js";

// The API limits of cluster mode against a real Redis: several limiters on one prefix stand for
// several processes of one cluster.
const backends = clusterBackends();
if (!backends) console.log(CLUSTER_SKIP_REASON);

let redis: Redis;
beforeAll(async () => {
  if (backends) redis = new Redis(backends.redisUrl);
});
afterAll(() => redis?.disconnect());

/** `n` limiters ("processes") sharing one fresh prefix, on a clock the test moves. */
function processes(n: number, limit: number) {
  const keys = new ClusterKeys(`limits-test-${randomBytes(4).toString("hex")}:`);
  const clock = { t: 1_800_000_000_000, now: () => clock.t };
  const limiters = Array.from({ length: n }, () => new RedisCallLimiter(redis, keys, "api_by_user", limit, clock));
  return {
    clock,
    limiters,
    /** The calls the shared window holds for `key`. */
    held: (key: number) => redis.zcard(keys.limit("api_by_user", String(key))),
    stop: () => Promise.all(limiters.map((l) => l.stop())),
  };
}

async function outcome(call: () => unknown): Promise<RateLimitState | ApiError> {
  try {
    return (await call()) as RateLimitState;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
}

async function evalshaCalls(): Promise<number> {
  const stats = await redis.info("commandstats");
  return Number(/cmdstat_evalsha:calls=(\d+)/.exec(stats)?.[1] ?? 0);
}

describe.skipIf(!backends)("the API limits of cluster mode", () => {
  it("counts a caller that calls now and then exactly, call by call, on any process", async () => {
    const c = processes(3, 4);
    const remaining = [];
    for (const on of [0, 1, 2, 0]) remaining.push((await c.limiters[on]!.hit(7, c.clock.now()))!.remaining);
    expect(remaining).toEqual([3, 2, 1, 0]);
    const refused = await outcome(() => c.limiters[1]!.hit(7, c.clock.now()));
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).code).toBe("RATE_LIMIT_HIT");
    expect((refused as ApiError).body()).toEqual({ result: "error", msg: "API usage exceeded rate limit", code: "RATE_LIMIT_HIT", "retry-after": 60 });
    expect(await c.held(7)).toBe(4);
    c.clock.t += 60_001;
    expect((await c.limiters[2]!.hit(7, c.clock.now()))!.remaining).toBe(3);
    await c.stop();
  });

  it("serves a busy caller from borrowed slots, with far fewer Redis calls than API calls, and gives back what it did not use", async () => {
    const c = processes(1, 100_000);
    const before = await evalshaCalls();
    const states = await Promise.all(Array.from({ length: 2000 }, () => c.limiters[0]!.hit(8, c.clock.now())));
    const redisCalls = (await evalshaCalls()) - before;
    expect(states.every((s) => s !== undefined && s.limit === 100_000)).toBe(true);
    expect(redisCalls).toBeGreaterThan(0);
    expect(redisCalls).toBeLessThan(40);
    expect(await c.held(8)).toBeGreaterThanOrEqual(2000);
    // The lease ends: what was borrowed and not used goes back, and the window holds the calls made.
    c.clock.t += 1_000;
    await c.stop();
    expect(await c.held(8)).toBe(2000);
  });

  it("never lets more calls than the limit through, however they are spread over processes", async () => {
    const c = processes(3, 60);
    const results = await Promise.all(Array.from({ length: 200 }, (_, i) => outcome(() => c.limiters[i % 3]!.hit(9, c.clock.now()))));
    const allowed = results.filter((r) => !(r instanceof ApiError));
    expect(allowed.length).toBe(60);
    expect(results.filter((r) => r instanceof ApiError).every((r) => (r as ApiError).code === "RATE_LIMIT_HIT")).toBe(true);
    expect(await c.held(9)).toBe(60);
    await c.stop();
  });

  it("lends slots held unused by a process to the others once its lease ends", async () => {
    const c = processes(2, 400);
    // Process 0 runs through growing borrows, then stops calling with slots in hand.
    await Promise.all(Array.from({ length: 200 }, () => c.limiters[0]!.hit(10, c.clock.now())));
    const used = 200;
    const held = await c.held(10);
    expect(held).toBeGreaterThan(used);
    // Unused borrowed slots are at most a sixteenth of the room the window had.
    expect(held - used).toBeLessThanOrEqual(Math.ceil((400 - used) / 16));
    c.clock.t += 1_000;
    await c.limiters[0]!.stop();
    expect(await c.held(10)).toBe(used);
    const results = await Promise.all(Array.from({ length: 400 }, () => outcome(() => c.limiters[1]!.hit(10, c.clock.now()))));
    expect(results.filter((r) => !(r instanceof ApiError)).length).toBe(400 - used);
    await c.stop();
  });

  it("fails the calls waiting on a borrow Redis cannot answer, and borrows afresh once it can", async () => {
    // A connection of the limiter's own, closed: ioredis fails its commands at once.
    const own = new Redis(backends!.redisUrl, { lazyConnect: true });
    await own.connect();
    own.disconnect();
    const keys = new ClusterKeys(`limits-test-${randomBytes(4).toString("hex")}:`);
    const clock = { now: () => 1_800_000_000_000 };
    const limiter = new RedisCallLimiter(own, keys, "api_by_user", 10, clock);
    const failed = await Promise.allSettled(Array.from({ length: 5 }, () => limiter.hit(12, clock.now())));
    expect(failed.map((r) => r.status)).toEqual(Array(5).fill("rejected"));
    await own.connect();
    const states = await Promise.all(Array.from({ length: 3 }, () => limiter.hit(12, clock.now())));
    expect(states.map((s) => s!.remaining).sort()).toEqual([7, 8, 9]);
    await limiter.stop();
    own.disconnect();
  });

  it("is off with a limit of 0", async () => {
    const c = processes(1, 0);
    expect(c.limiters[0]!.hit(11, c.clock.now())).toBe(undefined);
    expect(await c.held(11)).toBe(0);
    await c.stop();
  });
});
