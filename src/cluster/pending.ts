/**
 * Commits on their way to the shared stream, kept in the database until they are on it.
 *
 * A process appends a commit to the stream after the commit (cluster/stream.ts); killed between
 * the two, it would leave a change no queue or cache of the cluster ever hears of. So each commit
 * is first recorded in its own transaction (table `cluster_pending`, keyed by the process and a
 * number), and the row is deleted once the entry is on the stream.
 *
 * Each process holds a PostgreSQL advisory lock of its own id on a connection of its own, for its
 * whole life. PostgreSQL frees it the moment that connection drops, as it does when the process is
 * killed. Every SWEEP_MS each process looks for rows other processes left more than STALE_MS ago;
 * if it can take a process's lock, that process is gone, and it appends the rows for it, in order,
 * then deletes them. The stream's append script marks every (process, number) it appended, so a
 * commit appended by its process just before it died is not appended twice.
 *
 * A process still connected to PostgreSQL keeps its lock even if it hangs; one whose machine
 * vanished can hold it until PostgreSQL notices, so once it has also dropped out of the members
 * (no heartbeat for MEMBER_TTL_MS), its lock connection is ended for it.
 */
import type { Redis } from "ioredis";
import type pg from "pg";
import type { Logger } from "pino";
import type { Db } from "../db/index.js";
import type { CommitRecorder } from "../events/bus.js";
import type { Commit } from "../events/changes.js";
import { deletePending, insertPending, pendingAfter, processesPendingBefore } from "../db/queries/cluster-pending.js";
import { MEMBER_TTL_MS, type Members } from "./members.js";
import type { ClusterKeys } from "./redis.js";
import type { StreamBus } from "./stream.js";

/** How often a process deletes its appended rows, retries failed appends and looks for rows of dead processes. */
const SWEEP_MS = 500;
/** Rows younger than this are left to their process (it is appending them now). */
const STALE_MS = 1_000;
/** Rows appended for a dead process per database read. */
const RECOVER_BATCH = 200;
/** How long a dead process's marks of appended commits are kept after its rows are gone. */
const MARKS_TTL_S = 24 * 3600;

export class PendingCommits implements CommitRecorder {
  private seq = 0;
  /** Recorded commits until their transaction ends, as JSON (the row's text is what the stream gets). */
  private readonly texts = new Map<number, string>();
  /** Commits of this process on the stream whose rows are still to delete. */
  private appended: number[] = [];
  /** Commits of this process that could not be appended (Redis failed): tried again from their rows each sweep. */
  private readonly failed = new Set<number>();
  private lock: pg.Client | undefined;
  private timer: NodeJS.Timeout | undefined;
  private sweeping: Promise<void> | undefined;
  private stopped = false;

  constructor(
    private readonly processId: string,
    private readonly db: Db,
    private readonly databaseUrl: string,
    private readonly bus: StreamBus,
    private readonly redis: Redis,
    private readonly keys: ClusterKeys,
    private readonly members: Members,
    private readonly log: Logger,
  ) {}

  /** Takes this process's lock and starts sweeping. */
  async start(): Promise<void> {
    await this.connectLock();
    this.timer = setInterval(() => {
      if (!this.sweeping) void this.run();
    }, SWEEP_MS);
    this.timer.unref();
  }

  /** Inside a write transaction: records the commit, unless it has nothing to announce. */
  async record(tx: Db, commit: Commit, taken: (seq: number) => void): Promise<void> {
    if (commit.events.length === 0 && commit.changes.length === 0) return;
    const seq = ++this.seq;
    taken(seq);
    const text = JSON.stringify({ events: commit.events, changes: commit.changes });
    this.texts.set(seq, text);
    await insertPending(tx, this.processId, seq, Date.now(), text);
  }

  /** After the commit: appends it to the stream; resolves once every live process has applied it (or the append failed and waits for a retry). */
  async release(seq: number): Promise<void> {
    const text = this.texts.get(seq);
    this.texts.delete(seq);
    if (text === undefined) return;
    if ((await this.bus.publishOnce(this.processId, seq, text)) !== "failed") this.appended.push(seq);
    else this.failed.add(seq);
  }

  abandon(seq: number): void {
    this.texts.delete(seq);
  }

  /** A clean stop: a last sweep of this process's rows, then the lock goes. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.sweeping;
    await this.sweepOwn().catch((error: unknown) => this.log.warn({ err: error }, "could not clear this process's appended commits"));
    const lock = this.lock;
    this.lock = undefined;
    await lock?.end().catch(() => undefined);
  }

  /** Runs a whole sweep after the one under way, if any (tests call it too). */
  async sweep(): Promise<void> {
    while (this.sweeping) await this.sweeping;
    return this.run();
  }

  /** One sweep: this process's rows, then those of dead processes. */
  private run(): Promise<void> {
    this.sweeping = (async () => {
      try {
        await this.sweepOwn();
        await this.sweepOthers();
      } catch (error) {
        this.log.warn({ err: error }, "sweeping the cluster's pending commits failed; trying again");
      } finally {
        this.sweeping = undefined;
      }
    })();
    return this.sweeping;
  }

  private async sweepOwn(): Promise<void> {
    await this.retryFailed();
    while (this.appended.length > 0) {
      const batch = this.appended.splice(0, 500);
      try {
        await deletePending(this.db, this.processId, batch);
      } catch (error) {
        this.appended.unshift(...batch);
        throw error;
      }
      await this.redis.hdel(this.keys.appended(this.processId), ...batch.map(String));
    }
  }

  /** Appends again up to a batch of the commits whose append failed, from their rows. */
  private async retryFailed(): Promise<void> {
    if (this.failed.size === 0) return;
    let low = Infinity;
    for (const seq of this.failed) low = Math.min(low, seq);
    const rows = await pendingAfter(this.db, this.processId, low - 1, RECOVER_BATCH);
    const reached = rows.length === RECOVER_BATCH ? rows[rows.length - 1]!.seq : Infinity;
    const found = new Set(rows.map((row) => row.seq));
    // A row already gone was appended by a process that took this one for dead.
    for (const seq of this.failed) if (seq <= reached && !found.has(seq)) this.failed.delete(seq);
    for (const row of rows) {
      if (!this.failed.has(row.seq)) continue;
      if ((await this.bus.publishOnce(this.processId, row.seq, row.commitText, false)) === "failed") return;
      this.failed.delete(row.seq);
      this.appended.push(row.seq);
    }
  }

  private async sweepOthers(): Promise<void> {
    const lock = this.lock;
    if (!lock) return;
    const now = Date.now();
    for (const { processId: owner, oldest } of await processesPendingBefore(this.db, this.processId, now - STALE_MS)) {
      if (this.stopped) return;
      const key = lockKey(owner);
      let taken = await tryLock(lock, key);
      if (!taken && now - oldest > MEMBER_TTL_MS && (await this.members.addressOf(owner)) === undefined) {
        // Out of the members since before its rows and still holding its lock: its connection outlived it.
        await lock.query("select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1", [key]);
        taken = await tryLock(lock, key);
      }
      if (!taken) continue;
      try {
        await this.recover(owner);
      } finally {
        await lock.query("select pg_advisory_unlock(hashtextextended($1, 0))", [key]);
      }
    }
  }

  /** Appends every row `owner` (dead) left, oldest first, then deletes them. */
  private async recover(owner: string): Promise<void> {
    let after = 0;
    let left = 0;
    let appended = 0;
    for (;;) {
      const rows = await pendingAfter(this.db, owner, after, RECOVER_BATCH);
      if (rows.length === 0) break;
      for (const row of rows) {
        const outcome = await this.bus.publishOnce(owner, row.seq, row.commitText, false);
        if (outcome === "failed") throw new Error("could not append a dead process's commit to the stream");
        if (outcome === "appended") appended++;
      }
      await deletePending(this.db, owner, rows.map((row) => row.seq));
      left += rows.length;
      after = rows[rows.length - 1]!.seq;
    }
    await this.redis.expire(this.keys.appended(owner), MARKS_TTL_S);
    this.log.warn({ processId: owner, left, appended }, "a cluster process died with commits recorded: appended those not on the stream yet for it");
  }

  private async connectLock(): Promise<void> {
    const { default: pgModule } = await import("pg");
    const client = new pgModule.Client({ connectionString: this.databaseUrl, application_name: lockKey(this.processId) });
    client.on("error", (error) => {
      this.log.warn({ err: error }, "lost the cluster liveness connection to PostgreSQL; reconnecting");
      if (this.lock === client) this.lock = undefined;
      void this.reconnectLock();
    });
    await client.connect();
    await client.query("select pg_advisory_lock(hashtextextended($1, 0))", [lockKey(this.processId)]);
    this.lock = client;
  }

  private async reconnectLock(): Promise<void> {
    while (!this.stopped && !this.lock) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      if (this.stopped) return;
      try {
        await this.connectLock();
      } catch (error) {
        this.log.debug({ err: error }, "cluster liveness connection: still failing");
      }
    }
  }
}

async function tryLock(lock: pg.Client, key: string): Promise<boolean> {
  const result = await lock.query<{ taken: boolean }>("select pg_try_advisory_lock(hashtextextended($1, 0)) as taken", [key]);
  return result.rows[0]?.taken === true;
}

/** The name of a process's lock (and of its lock connection). */
function lockKey(processId: string): string {
  return `rookery-${processId}`;
}
