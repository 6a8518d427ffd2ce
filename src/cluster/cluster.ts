import { randomBytes } from "node:crypto";
import type { FastifyRequest } from "fastify";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { Clock } from "../base/clock.js";
import type { Config } from "../config.js";
import type { Db } from "../db/index.js";
import type { SavedQueue } from "../events/queue.js";
import type { QueueRegistry } from "../events/queues.js";
import { ATTEMPT_RULES } from "../base/attempts.js";
import { Lease } from "./lease.js";
import { RedisAttempts, RedisCallLimiter } from "./limits.js";
import { Members } from "./members.js";
import { PendingCommits } from "./pending.js";
import { SharedPresence } from "./presence.js";
import { QueueKeeper } from "./queue-keeper.js";
import { QueueRouter } from "./queue-routing.js";
import { ClusterKeys, connectRedis } from "./redis.js";
import { StreamBus } from "./stream.js";

/**
 * Cluster mode: this process as one of many serving an organisation from one PostgreSQL database
 * and one Redis. It holds the three Redis connections (commands, the blocking stream reader, the
 * pub/sub subscriber), the shared event stream (the bus), the list of live processes, presence,
 * the routing of event-queue requests to their holder, the lease on once-per-cluster work, and the shared limits.
 */
export class Cluster {
  /** This process's id in the cluster (and the prefix of its queue ids). */
  readonly processId = randomBytes(6).toString("hex");
  readonly keys: ClusterKeys;
  readonly bus: StreamBus;
  readonly members: Members;
  /** Commits recorded in their transaction until they are on the stream (a process killed in between loses none). */
  readonly pending: PendingCommits;
  readonly queues: QueueRouter;
  /** The queues' rows and the side log: a queue outlives its process being killed. */
  readonly keeper: QueueKeeper;
  /** Presence in Redis, and its events on pub/sub (off the stream). */
  readonly presence: SharedPresence;
  /** The lease on timed work (scheduled messages, the thumbnail backlog). */
  readonly jobs: Lease;
  readonly limits: { byUser: RedisCallLimiter; byAddress: RedisCallLimiter; authentication: RedisAttempts; emailChange: RedisAttempts; passwordReset: RedisAttempts; spectatorFiles: RedisAttempts };

  private constructor(
    private readonly commands: Redis,
    private readonly reader: Redis,
    private readonly subscriber: Redis,
    config: Config,
    secret: string,
    log: Logger,
    queues: QueueRegistry,
    clock: Clock,
    db: Db,
  ) {
    this.keys = new ClusterKeys(config.redisPrefix);
    this.bus = new StreamBus(this.processId, commands, reader, subscriber, this.keys, log, queues);
    this.presence = new SharedPresence(this.processId, commands, subscriber, this.keys, log, () => this.bus.livePeers());
    this.members = new Members(this.processId, commands, this.keys, log);
    this.pending = new PendingCommits(this.processId, db, config.databaseUrl, this.bus, commands, this.keys, this.members, log);
    this.keeper = new QueueKeeper(queues, this.processId, commands, this.keys, this.bus, clock, log);
    this.queues = new QueueRouter(this.processId, secret, commands, this.keys, this.members, this.bus, this.keeper, log);
    this.jobs = new Lease("jobs", this.processId, commands, this.keys, log);
    this.limits = {
      byUser: new RedisCallLimiter(commands, this.keys, "api_by_user", config.rateLimitPerMinute, clock),
      byAddress: new RedisCallLimiter(commands, this.keys, "api_by_ip", config.anonRateLimitPerMinute, clock),
      authentication: new RedisAttempts(commands, this.keys, "authenticate_by_username", ATTEMPT_RULES.authentication),
      emailChange: new RedisAttempts(commands, this.keys, "email_change_by_user", ATTEMPT_RULES.emailChange),
      passwordReset: new RedisAttempts(commands, this.keys, "password_reset_form_by_email", ATTEMPT_RULES.passwordResetForm),
      spectatorFiles: new RedisAttempts(commands, this.keys, "spectator_attachment_access_by_file", ATTEMPT_RULES.spectatorAttachmentAccess),
    };
  }

  /** Connects to the cluster's Redis and starts reading the shared stream; `queues` are dropped if they miss events. */
  static async start(config: Config, log: Logger, queues: QueueRegistry, clock: Clock, db: Db): Promise<Cluster> {
    if (config.redisUrl === null) throw new Error("cluster mode needs ROOKERY_REDIS_URL");
    const url = config.redisUrl;
    const [commands, reader, subscriber] = await Promise.all([connectRedis(url, log, "commands"), connectRedis(url, log, "stream", true), connectRedis(url, log, "subscriber")]);
    try {
      await Promise.all([commands.connect(), reader.connect(), subscriber.connect()]);
      const secret = config.clusterSecret ?? (await sharedSecret(commands, new ClusterKeys(config.redisPrefix).secret));
      const cluster = new Cluster(commands, reader, subscriber, config, secret, log, queues, clock, db);
      // A Redis that restarted empty gets the secret back from the processes that know it.
      commands.on("ready", () => void commands.set(cluster.keys.secret, secret, "NX").catch(() => undefined));
      await cluster.bus.start();
      await cluster.presence.start();
      await cluster.pending.start();
      log.info({ processId: cluster.processId }, "cluster mode: joined the shared event stream");
      return cluster;
    } catch (error) {
      for (const redis of [commands, reader, subscriber]) redis.disconnect();
      throw error;
    }
  }

  /** Whether `request` was forwarded by another process of the cluster. */
  isForwarded(request: FastifyRequest): boolean {
    return this.queues.isForwarded(request);
  }

  /** Lists this process at its internal address, so others can forward its queues' requests. */
  join(address: string): Promise<void> {
    return this.members.join(address);
  }

  /** A clean stop: stops reading the stream, hands `queues` over, leaves the cluster, closes the connections. */
  async stop(queues: () => readonly SavedQueue[]): Promise<void> {
    await this.jobs.stop();
    await Promise.all([this.limits.byUser.stop(), this.limits.byAddress.stop()]);
    this.keeper.stop();
    await this.pending.stop();
    await this.bus.stop();
    this.presence.stop();
    try {
      await this.queues.handOver(queues(), this.bus.lastId);
      await this.members.leave();
    } finally {
      this.commands.disconnect();
      this.subscriber.disconnect();
      this.reader.disconnect();
    }
  }
}

/** The secret of forwarded requests when the operator set none: made once, kept in Redis for every process. */
async function sharedSecret(redis: Redis, key: string): Promise<string> {
  await redis.set(key, randomBytes(24).toString("base64url"), "NX");
  const secret = await redis.get(key);
  if (secret === null) throw new Error("could not read the cluster secret from Redis");
  return secret;
}
