import { setImmediate as nextTurn } from "node:timers/promises";
import type { Logger } from "pino";
import type { Clock } from "../base/clock.js";
import type { Db, Store } from "../db/index.js";
import { chunks } from "../db/chunks.js";
import {
  advanceQueues,
  deleteLogThrough,
  deleteQueue,
  forgetQueuesBefore,
  highestLogPosition,
  insertLogEntry,
  insertQueue,
  logEntriesAfter,
  oldestLogEntry,
  savedQueues,
  upsertQueues,
} from "../db/queries/event-log.js";
import type { CommitRecorder, EventBus } from "./bus.js";
import type { Commit } from "./changes.js";
import { isSavedQueue } from "./persist.js";
import { EventQueue, type SavedQueue } from "./queue.js";
import type { QueueRegistry } from "./queues.js";
import { restartEvent } from "./restart.js";
import type { OfferedEvent } from "./transforms.js";
import type { QueuedEvent } from "./types.js";

/** How often every queue is saved at the current log position, and the log behind it deleted. */
const CHECKPOINT_EVERY_MS = 30_000;
/** Queues per statement when a checkpoint writes them (each statement is followed by a turn of the event loop). */
const CHECKPOINT_ROWS = 500;
/**
 * Log positions per delete when a checkpoint prunes the log: an entry can list 10,000 recipients,
 * and one statement deleting every entry since the last checkpoint blocks the event loop for as
 * long as the log is large.
 */
const PRUNE_ENTRIES = 32;
/**
 * A waiting poll keeps its queue alive, so a checkpoint saves such a queue as last connected "now";
 * when nothing else changed, it rewrites the row for that only once the saved time is this old.
 */
const WAITING_REFRESH_MS = 60_000;
/** Log entries read per query while replaying. */
const REPLAY_PAGE = 1000;

/**
 * One log entry: a commit's events with their recipients (`e`, as the bus carries them), or one
 * event for listed queues (`q`, `v`: heartbeats and restart notices, which belong to a queue).
 */
type LogEntry = { e: readonly QueuedEvent[] } | { q: string[]; v: OfferedEvent };

/**
 * Event queues that survive a crash. Every event that reaches a queue is first written to the
 * event log: a commit's events inside its own transaction (`append`, called by `write()`), other
 * events (typing, presence, heartbeats, restart notices) in a small write of their own before they
 * are delivered. Entries are numbered by this process and handed to the queues strictly in that
 * order, so a queue is a pure function of its registration and the log: a queue saved at position
 * P (written at registration, then rewritten by each checkpoint) is rebuilt after `kill -9` by
 * replaying the entries after P through the same delivery, and every event gets back the id it
 * had. A client's next poll then acknowledges what it saw and gets the rest.
 *
 * One process only: in a cluster, the order of delivery is the shared stream's.
 */
export class DurableQueues implements CommitRecorder {
  /** The last number handed out. */
  private assigned = 0;
  /** The last entry handed to the queues. */
  private delivered = 0;
  /** Entries waiting for an earlier one: how to deliver them, or null for a write that failed. */
  private readonly waiting = new Map<number, (() => void) | null>();
  private heartbeats: EventQueue[] = [];
  private timer: NodeJS.Timeout | undefined;
  private saving: Promise<void> = Promise.resolve();
  /** Set by `start`: until then (the CLI's contexts never start it) events pass through unlogged. */
  active = false;
  /** The bus the rest of the server publishes on: it logs what it carries first. */
  readonly bus: EventBus;

  constructor(
    private readonly store: Store,
    private readonly registry: QueueRegistry,
    private readonly inner: EventBus,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {
    this.bus = {
      publish: (commit) => this.publishLogged(commit),
      subscribe: (listener) => inner.subscribe(listener),
    };
  }

  /**
   * Rebuilds the queues the database holds (registrations and checkpoints, then the log past each),
   * tells each that the server restarted, and starts the periodic checkpoint. Call before the first
   * request and before anything publishes.
   */
  async start(): Promise<void> {
    const db = this.store.db;
    this.assigned = this.delivered = await highestLogPosition(db);
    this.active = true;
    const rows = (await savedQueues(db)).flatMap((row) => {
      const saved = parseState(row.state);
      if (saved === undefined || saved.id !== row.id) {
        this.log.warn({ queue: row.id }, "unreadable saved event queue; dropped");
        return [];
      }
      return [{ pos: row.pos, saved }];
    });
    let next = 0;
    // A queue takes part from the first entry after its position on.
    const joinUpTo = (seq: number) => {
      for (; next < rows.length && rows[next]!.pos < seq; next++) this.registry.insert(rows[next]!.saved);
    };
    let replayed = 0;
    if (rows.length > 0) {
      let from = rows[0]!.pos;
      for (;;) {
        const page = await logEntriesAfter(db, from, REPLAY_PAGE);
        for (const { seq, entry } of page) {
          joinUpTo(seq);
          this.replay(JSON.parse(entry) as LogEntry);
          replayed++;
        }
        if (page.length < REPLAY_PAGE) break;
        from = page[page.length - 1]!.seq;
      }
    }
    joinUpTo(Infinity);
    this.registry.sweep();
    this.log.info({ queues: this.registry.size(), dropped: rows.length - this.registry.size(), replayed }, "event queues restored");
    const ids = this.registry.ids();
    if (ids.length > 0) await this.publishToQueues(ids, restartEvent());
    this.timer = setInterval(() => void this.checkpoint(), CHECKPOINT_EVERY_MS);
    this.timer.unref();
    this.registry.heartbeatSink = (queue) => this.heartbeat(queue);
  }

  /** Stops the periodic checkpoint. */
  stop(): void {
    clearInterval(this.timer);
    this.registry.heartbeatSink = undefined;
  }

  /**
   * Inside a write transaction: numbers the commit's events and writes them to the log (a commit
   * of cache changes alone needs no entry: a restarted process starts with empty caches).
   */
  async record(tx: Db, commit: Commit, taken: (seq: number) => void): Promise<void> {
    if (commit.events.length === 0) return;
    const seq = ++this.assigned;
    taken(seq);
    await insertLogEntry(tx, seq, JSON.stringify({ e: commit.events } satisfies LogEntry));
  }

  /** Publishes a committed entry once every earlier one is out; resolves when it reached the queues. */
  release(seq: number, commit: Commit): Promise<void> {
    return new Promise<void>((resolve) => {
      this.waiting.set(seq, () => {
        let published: void | Promise<void> = undefined;
        try {
          published = this.inner.publish(commit);
        } finally {
          // A listener that throws is logged by drain; the writer still gets its answer.
          if (published) void published.then(resolve);
          else resolve();
        }
      });
      this.drain();
    });
  }

  /** The write that took `seq` failed: later entries no longer wait for it. */
  abandon(seq: number): void {
    this.waiting.set(seq, null);
    this.drain();
  }

  /**
   * Records a queue just created (before any await, so its position is the entry it was created
   * after); resolves once the registration is durable.
   */
  async register(queue: EventQueue): Promise<void> {
    const pos = this.delivered;
    const saved = queue.save();
    const version = queue.savedVersion();
    const state = JSON.stringify(saved);
    await this.store.write((tx) => insertQueue(tx, queue.id, pos, state));
    queue.writtenVersion = version;
    queue.writtenConnection = saved.lastConnection;
  }

  /** Forgets a deleted queue. */
  async forget(queueId: string): Promise<void> {
    await this.store.write((tx) => deleteQueue(tx, queueId));
  }

  /**
   * Saves every queue as it is now at the current log position (rewriting the rows of the queues
   * that changed, moving the others'), then deletes the queues no longer held and the log entries
   * every saved queue has passed. The snapshot is taken before this returns, so a caller may stop
   * the queues right after; the writes follow any earlier checkpoint's. They go in bounded
   * statements with a turn of the event loop between them: a checkpoint never stalls requests.
   */
  checkpoint(): Promise<void> {
    const at = this.delivered;
    const now = this.clock.now();
    const rows: { id: string; pos: number; state: string }[] = [];
    const unchanged: string[] = [];
    // A checkpoint rewrites only queues whose version changed since their row was written; it only
    // moves the others' position, which replaying would not change.
    const written: { queue: EventQueue; version: number; lastConnection: number }[] = [];
    for (const queue of this.registry.all()) {
      const version = queue.savedVersion();
      // A waiting poll keeps its queue alive: the idle time starts now, not when it began.
      const waiting = queue.isWaiting();
      if (queue.writtenVersion === version && (!waiting || now - queue.writtenConnection < WAITING_REFRESH_MS)) {
        unchanged.push(queue.id);
        continue;
      }
      const saved = queue.save();
      if (waiting) saved.lastConnection = now;
      rows.push({ id: queue.id, pos: at, state: JSON.stringify(saved) });
      written.push({ queue, version, lastConnection: saved.lastConnection });
    }
    const run = async () => {
      for (const slice of chunks(rows, CHECKPOINT_ROWS)) {
        await this.store.write((tx) => upsertQueues(tx, slice));
        await nextTurn();
      }
      for (const slice of chunks(unchanged)) {
        await this.store.write((tx) => advanceQueues(tx, slice, at));
        await nextTurn();
      }
      // Every live queue's row is now at `at` (a failed write threw: the queues that changed are
      // still marked so, and the next checkpoint rewrites them).
      for (const { queue, version, lastConnection } of written) {
        queue.writtenVersion = version;
        queue.writtenConnection = lastConnection;
      }
      const upTo = await this.store.write((tx) => forgetQueuesBefore(tx, at));
      let from = await oldestLogEntry(this.store.db);
      while (from !== undefined && from <= upTo) {
        const through = Math.min(upTo, from + PRUNE_ENTRIES - 1);
        await this.store.write((tx) => deleteLogThrough(tx, through));
        await nextTurn();
        from = through + 1;
      }
    };
    this.saving = this.saving.then(run).catch((error: unknown) => this.log.error({ err: error }, "event queue checkpoint failed"));
    return this.saving;
  }

  /** Hands entries to the queues in number order, as far as they are ready. */
  private drain(): void {
    for (;;) {
      const seq = this.delivered + 1;
      if (!this.waiting.has(seq)) return;
      const deliver = this.waiting.get(seq);
      this.waiting.delete(seq);
      this.delivered = seq;
      try {
        deliver?.();
      } catch (error) {
        this.log.error({ err: error, seq }, "event delivery failed");
      }
    }
  }

  /** Events not from a write transaction: logged in a write of their own, then delivered in turn. */
  private publishLogged(commit: Commit): void | Promise<void> {
    if (commit.events.length === 0 || !this.active) return this.inner.publish(commit);
    return this.logThen({ e: commit.events }, () => this.inner.publish(commit));
  }

  /** Logs `event` for the listed queues, then gives it to each that is still here. */
  private publishToQueues(ids: string[], event: OfferedEvent): Promise<void> {
    return this.logThen({ q: ids, v: event }, () => this.registry.pushTo(ids, event));
  }

  private async logThen(entry: LogEntry, deliver: () => void | Promise<void>): Promise<void> {
    const seq = ++this.assigned;
    try {
      await this.store.write((tx) => insertLogEntry(tx, seq, JSON.stringify(entry)));
    } catch (error) {
      // Never delivered unlogged: a crash would hand out its ids again.
      this.abandon(seq);
      this.log.error({ err: error }, "could not log events; not delivered");
      return;
    }
    let delivered: void | Promise<void> = undefined;
    await new Promise<void>((resolve) => {
      this.waiting.set(seq, () => {
        try {
          delivered = deliver();
        } finally {
          resolve();
        }
      });
      this.drain();
    });
    await delivered;
  }

  /** Heartbeats due in one turn of the event loop share one log entry. */
  private heartbeat(queue: EventQueue): void {
    this.heartbeats.push(queue);
    if (this.heartbeats.length > 1) return;
    setImmediate(() => {
      const due = this.heartbeats.splice(0);
      void this.publishToQueues(
        due.map((q) => q.id),
        { type: "heartbeat" },
      );
    });
  }

  /** Delivers one logged entry again, to the queues that had it the first time. */
  private replay(entry: LogEntry): void {
    if ("q" in entry) return this.registry.pushTo(entry.q, entry.v);
    // Live, flag events join only until a poll takes them, and when polls came is not logged:
    // replayed ones stay apart, each with its own id (a client that saw the joined one
    // acknowledged its id, the newest, which covers them all).
    if (entry.e.some((item) => item.event.type === "update_message_flags")) for (const queue of this.registry.all()) queue.contents();
    this.registry.deliver(entry.e);
  }
}

function parseState(text: string): SavedQueue | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return isSavedQueue(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
