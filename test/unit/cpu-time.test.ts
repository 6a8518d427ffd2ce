import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { cpuMark, cpuMsSince } from "../../src/base/cpu-time.js";

/** Spins this thread for `ms` of wall time. */
function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

let worker: Worker | undefined;
afterEach(async () => {
  await worker?.terminate();
  worker = undefined;
});

describe("cpuMsSince: this thread's CPU time", () => {
  it("counts this thread's work", () => {
    const started = performance.now();
    const mark = cpuMark();
    spin(30);
    const ms = cpuMsSince(mark);
    expect(ms).toBeGreaterThan(5);
    expect(ms).toBeLessThanOrEqual(performance.now() - started);
  });

  it("does not count another thread's work on top of this one's", async () => {
    worker = new Worker("const until = Date.now() + 5000; while (Date.now() < until);", { eval: true });
    await new Promise((resolve) => worker!.once("online", resolve));
    const mark = cpuMark();
    const processMark = process.cpuUsage();
    const started = performance.now();
    // Both threads run until the process as a whole has spent clearly more than the time passed.
    const processMs = () => {
      const usage = process.cpuUsage(processMark);
      return (usage.user + usage.system) / 1000;
    };
    do spin(10);
    while (processMs() < performance.now() - started + 20 && performance.now() - started < 5000);
    const ms = cpuMsSince(mark);
    const wall = performance.now() - started;
    expect(processMs()).toBeGreaterThan(wall);
    expect(ms).toBeLessThanOrEqual(wall + 1);
  });
});
