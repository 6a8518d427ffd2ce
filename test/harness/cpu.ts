import fs from "node:fs";
import { cpuMark, cpuMsSince } from "../../src/base/cpu-time.js";

/**
 * This thread's CPU time so far (ms) from Linux's scheduler statistics, or null where they cannot
 * be read. On Node.js 20 cpuMsSince knows only the whole process's CPU time (capped by the time
 * that passed), which counts the test worker's other threads too: its garbage collector's, and any
 * thread pool still at work.
 */
function threadCpuMs(): number | null {
  try {
    const ns = Number(fs.readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]);
    return Number.isFinite(ns) ? ns / 1e6 : null;
  } catch {
    return null;
  }
}

/**
 * The CPU time that `run` takes on this thread, in ms, best of three: the machine may be shared,
 * and other processes' load, or this process's other threads (a parallel garbage collection, the
 * image library), say nothing about the code's own cost.
 */
export function bestCpuMs(run: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = threadCpuMs();
    const mark = cpuMark();
    run();
    const end = start === null ? null : threadCpuMs();
    best = Math.min(best, start !== null && end !== null ? end - start : cpuMsSince(mark));
  }
  return best;
}
