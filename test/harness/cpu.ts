/**
 * The CPU time of this process that `run` takes, in ms, best of three: the machine may be shared,
 * and other processes' load says nothing about the code's own cost.
 */
export function bestCpuMs(run: () => unknown): number {
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const start = process.cpuUsage();
    run();
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}
