import { cpuMark, cpuMsSince } from "../../src/base/cpu-time.js";

/**
 * The CPU time that `run` takes on this thread, in ms, best of three: the machine may be shared,
 * and other processes' load, or this process's other threads (a parallel garbage collection, the
 * image library), say nothing about the code's own cost.
 */
export function bestCpuMs(run: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const mark = cpuMark();
    run();
    best = Math.min(best, cpuMsSince(mark));
  }
  return best;
}
