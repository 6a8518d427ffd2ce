import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { Clock } from "../base/clock.js";
import { isSavedQueue } from "../events/persist.js";
import { EventQueue, type SavedQueue } from "../events/queue.js";
import { QueueRegistry } from "../events/queues.js";
import type { OfferedEvent } from "../events/transforms.js";
import type { QueuedEvent } from "../events/types.js";
import { compareStreamIds, type ClusterKeys } from "./redis.js";
import type { StreamBus, StreamEntry } from "./stream.js";

/**
 * Event queues of a cluster that survive the death of the process holding them.
 *
 * A queue is a pure function of its registration and what was delivered to it, in order. In a
 * cluster that is (1) the shared stream, the same for every process, and (2) what this process
 * delivered off the stream: presence events (pub/sub) and heartbeats. The second kind goes to a
 * side log first, one Redis stream per process: each entry records the events (or the queues and
 * the event, for heartbeats) and the id of the last stream entry applied before it; while an entry
 * is written, this process applies no stream entry (`StreamBus.hold`), so it is delivered exactly
 * there. Batches of one turn share one round trip; nothing here writes per queue per event.
 *
 * Each queue has a row in Redis: the queue as saved, the stream id and the side-log id it is
 * consistent at, and the process whose side log follows. Written before /register answers (and
 * when a queue is adopted), then by a checkpoint every 30 s for the queues that changed (and every
 * queue at least every few minutes, which also keeps a waiting queue's idle time fresh). The rows
 * live in Redis, not the database, because they are of use only with the stream and the side
 * logs, which live there: a Redis that restarted empty loses all three together.
 *
 * When a process dies (kill -9), a request for one of its queues reaches another process, which
 * claims the queue (one process only: cluster/queue-routing.ts), then rebuilds it: the row's
 * queue, then the stream entries after its stream id merged with the dead process's side-log
 * entries after its side id, through the same delivery as live. Every event gets back its id.
 */

/** How often the queues that changed are written. */
const CHECKPOINT_EVERY_MS = 30_000;
/** A queue's row is rewritten at least this often, changed or not. */
const REWRITE_AFTER_MS = 120_000;
/** A row outlives its queue's idle lifespan by this much (the checkpoint renews it). */
const ROW_SLACK_MS = 2 * REWRITE_AFTER_MS + CHECKPOINT_EVERY_MS;
/** Entries kept (approximately) in a side log, and how long one outlives its last write. */
const SIDE_MAX_LENGTH = 100_000;
const SIDE_TTL_MS = 7 * 86400 * 1000;
/** How long a rebuild waits for this process to reach the dead one's last position. */
const CATCH_UP_MS = 5000;
/** Rows written per round trip at a checkpoint. */
const CHECKPOINT_BATCH = 500;

/** A side-log entry: events delivered like a commit's (`e`), or one event for listed queues (`q`, `v`). */
type SideEntry = { e: readonly QueuedEvent[] } | { q: string[]; v: OfferedEvent };

/** A queue's row in Redis. */
export interface QueueRow {
  queue: SavedQueue;
  /** The last stream entry the saved queue has. */
  streamId: string;
  /** The process whose side log holds what it got off the stream after that, and the last entry it has. */
  holder: string;
  sideId: string;
}

interface Pending {
  entry: SideEntry;
  deliver: () => void;
  done: () => void;
}

/** What a checkpoint last wrote for a queue. */
interface Written {
  nextId: number;
  pruned: number;
  at: number;
  sideId: string;
}

export class QueueKeeper {
  /** The last side-log entry delivered here ("0-0": none yet). */
  private sideId = "0-0";
  private pending: Pending[] = [];
  private writing = false;
  private heartbeats: EventQueue[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly written = new Map<string, Written>();
  private saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly registry: QueueRegistry,
    private readonly processId: string,
    private readonly redis: Redis,
    private readonly keys: ClusterKeys,
    private readonly bus: StreamBus,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {}

  /** Heartbeats go through the side log from now on, and the checkpoint runs. */
  start(): void {
    this.registry.heartbeatSink = (queue) => this.heartbeat(queue);
    this.timer = setInterval(() => void this.checkpoint(), CHECKPOINT_EVERY_MS);
    this.timer.unref();
  }

  /** Stops the checkpoint (a clean stop hands the queues over instead). */
  stop(): void {
    clearInterval(this.timer);
    this.registry.heartbeatSink = undefined;
  }

  /**
   * Delivers events that are not on the stream (presence) to this process's queues, once they are
   * in the side log; resolves when they were delivered (or dropped: a batch that could not be
   * logged is never delivered, or a rebuild would hand out its ids again).
   */
  deliver(events: readonly QueuedEvent[]): Promise<void> {
    const registry = this.registry;
    if (registry.size() === 0) {
      registry.deliver(events);
      return Promise.resolve();
    }
    return this.logThen({ e: events }, () => registry.deliver(events));
  }

  /** Writes a queue just created (before any await: it is consistent at this moment's positions); resolves once it is durable. */
  async register(queue: EventQueue): Promise<void> {
    try {
      await this.writeRows([this.rowOf(queue)]);
    } catch (error) {
      // The queue works; it is only not kept through this process's death (until a checkpoint writes it).
      this.written.delete(queue.id);
      this.log.error({ err: error, queueId: queue.id }, "could not save an event queue's row");
    }
  }

  /** Forgets a deleted queue. */
  async forget(queueId: string): Promise<void> {
    this.written.delete(queueId);
    await this.redis.del(this.keys.queueRow(queueId));
  }

  /**
   * Writes the rows of the queues that changed since their last write (and of those written long
   * ago), then trims this process's side log to what the oldest row still needs.
   */
  checkpoint(): Promise<void> {
    const registry = this.registry;
    const now = this.clock.now();
    const rows: QueueRow[] = [];
    let oldest = this.sideId;
    for (const queue of registry.all()) {
      const last = this.written.get(queue.id);
      if (last && last.nextId === queue.nextId && last.pruned === queue.newestPrunedId && now - last.at < REWRITE_AFTER_MS) {
        if (compareStreamIds(last.sideId, oldest) < 0) oldest = last.sideId;
        continue;
      }
      rows.push(this.rowOf(queue));
    }
    for (const id of [...this.written.keys()]) if (!registry.has(id)) this.written.delete(id);
    const run = async () => {
      for (let i = 0; i < rows.length; i += CHECKPOINT_BATCH) await this.writeRows(rows.slice(i, i + CHECKPOINT_BATCH));
      if (oldest !== "0-0") await this.redis.xtrim(this.keys.sideLog(this.processId), "MINID", "~", oldest);
    };
    this.saving = this.saving.then(run).catch((error: unknown) => this.log.error({ err: error }, "event queue checkpoint failed"));
    return this.saving;
  }

  /**
   * Rebuilds the queue of `row` from the stream and its holder's side log and adds it to the
   * registry; false when it cannot be (the stream was trimmed past it, it expired, its owner was
   * deactivated meanwhile, or this process is still behind the dead one after CATCH_UP_MS).
   */
  async rebuild(row: QueueRow): Promise<boolean> {
    const registry = this.registry;
    const side = await this.readSide(row.holder, row.sideId);
    // The dead process may have been ahead of this one: the rebuilt queue must not get again, live,
    // an entry its row or its side log already placed.
    const lastAfter = side.at(-1)?.after;
    const target = lastAfter !== undefined && compareStreamIds(lastAfter, row.streamId) > 0 ? lastAfter : row.streamId;
    await this.bus.reached(target, CATCH_UP_MS);
    const alone = new QueueRegistry(this.clock, this.log);
    alone.insert(row.queue);
    let from = row.streamId;
    let next = 0;
    const apply = (entries: readonly StreamEntry[]) => {
      for (const entry of entries) {
        while (next < side.length && compareStreamIds(side[next]!.after, entry.id) < 0) replaySide(alone, side[next++]!.entry);
        replayCommit(alone, entry.commit.events);
        from = entry.id;
      }
    };
    const first = await this.bus.replay(from);
    if (!first) return false;
    apply(first);
    // The rest is read with the stream held, so that the queue joins the registry exactly where it is.
    const release = this.bus.hold();
    try {
      if (compareStreamIds(this.bus.lastId, target) < 0) {
        this.log.warn({ queueId: row.queue.id, at: this.bus.lastId, needed: target }, "this process is too far behind the one that died to rebuild its queue");
        return false;
      }
      const rest = await this.bus.replay(from);
      if (!rest) return false;
      apply(rest);
      while (next < side.length) replaySide(alone, side[next++]!.entry);
      const queue = alone.get(row.queue.id);
      if (!queue || queue.expired(this.clock.now()) || !registry.take(queue)) return false;
      const written = this.writeRows([this.rowOf(queue)]);
      release();
      await written;
      return true;
    } finally {
      release();
    }
  }

  /** The row of `queue` as it is now. */
  private rowOf(queue: EventQueue): QueueRow {
    const saved = queue.save();
    // A waiting poll keeps its queue alive: the idle time starts now, not when it began.
    if (queue.isWaiting()) saved.lastConnection = this.clock.now();
    this.written.set(queue.id, { nextId: queue.nextId, pruned: queue.newestPrunedId, at: this.clock.now(), sideId: this.sideId });
    return { queue: saved, streamId: this.bus.lastId, holder: this.processId, sideId: this.sideId };
  }

  private async writeRows(rows: readonly QueueRow[]): Promise<void> {
    if (rows.length === 0) return;
    const now = this.clock.now();
    const pipeline = this.redis.pipeline();
    for (const row of rows) {
      const ttl = Math.max(1000, row.queue.options.lifespanSecs * 1000 - Math.max(0, now - row.queue.lastConnection)) + ROW_SLACK_MS;
      pipeline.set(this.keys.queueRow(row.queue.id), JSON.stringify(row), "PX", ttl);
    }
    const results = await pipeline.exec();
    const failed = results?.find(([error]) => error !== null)?.[0];
    if (failed) throw failed;
  }

  /** Heartbeats due in one turn of the event loop share one side-log entry. */
  private heartbeat(queue: EventQueue): void {
    this.heartbeats.push(queue);
    if (this.heartbeats.length > 1) return;
    setImmediate(() => {
      const due = this.heartbeats.splice(0).map((q) => q.id);
      const event: OfferedEvent = { type: "heartbeat" };
      void this.logThen({ q: due, v: event }, () => this.registry.pushTo(due, event));
    });
  }

  private logThen(entry: SideEntry, deliver: () => void): Promise<void> {
    return new Promise((done) => {
      this.pending.push({ entry, deliver, done });
      if (!this.writing) void this.writeSide();
    });
  }

  /**
   * Writes what waits to the side log in one round trip, with the stream held (so each entry is
   * delivered right after the stream entry it names), delivers it, and goes on while more waits.
   */
  private async writeSide(): Promise<void> {
    this.writing = true;
    // A call made while the stream applies a batch starts after that batch.
    await Promise.resolve();
    const key = this.keys.sideLog(this.processId);
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0);
      const release = this.bus.hold();
      try {
        const after = this.bus.lastId;
        const pipeline = this.redis.pipeline();
        for (const item of batch) pipeline.xadd(key, "MAXLEN", "~", SIDE_MAX_LENGTH, "*", "a", after, "s", JSON.stringify(item.entry));
        pipeline.pexpire(key, SIDE_TTL_MS);
        let results: [Error | null, unknown][] | null = null;
        try {
          results = await pipeline.exec();
        } catch (error) {
          this.log.error({ err: error }, "could not log events off the cluster stream; not delivered");
        }
        for (let i = 0; i < batch.length; i++) {
          const [error, id] = results?.[i] ?? [null, undefined];
          const item = batch[i]!;
          if (error === null && typeof id === "string") {
            this.sideId = id;
            try {
              item.deliver();
            } catch (failure) {
              this.log.error({ err: failure }, "delivering events off the cluster stream failed");
            }
          } else if (results) {
            this.log.error({ err: error }, "could not log events off the cluster stream; not delivered");
          }
          item.done();
        }
      } finally {
        release();
      }
    }
    this.writing = false;
  }

  /** The side-log entries of `holder` after `afterId`, oldest first. */
  private async readSide(holder: string, afterId: string): Promise<{ after: string; entry: SideEntry }[]> {
    const out: { after: string; entry: SideEntry }[] = [];
    const key = this.keys.sideLog(holder);
    let from = afterId === "0-0" ? "-" : `(${afterId}`;
    for (;;) {
      const rows = await this.redis.xrange(key, from, "+", "COUNT", 1000);
      for (const [id, fields] of rows) {
        from = `(${id}`;
        const after = fields[fields.indexOf("a") + 1];
        const text = fields[fields.indexOf("s") + 1];
        if (after === undefined || text === undefined) continue;
        try {
          out.push({ after, entry: JSON.parse(text) as SideEntry });
        } catch {
          this.log.error({ id }, "unreadable side-log entry; skipped");
        }
      }
      if (rows.length < 1000) return out;
    }
  }
}

/** A row as read back from Redis, or undefined if it is not one. */
export function parseRow(text: string): QueueRow | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof data !== "object" || data === null) return undefined;
  const row = data as Record<string, unknown>;
  if (typeof row.streamId !== "string" || typeof row.holder !== "string" || typeof row.sideId !== "string" || !isSavedQueue(row.queue)) return undefined;
  return { queue: row.queue, streamId: row.streamId, holder: row.holder, sideId: row.sideId };
}

/**
 * A commit delivered again. Live, flag events join only until a poll takes them, and when polls
 * came is not logged: replayed ones stay apart, each with its own id (a client that saw the joined
 * one acknowledged its id, the newest, which covers them all).
 */
function replayCommit(registry: QueueRegistry, events: readonly QueuedEvent[]): void {
  if (events.some((item) => item.event.type === "update_message_flags")) for (const queue of registry.all()) queue.contents();
  registry.deliver(events);
}

function replaySide(registry: QueueRegistry, entry: SideEntry): void {
  if ("q" in entry) registry.pushTo(entry.q, entry.v);
  else replayCommit(registry, entry.e);
}
