import type { Logger } from "pino";
import type { Caches } from "./caches/index.js";
import type { Clock } from "./base/clock.js";
import type { Config } from "./config.js";
import type { Db, Store } from "./db/index.js";
import type { DueTimer } from "./base/due-timer.js";
import type { Attempts } from "./base/attempts.js";
import type { Cluster } from "./cluster/cluster.js";
import type { EventBus } from "./events/bus.js";
import type { DurableQueues } from "./events/durable.js";
import { Outbox } from "./events/outbox.js";
import type { QueueRegistry } from "./events/queues.js";
import type { Mailer } from "./mail.js";
import type { Metrics } from "./base/metrics.js";
import type { WebAssets } from "./http/static-files.js";
import type { UrlSigner } from "./uploads/paths.js";
import type { FileStore } from "./uploads/storage.js";
import type { ThumbnailQueue } from "./uploads/thumbnail-queue.js";
import type { ImageProxy } from "./uploads/image-proxy.js";

/** Everything a request needs from the server, built once by buildApp; no globals. */
export interface AppContext extends Caches {
  config: Config;
  store: Store;
  db: Db;
  log: Logger;
  clock: Clock;
  bus: EventBus;
  mailer: Mailer;
  /** The event queues of this process (POST /register, GET /events), fed by `bus`. */
  queues: QueueRegistry;
  /** Uploaded files, avatars and thumbnails. */
  files: FileStore;
  /** Thumbnail work waiting to be done off the request path. */
  thumbnails: ThumbnailQueue;
  /** Fetches and caches the images of other sites that messages show (GET /thumbnail). */
  imageProxy: ImageProxy;
  /** Signs temporary file URLs and names avatar files. */
  urls: UrlSigner;
  /** Per-key attempt limits: password checks by address, email-change requests by user, reset emails by address, downloads by spectators by file. */
  limits: { authentication: Attempts; emailChange: Attempts; passwordReset: Attempts; spectatorFiles: Attempts };
  /**
   * Sends scheduled messages when they fall due (started by buildApp). `runDue()` sends what is
   * due by `clock` now, as the timer does; actions `wake()` it for a message due sooner.
   */
  scheduledMessages: DueTimer;
  /** Tries queued mail again when it falls due (started by buildApp; see actions/mail.ts). */
  mail: DueTimer;
  /**
   * Removes uploads no message claimed within five weeks, at start and daily by `clock`
   * (started by buildApp); `runDue()` runs it now, as the timer does.
   */
  unclaimedUploads: DueTimer;
  /** Writes requested data exports off the request path (started by buildApp; see actions/exports.ts). */
  exports: DueTimer;
  /** The built web app's manifest and files (`/`, `/static/…`, the stylesheet of the login pages). */
  web: WebAssets;
  /** Prometheus metrics (GET /metrics). */
  metrics: Metrics;
  /** One process: the event log that lets queues survive a crash (started by buildApp; absent in a cluster and when the CLI relays to a server). */
  durable?: DurableQueues;
  /** Cluster mode (ROOKERY_REDIS_URL): the shared stream, the other processes, leases; undefined for one process. */
  cluster?: Cluster;
}

/**
 * Runs `fn` in one write transaction with an outbox; after the commit the outbox's events and
 * cache changes go to the bus (in cluster mode, this resolves once every process has applied
 * them, so the next request anywhere sees the change). A transaction that fails announces nothing.
 */
export async function write<T>(ctx: AppContext, fn: (tx: Db, outbox: Outbox) => Promise<T>): Promise<T> {
  const outbox = new Outbox();
  const started = performance.now();
  // The commit is kept in its own transaction until it has reached the queues: the event log of
  // one process (events/durable.ts), the pending commits of a cluster (cluster/pending.ts).
  const recorder = ctx.durable?.active ? ctx.durable : ctx.cluster?.pending;
  const taken: number[] = [];
  let result: T;
  try {
    result = await ctx.store.write(async (tx) => {
      const value = await fn(tx, outbox);
      await recorder?.record(tx, outbox, (seq) => taken.push(seq));
      return value;
    });
  } catch (error) {
    for (const seq of taken) recorder?.abandon(seq);
    throw error;
  }
  ctx.metrics.write((performance.now() - started) / 1000);
  const commit = { events: outbox.events, changes: outbox.changes };
  const seq = taken.pop();
  for (const stale of taken) recorder?.abandon(stale);
  const published = recorder && seq !== undefined ? recorder.release(seq, commit) : ctx.bus.publish(commit);
  if (published) await published;
  return result;
}
