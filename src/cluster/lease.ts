import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { ClusterKeys } from "./redis.js";

const LEASE_MS = 15_000;
const RENEW_MS = 5_000;

/** Extends the lease only if this process still holds it. */
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
/** Releases the lease only if this process holds it. */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

/**
 * A lease in Redis on work that must run in one process of the cluster at a time (scheduled
 * messages, the thumbnail backlog): taken when free, renewed while held, given up on a clean stop.
 * A holder killed outright loses it when it expires; another process takes it on its next try.
 */
export class Lease {
  private timer: NodeJS.Timeout | undefined;
  /** Until when (Date.now() ms) this process may act as the holder. */
  private heldUntil = 0;

  constructor(
    private readonly name: string,
    private readonly processId: string,
    private readonly redis: Redis,
    private readonly keys: ClusterKeys,
    private readonly log: Logger,
  ) {}

  /** Called each time this process takes the lease. */
  onTaken: () => void = () => {};

  /** Whether this process holds the lease now. */
  get held(): boolean {
    return Date.now() < this.heldUntil;
  }

  /** Tries to take the lease now and again every few seconds. */
  async start(): Promise<void> {
    await this.tick();
    this.timer = setInterval(() => void this.tick(), RENEW_MS);
    this.timer.unref();
  }

  /** Stops trying, and gives the lease up if held. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    const was = this.held;
    this.heldUntil = 0;
    if (was) await this.redis.eval(RELEASE, 1, this.keys.lease(this.name), this.processId).catch(() => undefined);
  }

  private async tick(): Promise<void> {
    const key = this.keys.lease(this.name);
    const started = Date.now();
    try {
      if (this.held && Number(await this.redis.eval(RENEW, 1, key, this.processId, LEASE_MS)) === 1) {
        this.heldUntil = started + LEASE_MS - RENEW_MS;
        return;
      }
      const taken = (await this.redis.set(key, this.processId, "PX", LEASE_MS, "NX")) === "OK";
      this.heldUntil = taken ? started + LEASE_MS - RENEW_MS : 0;
      if (taken) {
        this.log.info({ lease: this.name }, "took the cluster lease");
        this.onTaken();
      }
    } catch (error) {
      this.heldUntil = 0;
      this.log.warn({ err: error, lease: this.name }, "cluster lease unavailable");
    }
  }
}
