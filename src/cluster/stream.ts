/**
 * One event stream for all the processes of a cluster.
 *
 * Design: every commit (its events and cache changes) is appended once, by the process that
 * committed it, to one Redis Stream (XADD with an approximate MAXLEN). Every process, the writer
 * included, reads that stream with a blocking XREAD from the last id it applied, on a connection
 * of its own, and hands each entry to its listeners (its queues, its caches) in stream order: the
 * order of events in any queue is the stream's order, the same in every process.
 *
 * After applying a batch (and at least every BLOCK_MS when idle) a process publishes the id it has
 * reached on a pub/sub channel. A writer waits, before answering its request, until every process
 * heard from lately has reached its entry (FENCE_MS at most): a change made through one process is
 * seen by the very next request to any other.
 *
 * A process that loses its Redis connection catches up from its last id when it comes back. If it
 * cannot (the entry it last applied was trimmed, or Redis restarted empty), it has missed events:
 * it drops the queues it had when the connection broke (their clients get BAD_EVENT_QUEUE_ID and
 * register again), forgets every cache, logs so, and reads on from the oldest entry the stream
 * has (every one of them is newer than what it missed): queues created since the break miss nothing.
 */
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { EventBus } from "../events/bus.js";
import { parseCommitText, type Commit } from "../events/changes.js";
import { compareStreamIds, type ClusterKeys } from "./redis.js";

/** Entries kept in the stream (approximately): what a process may fall behind by and still catch up. */
const MAX_LENGTH = 100_000;
/** The longest blocking read; an idle process reports its position this often. */
const BLOCK_MS = 2000;
/** A process not heard from for this long is not waited for. */
const SILENT_AFTER_MS = 3 * BLOCK_MS;
/** The longest a writer waits for the other processes to apply its commit. */
const FENCE_MS = 1000;

/** Appends ARGV[3] to the stream KEYS[1] unless KEYS[2] (a process's appended commits) has ARGV[2]; answers the new entry's id or nil. */
const APPEND_ONCE = `
if redis.call('HSETNX', KEYS[2], ARGV[2], '1') == 0 then return false end
return redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], '*', 'c', ARGV[3])
`;

/** An entry read from the stream: its id and the commit it carries. */
export interface StreamEntry {
  id: string;
  commit: Commit;
}

/** The queues of this process, as the stream drops those that missed events. */
export interface QueueHolder {
  ids(): string[];
  drop(ids: readonly string[]): void;
}

/** The cluster's EventBus: see the design above. */
export class StreamBus implements EventBus {
  private readonly listeners = new Set<(commit: Commit) => void>();
  /** The id of the last entry this process applied ("0-0": none yet). */
  lastId = "0-0";
  private running = false;
  private mustCheck = false;
  /** The queues this process had when its connection last broke: those drop if events were missed. */
  private atBreak: string[] = [];
  private loop: Promise<void> = Promise.resolve();
  /** Every process heard from: how far it has applied, and when we heard. */
  private readonly positions = new Map<string, { id: string; at: number }>();
  private fences: { id: string; resolve: () => void }[] = [];
  /** Holds on applying entries (see `hold`), and the reads waiting for them to end. */
  private holds = 0;
  private held: (() => void)[] = [];

  constructor(
    private readonly processId: string,
    private readonly commands: Redis,
    private readonly reader: Redis,
    private readonly subscriber: Redis,
    private readonly keys: ClusterKeys,
    private readonly log: Logger,
    /** Called when events were missed: every queue must go. */
    private readonly queues: QueueHolder,
  ) {}

  /** Starts reading from the stream's present end. */
  async start(): Promise<void> {
    this.lastId = await this.tip();
    this.reader.on("close", () => this.broken());
    // The subscriber connection carries other channels too (presence).
    this.subscriber.on("message", (channel: string, text: string) => {
      if (channel === this.keys.applied) this.heard(text);
    });
    await this.subscriber.subscribe(this.keys.applied);
    this.running = true;
    this.loop = this.read();
  }

  /** Stops reading; resolves once the read loop has ended. */
  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.reader.disconnect();
    for (const resume of this.held.splice(0)) resume();
    await this.loop;
    for (const fence of this.fences) fence.resolve();
    this.fences = [];
  }

  publish(commit: Commit): Promise<void> | undefined {
    if (commit.events.length === 0 && commit.changes.length === 0) return undefined;
    return this.commands
      .xadd(this.keys.events, "MAXLEN", "~", MAX_LENGTH, "*", "c", JSON.stringify(commit))
      .then((id) => (id === null ? undefined : this.fence(id)))
      .catch((error: unknown) => this.log.error({ err: error }, "could not publish a commit to the cluster"));
  }

  /**
   * Appends a recorded commit (cluster/pending.ts) unless it is already on the stream: `owner` and
   * `seq` name it, and Redis marks it appended in the same script, so a commit appended by its
   * process and again by one that took the process for dead is there once. Resolves once it is on
   * the stream (and, with `fence`, applied everywhere as `publish` does): "appended" now, or
   * "present" before; "failed" if Redis failed.
   */
  async publishOnce(owner: string, seq: number, commitText: string, fence = true): Promise<"appended" | "present" | "failed"> {
    try {
      const id = (await this.commands.eval(APPEND_ONCE, 2, this.keys.events, this.keys.appended(owner), MAX_LENGTH, seq, commitText)) as string | null;
      if (id === null) return "present";
      if (fence) await this.fence(id);
      return "appended";
    } catch (error) {
      this.log.error({ err: error }, "could not publish a commit to the cluster");
      return "failed";
    }
  }

  subscribe(listener: (commit: Commit) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The entries after `afterId` up to this process's position, read again (a handed-over queue catches up); undefined if `afterId` is gone. */
  async replay(afterId: string): Promise<StreamEntry[] | undefined> {
    const out: StreamEntry[] = [];
    let from = afterId;
    if (from !== "0-0") {
      const first = await this.commands.xrange(this.keys.events, from, "+", "COUNT", 1);
      if (first[0]?.[0] !== from) return undefined;
    }
    // Entries this process applied while a read was under way are read too, until none is missing.
    while (compareStreamIds(from, this.lastId) < 0) {
      const rows = await this.commands.xrange(this.keys.events, from === "0-0" ? "-" : `(${from}`, "+", "COUNT", 1000);
      if (rows.length === 0) break;
      for (const [id, fields] of rows) {
        const commit = parseCommit(fields);
        if (commit) out.push({ id, commit });
        from = id;
      }
    }
    return out.filter((entry) => compareStreamIds(entry.id, this.lastId) <= 0);
  }

  /**
   * Stops applying entries until the returned function is called: meanwhile `lastId` does not
   * move, so events delivered off the stream (cluster/queue-keeper.ts) have a fixed place in it.
   */
  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds === 0) for (const resume of this.held.splice(0)) resume();
    };
  }

  /** The other processes heard from lately (each reports its position at least every BLOCK_MS). */
  livePeers(): string[] {
    const now = Date.now();
    const out: string[] = [];
    for (const [processId, position] of this.positions) if (processId !== this.processId && now - position.at <= SILENT_AFTER_MS) out.push(processId);
    return out;
  }

  /** Resolves once this process has applied `id` (or after `ms`). */
  reached(id: string, ms: number): Promise<void> {
    if (compareStreamIds(this.lastId, id) >= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      const poll = setInterval(() => {
        if (compareStreamIds(this.lastId, id) < 0 && this.running) return;
        clearInterval(poll);
        clearTimeout(timer);
        resolve();
      }, 5);
    });
  }

  private async read(): Promise<void> {
    while (this.running) {
      try {
        if (this.mustCheck) await this.checkContinuity();
        const result = await this.reader.xread("COUNT", 1000, "BLOCK", BLOCK_MS, "STREAMS", this.keys.events, this.lastId);
        while (this.holds > 0 && this.running) await new Promise<void>((resume) => this.held.push(resume));
        if (!this.running) break;
        for (const [, entries] of result ?? []) for (const [id, fields] of entries) this.apply(id, fields);
        this.report();
      } catch (error) {
        if (!this.running) break;
        this.broken();
        this.log.debug({ err: error }, "stream read failed; retrying");
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }

  private apply(id: string, fields: string[]): void {
    this.lastId = id;
    const commit = parseCommit(fields);
    if (!commit) {
      this.log.error({ id }, "unreadable entry in the cluster event stream; skipped");
      return;
    }
    this.deliver(commit);
  }

  private deliver(commit: Commit): void {
    for (const listener of this.listeners) {
      try {
        listener(commit);
      } catch (error) {
        this.log.error({ err: error }, "applying a commit from the cluster stream failed");
      }
    }
  }

  /** After a disconnect: was the last applied entry kept? If not, events were missed. */
  private async checkContinuity(): Promise<void> {
    if (this.lastId !== "0-0") {
      const found = await this.commands.xrange(this.keys.events, this.lastId, "+", "COUNT", 1);
      if (found[0]?.[0] !== this.lastId) {
        this.log.warn({ missedAfter: this.lastId, queues: this.atBreak.length }, "missed cluster events (stream trimmed or Redis restarted): dropping the event queues held then; their clients will register again");
        this.queues.drop(this.atBreak);
        this.deliver({ events: [], changes: [{ cache: "all" }] });
        this.lastId = "0-0";
      }
    }
    this.mustCheck = false;
    this.atBreak = [];
  }

  /** The connection broke: what is held now will have to be checked. */
  private broken(): void {
    if (this.mustCheck) return;
    this.mustCheck = true;
    this.atBreak = this.queues.ids();
  }

  private async tip(): Promise<string> {
    const last = await this.commands.xrevrange(this.keys.events, "+", "-", "COUNT", 1);
    return last[0]?.[0] ?? "0-0";
  }

  private report(): void {
    this.heard(`${this.processId} ${this.lastId}`);
    this.commands.publish(this.keys.applied, `${this.processId} ${this.lastId}`).catch(() => undefined);
  }

  private heard(text: string): void {
    const [processId, id] = text.split(" ");
    if (!processId || !id) return;
    this.positions.set(processId, { id, at: Date.now() });
    this.settleFences();
  }

  private fence(id: string): Promise<void> {
    if (this.fenceHolds(id)) return Promise.resolve();
    return new Promise((resolve) => {
      const entry = { id, resolve };
      this.fences.push(entry);
      setTimeout(() => {
        this.fences = this.fences.filter((f) => f !== entry);
        resolve();
      }, FENCE_MS).unref();
    });
  }

  private settleFences(): void {
    if (this.fences.length === 0) return;
    const kept = [];
    for (const fence of this.fences) {
      if (this.fenceHolds(fence.id)) fence.resolve();
      else kept.push(fence);
    }
    this.fences = kept;
  }

  /** Every process heard from lately (this one included) has applied `id`. */
  private fenceHolds(id: string): boolean {
    if (compareStreamIds(this.lastId, id) < 0) return false;
    const now = Date.now();
    for (const [processId, position] of this.positions) {
      if (now - position.at > SILENT_AFTER_MS) {
        this.positions.delete(processId);
        continue;
      }
      if (compareStreamIds(position.id, id) < 0) return false;
    }
    return true;
  }
}

function parseCommit(fields: string[]): Commit | undefined {
  const text = fields[fields.indexOf("c") + 1];
  if (fields.indexOf("c") < 0 || text === undefined) return undefined;
  return parseCommitText(text);
}
