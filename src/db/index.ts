import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, sql, type Transaction } from "kysely";
import { migrations } from "./migrations/index.js";
import type { DialectName } from "./migrations/helpers.js";
import type { Database } from "./schema.js";
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
  /** Runs `fn` in one write transaction (BEGIN IMMEDIATE on SQLite, so writers queue instead of failing). */
  write<T>(fn: (tx: Db) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Opens the database named by `url` (sqlite:<file> or postgres://…) and migrates it to the latest version. */
export async function openStore(url: string, onIdleError: (error: Error) => void = () => {}): Promise<Store> {
  const store = url.startsWith("sqlite:") ? openSqlite(url.slice("sqlite:".length)) : await openPostgres(url, onIdleError);
  await migrate(store.db);
  return store;
}

function openSqlite(file: string): Store {
  if (file !== ":memory:") fs.mkdirSync(path.dirname(file), { recursive: true });
  const database = new SQLite(file);
  database.pragma("journal_mode = WAL");
  database.pragma("foreign_keys = ON");
  database.pragma("busy_timeout = 5000");
  database.pragma("synchronous = NORMAL");
  registerSearchText(database);
  const db = new Kysely<Database>({ dialect: sqliteDialect(database) });
  return {
    db,
    dialect: "sqlite",
    write: (fn) => runInTransaction(db, "begin immediate", fn),
    close: () => db.destroy(),
  };
}

async function openPostgres(url: string, onIdleError: (error: Error) => void): Promise<Store> {
  // Loaded only when used: the embedded default never pays for the PostgreSQL driver.
  const { default: pg } = await import("pg");
  // PostgreSQL returns int8 (bigint, count(*)) as strings; every such value we store fits a double.
  pg.types.setTypeParser(20, (value) => Number(value));
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection the server closes (restart, failover) must not crash the process: the
  // pool drops it and the next query opens a new one.
  pool.on("error", onIdleError);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    dialect: "postgres",
    write: (fn) => runInTransaction(db, "begin", fn),
    close: () => db.destroy(),
  };
}

async function runInTransaction<T>(db: Db, begin: string, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql.raw(begin).execute(conn);
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
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
}
