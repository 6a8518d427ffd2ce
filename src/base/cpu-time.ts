/** Where a measurement of this thread's CPU time started. */
export interface CpuMark {
  cpu: NodeJS.CpuUsage;
  wall: number;
}

type CpuUsageOf = (previous?: NodeJS.CpuUsage) => NodeJS.CpuUsage;
/** Node.js 23.9 and later (so 24) measure one thread's CPU time; Node.js 20 only the whole process's. */
const threadCpuUsage = (process as { threadCpuUsage?: CpuUsageOf }).threadCpuUsage?.bind(process);

/** Starts a measurement of the CPU time this thread spends. */
export function cpuMark(): CpuMark {
  return { cpu: threadCpuUsage ? threadCpuUsage() : process.cpuUsage(), wall: performance.now() };
}

/**
 * Milliseconds of CPU time this thread spent since `mark`. Without a per-thread measure it is the
 * process's CPU time capped by the time that passed: other threads (the garbage collector's, the
 * image library's, password hashing) then count only while this one runs too, not twice over.
 */
export function cpuMsSince(mark: CpuMark): number {
  const used = threadCpuUsage ? threadCpuUsage(mark.cpu) : process.cpuUsage(mark.cpu);
  const ms = (used.user + used.system) / 1000;
  return threadCpuUsage ? ms : Math.min(ms, performance.now() - mark.wall);
}
