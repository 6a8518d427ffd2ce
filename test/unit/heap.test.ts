import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { collectAfterBursts } from "../../src/base/heap.js";

describe("collectAfterBursts", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it("collects twice, a second apart, once a second passes with no request after a burst of 2,000, and not while busy", () => {
    let answered = 0;
    const gc = vi.fn();
    const stop = collectAfterBursts(() => answered, gc);
    for (let second = 0; second < 5; second++) {
      answered += 1000;
      vi.advanceTimersByTime(1000);
    }
    expect(gc).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1000);
    expect(gc).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    expect(gc).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(10_000);
    expect(gc).toHaveBeenCalledTimes(2);
    stop();
  });

  it("leaves a quiet server with a few requests alone, and does nothing without a collector", () => {
    let answered = 0;
    const gc = vi.fn();
    const stop = collectAfterBursts(() => answered, gc);
    answered = 1999;
    vi.advanceTimersByTime(5000);
    expect(gc).not.toHaveBeenCalled();
    answered = 2001;
    vi.advanceTimersByTime(2000);
    expect(gc).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    expect(gc).toHaveBeenCalledTimes(2);
    stop();
    expect(() => collectAfterBursts(() => 0, undefined)()).not.toThrow();
  });

  it("does not collect the second time when requests came back in between: it waits for the next quiet second", () => {
    let answered = 0;
    const gc = vi.fn();
    const stop = collectAfterBursts(() => answered, gc);
    answered = 3000;
    vi.advanceTimersByTime(2000);
    expect(gc).toHaveBeenCalledTimes(1);
    answered += 10;
    vi.advanceTimersByTime(1000);
    expect(gc).toHaveBeenCalledTimes(1);
    answered += 2000;
    vi.advanceTimersByTime(1000);
    expect(gc).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    expect(gc).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(1000);
    expect(gc).toHaveBeenCalledTimes(3);
    stop();
  });
});
