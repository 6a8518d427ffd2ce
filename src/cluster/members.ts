import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { ClusterKeys } from "./redis.js";

/** How long a process stays listed without a heartbeat. */
export const MEMBER_TTL_MS = 15_000;
const HEARTBEAT_MS = 5_000;

/**
 * The live processes of the cluster, each listed in Redis under its id with the internal address
 * other processes forward its queues' requests to, kept alive by a heartbeat. A process killed
 * outright drops out when its entry expires; one that stops cleanly removes it at once.
 */
export class Members {
  private heartbeat: NodeJS.Timeout | undefined;
  private address: string | undefined;

  constructor(
    private readonly processId: string,
    private readonly redis: Redis,
    private readonly keys: ClusterKeys,
    private readonly log: Logger,
  ) {}

  /** Lists this process at `address` and keeps it listed. */
  async join(address: string): Promise<void> {
    this.address = address;
    await this.renew();
    // A Redis that restarted empty has forgotten us: list this process again at once.
    this.redis.on("ready", () => {
      this.renew().catch((error: unknown) => this.log.warn({ err: error }, "cluster heartbeat failed"));
    });
    this.heartbeat = setInterval(() => {
      this.renew().catch((error: unknown) => this.log.warn({ err: error }, "cluster heartbeat failed"));
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Removes this process from the list (a clean stop). */
  async leave(): Promise<void> {
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
    if (this.address !== undefined) await this.redis.del(this.keys.member(this.processId));
  }

  /** The internal address of a live process, or undefined. */
  async addressOf(processId: string): Promise<string | undefined> {
    return (await this.redis.get(this.keys.member(processId))) ?? undefined;
  }

  private async renew(): Promise<void> {
    if (this.address === undefined) return;
    await this.redis.set(this.keys.member(this.processId), this.address, "PX", MEMBER_TTL_MS);
  }
}
