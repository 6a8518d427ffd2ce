import type SQLite from "better-sqlite3";
import { CompiledQuery } from "kysely";
import type { Db } from "./index.js";

interface Job {
  fn: (tx: Db) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** How many writes may share one transaction before waiting readers get the connection. */
const MAX_BATCH = 64;
/**
 * How long a batch may keep taking writes. Every statement runs synchronously, so a batch holds
 * the event loop; between batches the loop turns (signals, timers, sockets) before the next.
 */
const MAX_BATCH_MS = 50;

// Compiled once: three of them run for every write.
const BEGIN = CompiledQuery.raw("begin immediate");
const SAVEPOINT = CompiledQuery.raw("savepoint w");
const RELEASE = CompiledQuery.raw("release w");
const ROLLBACK_TO = CompiledQuery.raw("rollback to w");
const COMMIT = CompiledQuery.raw("commit");
const ROLLBACK = CompiledQuery.raw("rollback");

/**
 * Group commit for SQLite: writes that arrive while a write transaction is open join it, each
 * inside its own savepoint, and they all commit together. A commit writes every page the
 * transaction touched to the WAL, and a message touches one index page per recipient, so
 * sharing a commit is what lets sends outrun one transaction per message. Each write still
 * sees the writes before it, a write that throws rolls back only its own savepoint, and no
 * write resolves before the commit that makes it durable.
 */
export class GroupCommitWriter {
  private readonly queue: Job[] = [];
  private draining = false;

  constructor(
    private readonly db: Db,
    private readonly database: SQLite.Database,
  ) {}

  write<T>(fn: (tx: Db) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ fn, resolve: resolve as (value: unknown) => void, reject });
      if (this.draining) return;
      this.draining = true;
      // better-sqlite3 runs every statement synchronously, so a transaction started now would
      // commit before any other request is read; waiting for the end of this turn of the event
      // loop lets the requests that arrived with this one join its commit.
      setImmediate(() => void this.drain());
    });
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        await this.db.connection().execute((conn) => this.runBatch(conn));
        // A burst of writes must not hold the loop from one batch to the next (a SIGTERM
        // waiting to be handled, a poll to answer): let the loop turn once.
        if (this.queue.length > 0) await new Promise((resolve) => setImmediate(resolve));
      }
    } catch (error) {
      // No connection to be had (the store is closed): nothing queued can be written.
      for (const job of this.queue.splice(0)) job.reject(error);
    } finally {
      this.draining = false;
    }
  }

  /** One transaction: takes queued writes until the queue is empty or the batch is full. */
  private async runBatch(conn: Db): Promise<void> {
    const done: { job: Job; value: unknown }[] = [];
    try {
      await conn.executeQuery(BEGIN);
    } catch (error) {
      for (const job of this.queue.splice(0)) job.reject(error);
      return;
    }
    const started = performance.now();
    for (let taken = 0; taken < MAX_BATCH && this.queue.length > 0 && performance.now() - started < MAX_BATCH_MS; taken++) {
      const job = this.queue.shift() as Job;
      await conn.executeQuery(SAVEPOINT);
      try {
        const value = await job.fn(conn);
        await conn.executeQuery(RELEASE);
        done.push({ job, value });
      } catch (error) {
        job.reject(error);
        if (!this.database.inTransaction) return this.failAll(done, error);
        await conn.executeQuery(ROLLBACK_TO);
        await conn.executeQuery(RELEASE);
      }
    }
    try {
      await conn.executeQuery(COMMIT);
    } catch (error) {
      if (this.database.inTransaction) await conn.executeQuery(ROLLBACK);
      return this.failAll(done, error);
    }
    for (const { job, value } of done) job.resolve(value);
  }

  /** SQLite ended the transaction itself (disk full, I/O error): nothing in it was kept. */
  private failAll(done: { job: Job }[], error: unknown): void {
    for (const { job } of done) job.reject(error);
  }
}
