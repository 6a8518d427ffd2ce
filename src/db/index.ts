import fs from "node:fs";
import path from "node:path";
import SQLite from "./sqlite-binding.js";
import { Kysely, Migrator, PostgresDialect, sql, type Transaction } from "kysely";
import { migrations } from "./migrations/index.js";
import type { DialectName } from "./migrations/helpers.js";
import type { Database } from "./schema.js";
import { GroupCommitWriter } from "./group-commit.js";
import { registerSearchText } from "./search-text.js";
import { sqliteDialect } from "./sqlite-driver.js";

export type { Database } from "./schema.js";
/** A query handle: the database itself or an open transaction. */
export type Db = Kysely<Database>;
/** A handle on an open write transaction. */
export type Tx = Transaction<Database> | Kysely<Database>;

/** An open store: the Kysely handle and the way to run a write transaction. */
export interface Store {
  db: Db;
  dialect: DialectName;
  /**
   * Runs `fn` in a write transaction and resolves after it commits. On SQLite, writes that queue
   * up share one transaction (BEGIN IMMEDIATE), each in its own savepoint: see GroupCommitWriter.
   */
  write<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** The PostgreSQL advisory lock held while migrating (any number both processes agree on). */
const MIGRATION_LOCK = 7_302_019;

/** Opens the database named by `url` (sqlite:<file> or postgres://…) and migrates it to the latest version. */
export async function openStore(url: string, onIdleError: (error: Error) => void = () => {}): Promise<Store> {
  if (url.startsWith("sqlite:")) return openSqlite(url.slice("sqlite:".length));
  const store = await openPostgres(url, onIdleError);
  // Processes of a cluster may start together: one migrates, the others wait for it and find nothing to do.
  await store.db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${MIGRATION_LOCK})`.execute(conn);
    try {
      await migrate(store.db);
    } finally {
      await sql`select pg_advisory_unlock(${MIGRATION_LOCK})`.execute(conn);
    }
  });
  return store;
}

/**
 * SQLite with two connections: one that writes (group commit, migrations) and one, read-only,
 * for every other read. In WAL mode a reader sees the last commit and never waits for a write
 * transaction, so requests keep reading while writes queue up to share a commit. An in-memory
 * database is private to its connection, so it has one connection for both.
 */
async function openSqlite(file: string): Promise<Store> {
  const inMemory = file === ":memory:";
  if (!inMemory) fs.mkdirSync(path.dirname(file), { recursive: true });
  const database = new SQLite(file);
  database.pragma("journal_mode = WAL");
  database.pragma("foreign_keys = ON");
  database.pragma("busy_timeout = 5000");
  database.pragma("synchronous = NORMAL");
  // A checkpoint copies the WAL's pages into the database file and syncs it, on this thread. A
  // message dirties a page or two per recipient, the same pages message after message, so one
  // checkpoint per 10,000 WAL pages (about 40 MB) copies each page once where ten checkpoints of
  // 1,000 would copy it ten times: 2,750 → 3,500 messages/s in a raw loop.
  database.pragma("wal_autocheckpoint = 10000");
  // The message table's triggers keep the search index with this function; only the writer needs it.
  registerSearchText(database);
  const writeDb = new Kysely<Database>({ dialect: sqliteDialect(database) });
  await migrate(writeDb);
  const reader = inMemory ? undefined : new SQLite(file, { readonly: true });
  reader?.pragma("busy_timeout = 5000");
  const db = reader ? new Kysely<Database>({ dialect: sqliteDialect(reader) }) : writeDb;
  const writer = new GroupCommitWriter(writeDb, database);
  return {
    db,
    dialect: "sqlite",
    write: (fn) => writer.write(fn),
    close: async () => {
      if (db !== writeDb) await db.destroy();
      await writeDb.destroy();
      // Kysely closes a connection only if it has used it; close both whatever they served.
      if (reader?.open) reader.close();
      if (database.open) database.close();
    },
  };
}

async function openPostgres(url: string, onIdleError: (error: Error) => void): Promise<Store> {
  // Loaded only when used: the embedded default never pays for the PostgreSQL driver.
  const { default: pg } = await import("pg");
  // PostgreSQL returns int8 (bigint, count(*)) as strings; every such value we store fits a double.
  // The parser is the driver's, for the whole process: a closure made here would share this
  // function's scope, and so keep every closed store's pool alive.
  pg.types.setTypeParser(20, Number);
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection the server closes (restart, failover) must not crash the process: the
  // pool drops it and the next query opens a new one.
  pool.on("error", onIdleError);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: "postgres",
    write: (fn) => runInTransaction(db, fn),
    close: () => db.destroy(),
  };
}

async function runInTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql`begin`.execute(conn);
    try {
      const result = await fn(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (error) {
      await sql`rollback`.execute(conn);
      throw error;
    }
  });
}

async function migrate(db: Db): Promise<void> {
  // Migrations written side by side are independent: a database that has a later-numbered one
  // already still takes an earlier one it lacks, instead of refusing to start.
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
