/** Where a measurement of this thread's CPU time started. */
export interface CpuMark {
  cpu: NodeJS.CpuUsage;
  wall: number;
}

type CpuUsageOf = (previous?: NodeJS.CpuUsage) => NodeJS.CpuUsage;
/** Node.js 23.9 and later (so 24) measure one thread's CPU time; Node.js 20 only the whole process's. */
const cpuUsage: CpuUsageOf = (process as { threadCpuUsage?: CpuUsageOf }).threadCpuUsage?.bind(process) ?? process.cpuUsage.bind(process);

/** Starts a measurement of the CPU time this thread spends. */
export function cpuMark(): CpuMark {
  return { cpu: cpuUsage(), wall: performance.now() };
}

/**
 * Milliseconds of CPU time this thread spent since `mark`, capped by the time that passed. Where
 * only the process's CPU time is known, the cap keeps other threads (the garbage collector's, the
 * image library's, password hashing) from counting beyond the time this one ran, twice over.
 */
export function cpuMsSince(mark: CpuMark): number {
  const used = cpuUsage(mark.cpu);
  return Math.min((used.user + used.system) / 1000, performance.now() - mark.wall);
}
