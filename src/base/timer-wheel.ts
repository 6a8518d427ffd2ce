/** Something a TimerWheel can hold: it carries its own due time (0 when not in a wheel). */
export interface WheelItem {
  wheelDue: number;
}

/**
 * Many timeouts on one timer: items are kept in buckets by due time (whole seconds for delays of a
 * second or more, milliseconds below), and one unref'd timer is set for the earliest bucket. Adding
 * and removing an item are O(1) and allocate nothing once its bucket exists, so 10,000 parked
 * long-polls cost the runtime one timer instead of 10,000, and a heartbeat may come up to a second
 * late. Times are real (monotonic) milliseconds: an injected test clock does not move them.
 */
export class TimerWheel<T extends WheelItem> {
  private readonly buckets = new Map<number, Set<T>>();
  private timer: NodeJS.Timeout | undefined;
  private armedFor = Infinity;
  private count = 0;

  constructor(private readonly fire: (item: T) => void) {}

  /** Calls `fire(item)` in `delayMs` (rounded up to the bucket), unless removed first. */
  add(item: T, delayMs: number): void {
    if (item.wheelDue !== 0) this.remove(item);
    const grain = delayMs >= 1000 ? 1000 : 1;
    const due = Math.max(1, Math.ceil((performance.now() + delayMs) / grain) * grain);
    item.wheelDue = due;
    let bucket = this.buckets.get(due);
    if (!bucket) this.buckets.set(due, (bucket = new Set()));
    bucket.add(item);
    this.count++;
    if (due < this.armedFor) this.arm(due);
  }

  /** Takes `item` out (nothing if it is not in the wheel). */
  remove(item: T): void {
    const due = item.wheelDue;
    if (due === 0) return;
    item.wheelDue = 0;
    const bucket = this.buckets.get(due);
    if (!bucket?.delete(item)) return;
    this.count--;
    if (bucket.size === 0) this.buckets.delete(due);
  }

  /** Number of items waiting. */
  size(): number {
    return this.count;
  }

  /** Drops every item and the timer. */
  stop(): void {
    for (const bucket of this.buckets.values()) for (const item of bucket) item.wheelDue = 0;
    this.buckets.clear();
    this.count = 0;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = Infinity;
  }

  private arm(due: number): void {
    clearTimeout(this.timer);
    this.armedFor = due;
    this.timer = setTimeout(this.run, Math.max(0, due - performance.now()));
    this.timer.unref();
  }

  private readonly run = (): void => {
    this.timer = undefined;
    this.armedFor = Infinity;
    const now = performance.now();
    for (const [due, bucket] of this.buckets) {
      if (due > now) continue;
      this.buckets.delete(due);
      this.count -= bucket.size;
      for (const item of bucket) {
        item.wheelDue = 0;
        this.fire(item);
      }
    }
    let next = Infinity;
    for (const due of this.buckets.keys()) if (due < next) next = due;
    if (next !== Infinity && next < this.armedFor) this.arm(next);
  };
}
