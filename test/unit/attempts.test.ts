import { describe, expect, it } from "vitest";
import { ATTEMPT_RULES, AttemptLimiter } from "../../src/base/attempts.js";
import { isStrongPassword } from "../../src/lib/users/passwords.js";

describe("AttemptLimiter", () => {
  it("applies every rule: email changes are 2 an hour and 5 a day", () => {
    const limiter = new AttemptLimiter(ATTEMPT_RULES.emailChange);
    const hour = 3_600_000;
    expect([limiter.hit("u", 0), limiter.hit("u", 1000), limiter.hit("u", 2000)]).toEqual([0, 0, 3598]);
    expect([limiter.hit("u", hour), limiter.hit("u", hour + 1000)]).toEqual([0, 0]);
    expect(limiter.hit("u", 2 * hour)).toBe(0);
    // Five in the last day: the day rule waits for the first of them to leave the window.
    expect(limiter.hit("u", 3 * hour)).toBe(21 * 3600);
    expect(limiter.hit("other", 3 * hour)).toBe(0);
  });

  it("does not count refused attempts, and forgets a cleared key", () => {
    const limiter = new AttemptLimiter([[10, 1]]);
    expect(limiter.hit("k", 0)).toBe(0);
    expect(limiter.hit("k", 5000)).toBe(5);
    expect(limiter.hit("k", 10_000)).toBe(0);
    limiter.clear("k");
    expect(limiter.hit("k", 10_001)).toBe(0);
  });
});

describe("isStrongPassword", () => {
  it.each(["f657gdGGk9", "correct horse battery", "secret-pw", "Tr0ub4dor&3", "zebra-kettle"])("accepts %j", (pw) => {
    expect(isStrongPassword(pw)).toBe(true);
  });
  it.each(["", "abc", "12345", "123456", "aaaaaa", "xyxyxy", "abcdef", "fedcba", "qwerty", "ytrewq", "1qaz2wsx", "letmein", "LetMeIn2024", "zxcvbnm"])("refuses %j", (pw) => {
    expect(isStrongPassword(pw)).toBe(false);
  });
});

describe("AttemptLimiter's memory", () => {
  it("keeps a long key as a digest, still counting it", () => {
    const limiter = new AttemptLimiter([[10, 1]]);
    const long = "x".repeat(100_000);
    expect(limiter.hit(long, 0)).toBe(0);
    expect(limiter.hit(long, 1000)).toBe(9);
    expect(limiter.hit(`${long}y`, 1000)).toBe(0);
    limiter.clear(long);
    expect(limiter.hit(long, 2000)).toBe(0);
  });

  it("holds at most maxKeys keys: expired ones go first, then the least recently used", () => {
    const limiter = new AttemptLimiter([[10, 1]], 3);
    limiter.hit("a", 0);
    limiter.hit("b", 20_000);
    limiter.hit("c", 20_000);
    // "a" has expired: adding "d" drops it alone.
    limiter.hit("d", 20_000);
    expect(limiter.size).toBe(3);
    expect(limiter.hit("b", 21_000)).toBe(9);
    // None has expired now: "e" evicts the least recently used, "c" ("b" was just used).
    limiter.hit("e", 21_000);
    expect(limiter.size).toBe(3);
    expect(limiter.hit("b", 22_000)).toBe(8);
    expect(limiter.hit("c", 22_000)).toBe(0);
  });
});
