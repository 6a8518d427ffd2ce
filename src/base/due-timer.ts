import type { Logger } from "pino";
import type { Clock } from "./clock.js";

/** The work a DueTimer runs: what is pending, and doing what is due. */
export interface DueWork {
  /** When the earliest pending item is due (clock milliseconds); undefined when nothing waits. */
  next(): Promise<number | undefined>;
  /** Does everything due at the clock's present; `stopping()` turns true when the timer stops. */
  run(stopping: () => boolean): Promise<void>;
}

/**
 * Runs work when it falls due by the injected clock: a timer set for the next due time (woken
 * earlier when something sooner is added), one run at a time, anything overdue at start done at
 * once. The timer never keeps the process alive. Tests move the clock and call runDue().
 */
export class DueTimer {
  private timer: NodeJS.Timeout | undefined;
  /** When the timer fires, in real (monotonic) milliseconds: the clock may be a test's, which jumps. */
  private firesAt: number | undefined;
  private chain: Promise<void> = Promise.resolve();
  private started = false;
  private stopped = false;

  constructor(
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly work: DueWork,
    /** The longest the timer sleeps before looking again (clock changes, other writers). */
    private readonly maxSleepMs = 60_000,
  ) {}

  /** Starts the timer: what is already overdue runs now. */
  start(): void {
    if (this.started) return;
    this.started = true;
    void this.runDue();
  }

  /** Runs what is due now, after any run under way, then sets the timer again; resolves when done. */
  runDue(): Promise<void> {
    this.chain = this.chain.then(async () => {
      if (this.stopped) return;
      let failed = false;
      try {
        await this.work.run(() => this.stopped);
      } catch (error) {
        failed = true;
        this.log.error({ err: error }, "scheduled work failed");
      }
      await this.arm(failed);
    });
    return this.chain;
  }

  /** Resolves when the run under way (if any) has finished. */
  idle(): Promise<void> {
    return this.chain;
  }

  /** Something became due at `at`: sets the timer earlier if it is set later. */
  wake(at: number): void {
    if (!this.started || this.stopped) return;
    if (this.firesAt !== undefined && this.firesAt - performance.now() <= at - this.clock.now()) return;
    this.set(Math.min(at, this.clock.now() + this.maxSleepMs));
  }

  /** Stops the timer and waits for a run under way, which ends early. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.firesAt = undefined;
    await this.chain;
  }

  private async arm(afterFailure: boolean): Promise<void> {
    if (!this.started || this.stopped) return;
    const now = this.clock.now();
    let next: number | undefined;
    try {
      next = await this.work.next();
    } catch (error) {
      this.log.error({ err: error }, "scheduled work: cannot read what is next");
    }
    let at = Math.min(next ?? Infinity, now + this.maxSleepMs);
    // Work that fails again at once would spin: wait a second first.
    if (afterFailure) at = Math.max(at, now + 1000);
    this.set(at);
  }

  private set(at: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    const delay = Math.max(0, at - this.clock.now());
    this.firesAt = performance.now() + delay;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.firesAt = undefined;
      void this.runDue();
    }, delay);
    this.timer.unref();
  }
}

/**
 * Work done at start and then every `intervalMs` by the clock (a daily job, say), each interval
 * counted from when the last run started. The timer may fire sooner (it looks at the clock at
 * least every maxSleepMs); a run is skipped until the interval has passed.
 */
export function everyInterval(clock: Clock, intervalMs: number, run: (stopping: () => boolean) => Promise<void>): DueWork {
  let lastStarted: number | undefined;
  return {
    next: async () => (lastStarted === undefined ? clock.now() : lastStarted + intervalMs),
    run: async (stopping) => {
      const now = clock.now();
      if (lastStarted !== undefined && now < lastStarted + intervalMs) return;
      lastStarted = now;
      await run(stopping);
    },
  };
}
