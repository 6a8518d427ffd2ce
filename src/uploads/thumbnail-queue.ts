import type { Logger } from "pino";

/** Runs one image's thumbnail job (the work itself lives in actions/thumbnails.ts). */
export type ThumbnailJob = (imageId: number) => Promise<void>;

/**
 * Thumbnail work, done off the request path one image at a time. sharp decodes in libuv's
 * threadpool, so a job never blocks the event loop; running them one by one keeps a burst of
 * uploads from taking every thread (and both cores) away from requests. Jobs are image ids,
 * deduplicated; after a restart the server queues again whatever was never thumbnailed.
 */
export class ThumbnailQueue {
  private readonly pending = new Set<number>();
  private running = false;
  private paused = false;
  private stopped = false;
  private job: ThumbnailJob | undefined;
  private waiters: (() => void)[] = [];

  constructor(private readonly log: Logger) {}

  /** Sets the work and starts on anything queued already. */
  start(job: ThumbnailJob): void {
    this.job = job;
    this.pump();
  }

  /** Queues an image (after its upload has committed). */
  enqueue(imageId: number): void {
    if (this.stopped) return;
    this.pending.add(imageId);
    this.pump();
  }

  /** Holds queued work (tests look at messages before their thumbnails exist). */
  pause(): void {
    this.paused = true;
  }

  resume(): void {
    this.paused = false;
    this.pump();
  }

  /** Resolves once nothing is queued or running. */
  idle(): Promise<void> {
    if (!this.running && (this.pending.size === 0 || this.paused || this.stopped)) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Takes no new work; resolves once the running job ends. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.pending.clear();
    await this.idle();
  }

  /** How many images wait. */
  get size(): number {
    return this.pending.size;
  }

  private pump(): void {
    if (this.running || this.paused || !this.job) return this.settle();
    const next = this.pending.values().next();
    if (next.done) return this.settle();
    this.pending.delete(next.value);
    this.running = true;
    const job = this.job;
    void job(next.value)
      .catch((error: unknown) => this.log.error({ err: error, imageId: next.value }, "thumbnail job failed"))
      .finally(() => {
        this.running = false;
        this.pump();
      });
  }

  private settle(): void {
    if (this.running || (this.pending.size > 0 && !this.paused && !this.stopped)) return;
    const waiters = this.waiters;
    this.waiters = [];
    for (const resolve of waiters) resolve();
  }
}
