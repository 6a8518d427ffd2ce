/** How often a long import reports its progress. */
const EVERY_MS = 2000;

/**
 * Progress of a long run: every two seconds, "messages done/total (percent), rate per second,
 * time left". Runs shorter than that print nothing.
 */
export class ImportProgress {
  private done = 0;
  private readonly started = performance.now();
  private lastReport = this.started;

  constructor(
    private readonly total: number,
    private readonly report: ((line: string) => void) | undefined,
  ) {}

  advance(): void {
    this.done++;
    if (!this.report || (this.done & 255) !== 0) return;
    const now = performance.now();
    if (now - this.lastReport < EVERY_MS) return;
    this.lastReport = now;
    this.report(this.line(now));
  }

  /** The last line, once a run has reported at all. */
  finish(): void {
    const now = performance.now();
    if (this.report && this.lastReport !== this.started) this.report(this.line(now));
  }

  line(now: number): string {
    const seconds = (now - this.started) / 1000;
    const rate = seconds > 0 ? this.done / seconds : 0;
    const left = rate > 0 ? (this.total - this.done) / rate : 0;
    const percent = this.total > 0 ? Math.floor((this.done / this.total) * 100) : 100;
    return `messages ${this.done}/${this.total} (${percent}%), ${Math.round(rate)}/s, ${formatSeconds(left)} left`;
  }
}

function formatSeconds(seconds: number): string {
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m${String(s % 60).padStart(2, "0")}s` : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, "0")}m`;
}
