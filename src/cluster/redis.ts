import { createHash } from "node:crypto";
import type { Redis } from "ioredis";
import type { Logger } from "pino";

/** The Redis key names of one cluster, under a common prefix. */
export class ClusterKeys {
  constructor(private readonly prefix: string) {}
  /** The stream of every commit of every process. */
  get events(): string {
    return `${this.prefix}events`;
  }
  /** The recorded commits of a process already on the stream (cluster/pending.ts): seq → 1. */
  appended(processId: string): string {
    return `${this.prefix}appended:${processId}`;
  }
  /** The pub/sub channel on which processes say how far into the stream they have applied. */
  get applied(): string {
    return `${this.prefix}applied`;
  }
  /** The shared secret of forwarded requests, when the operator set none. */
  get secret(): string {
    return `${this.prefix}secret`;
  }
  /** A live process: its internal address, with a time to live its heartbeat renews. */
  member(processId: string): string {
    return `${this.prefix}member:${processId}`;
  }
  /** A queue saved by a process that stopped, waiting for the next process asked about it. */
  handover(queueId: string): string {
    return `${this.prefix}handover:${queueId}`;
  }
  /** The process that adopted a handed-over queue. */
  moved(queueId: string): string {
    return `${this.prefix}moved:${queueId}`;
  }
  /** A queue's saved row (its state and the positions it is consistent at), for whoever adopts it after its holder died. */
  queueRow(queueId: string): string {
    return `${this.prefix}queue:${queueId}`;
  }
  /** A process's side log: the events its queues got off the shared stream (presence, heartbeats). */
  sideLog(processId: string): string {
    return `${this.prefix}side:${processId}`;
  }
  /** A lease on work that runs once across the cluster. */
  lease(name: string): string {
    return `${this.prefix}lease:${name}`;
  }
  /** A realm's presence update ids. */
  presenceIds(realmId: number): string {
    return `${this.prefix}presence-id:${realmId}`;
  }
  /** A realm's presence: user id → "lastActive,lastConnected,updateId" (ms; lastActive may be empty). */
  presence(realmId: number): string {
    return `${this.prefix}presence:${realmId}`;
  }
  /** A realm's presence changes: each user scored by its latest update id. */
  presenceLog(realmId: number): string {
    return `${this.prefix}presence-log:${realmId}`;
  }
  /** Set once a realm's presence was loaded from the database into Redis. */
  presenceSeeded(realmId: number): string {
    return `${this.prefix}presence-seeded:${realmId}`;
  }
  /** The pub/sub channel of presence events (and their acknowledgements). */
  get presenceEvents(): string {
    return `${this.prefix}presence-events`;
  }
  /** A rate-limit window. */
  limit(domain: string, key: string): string {
    return `${this.prefix}limit:${domain}:${key}`;
  }
}

/**
 * A connection to the cluster's Redis (`redis://…`, `rediss://…` or `unix:/path`). It reconnects
 * by itself; `blocking` connections (the stream reader) fail commands at once while disconnected
 * and never resend a command cut off by a disconnect, so their owner notices the break.
 */
export async function connectRedis(url: string, log: Logger, name: string, blocking = false): Promise<Redis> {
  // Loaded when used: one process without Redis never loads the client.
  const { Redis } = await import("ioredis");
  const options = {
    lazyConnect: true,
    connectionName: `rookery-${name}`,
    retryStrategy: (attempt: number) => Math.min(attempt * 100, 1000),
    // No auto-pipelining: with rate limits borrowed in chunks, few commands share a turn of the
    // event loop, and its bookkeeping cost more than it saved (bench/cluster, POST /messages in
    // cluster mode against one process: 0.80–0.83× with it, 0.86–0.99× without).
    ...(blocking ? { enableOfflineQueue: false, autoResendUnfulfilledCommands: false, maxRetriesPerRequest: 0 } : {}),
  };
  const redis = url.startsWith("unix:") ? new Redis({ ...options, path: url.slice("unix:".length) }) : new Redis(url, options);
  let down = false;
  redis.on("error", (error: Error) => {
    if (!down) log.warn({ err: error, connection: name }, "redis connection error");
    down = true;
  });
  redis.on("ready", () => {
    if (down) log.info({ connection: name }, "redis connection restored");
    down = false;
  });
  return redis;
}

/** Compares two stream ids ("ms-seq"). */
export function compareStreamIds(a: string, b: string): number {
  const [am = 0, as = 0] = a.split("-").map(Number);
  const [bm = 0, bs = 0] = b.split("-").map(Number);
  return am !== bm ? am - bm : as - bs;
}

/** A Lua script run by its digest (EVALSHA: the text is sent once, when Redis does not have it yet). */
export class Script {
  private readonly sha: string;

  constructor(private readonly text: string) {
    this.sha = createHash("sha1").update(text).digest("hex");
  }

  async run(redis: Redis, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
    try {
      return await redis.evalsha(this.sha, keys.length, ...keys, ...args);
    } catch (error) {
      if (!(error instanceof Error) || !error.message.startsWith("NOSCRIPT")) throw error;
      return redis.eval(this.text, keys.length, ...keys, ...args);
    }
  }
}
