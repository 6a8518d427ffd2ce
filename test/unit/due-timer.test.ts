import pino from "pino";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { DueTimer, everyInterval } from "../../src/base/due-timer.js";

/** A clock that follows the fake timers' time. */
const clock = { now: () => Date.now() };

/** Work due at the times in `pending` (ms); a run takes off what is due and records when it ran. */
function workOn(pending: number[]) {
  const runs: number[] = [];
  const work = {
    next: async () => (pending.length > 0 ? Math.min(...pending) : undefined),
    run: async () => {
      runs.push(Date.now());
      for (let i = pending.length - 1; i >= 0; i--) if ((pending[i] ?? Infinity) <= Date.now()) pending.splice(i, 1);
    },
  };
  return { work, runs };
}

function isTimer(value: unknown): value is { hasRef(): boolean } {
  return typeof value === "object" && value !== null && "hasRef" in value && typeof value.hasRef === "function";
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});
afterEach(() => {
  // A spy on the faked setTimeout first, or it would outlive the fake clock.
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe("DueTimer", () => {
  it("runs at start, then exactly when the next item falls due", async () => {
    const { work, runs } = workOn([1_005_000]);
    const timer = new DueTimer(clock, pino({ level: "silent" }), work);
    timer.start();
    await timer.idle();
    expect(runs).toEqual([1_000_000]);
    await vi.advanceTimersByTimeAsync(4_999);
    expect(runs).toEqual([1_000_000]);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toEqual([1_000_000, 1_005_000]);
    await timer.stop();
  });

  it("is woken for an item due sooner than it is set for, and not for a later one", async () => {
    const pending: number[] = [];
    const { work, runs } = workOn(pending);
    const timer = new DueTimer(clock, pino({ level: "silent" }), work, 60_000);
    timer.start();
    await timer.idle();
    pending.push(1_002_000);
    timer.wake(1_002_000);
    pending.push(1_003_000);
    timer.wake(1_003_000);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(runs).toEqual([1_000_000, 1_002_000]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toEqual([1_000_000, 1_002_000, 1_003_000]);
    await timer.stop();
  });

  it("waits a second after a failed run, and looks again after its longest sleep", async () => {
    const pending = [1_000_000];
    const { work, runs } = workOn(pending);
    let failures = 1;
    const timer = new DueTimer(clock, pino({ level: "silent" }), {
      next: work.next,
      run: async (stopping) => {
        if (failures-- > 0) {
          runs.push(Date.now());
          throw new Error("database away");
        }
        await work.run();
        expect(stopping()).toBe(false);
      },
    }, 10_000);
    timer.start();
    await timer.idle();
    expect(runs).toEqual([1_000_000]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(runs).toEqual([1_000_000, 1_001_000]);
    expect(pending).toEqual([]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(runs).toEqual([1_000_000, 1_001_000, 1_011_000]);
    await timer.stop();
  });

  it("never keeps the process alive, and runs nothing once stopped", async () => {
    const { work, runs } = workOn([1_001_000]);
    const setTimer = vi.spyOn(globalThis, "setTimeout");
    const timer = new DueTimer(clock, pino({ level: "silent" }), work);
    timer.start();
    await timer.idle();
    expect(vi.getTimerCount()).toBe(1);
    const handle: unknown = setTimer.mock.results.at(-1)?.value;
    if (!isTimer(handle)) throw new Error("setTimeout returned no timer");
    expect(handle.hasRef()).toBe(false);
    await timer.stop();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(5_000);
    await timer.runDue();
    expect(runs).toEqual([1_000_000]);
  });

  it("runs interval work at start, then once per interval, however often it is woken", async () => {
    const runs: number[] = [];
    const timer = new DueTimer(clock, pino({ level: "silent" }), everyInterval(clock, 3_000, async () => void runs.push(Date.now())), 1_000);
    timer.start();
    await timer.idle();
    await vi.advanceTimersByTimeAsync(2_999);
    await timer.runDue();
    expect(runs).toEqual([1_000_000]);
    await vi.advanceTimersByTimeAsync(1);
    expect(runs).toEqual([1_000_000, 1_003_000]);
    await vi.advanceTimersByTimeAsync(3_000);
    expect(runs).toEqual([1_000_000, 1_003_000, 1_006_000]);
    await timer.stop();
  });
});
