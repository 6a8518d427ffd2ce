import { Worker } from "node:worker_threads";
import { afterEach, describe, expect, it } from "vitest";
import { cpuMark, cpuMsSince } from "../../src/base/cpu-time.js";
import { bestCpuMs } from "../harness/cpu.js";

/** Spins this thread for `ms` of wall time. */
function spin(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** A fixed amount of work (about 20 ms here), whatever else runs. */
function work(): number {
  let x = 0;
  for (let i = 0; i < 5_000_000; i++) x = (x + i * 7) % 1_000_003;
  return x;
}

let worker: Worker | undefined;
let others: Worker[] = [];
afterEach(async () => {
  await worker?.terminate();
  worker = undefined;
  await Promise.all(others.map((w) => w.terminate()));
  others = [];
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

describe("bestCpuMs: what the renderer's timing tests measure", () => {
  it("gives the same work about the same time while three other threads of the process keep the CPU busy", async () => {
    work();
    const quiet = bestCpuMs(work);
    // On two cores this thread then gets half of one: the time that passes doubles, and the
    // process's CPU time with it, but not this thread's.
    others = [0, 1, 2].map(() => new Worker("for (;;);", { eval: true }));
    await Promise.all(others.map((w) => new Promise((resolve) => w.once("online", resolve))));
    const busy = bestCpuMs(work);
    expect(quiet).toBeGreaterThan(2);
    expect(busy).toBeLessThan(quiet * 1.5);
  });
});
