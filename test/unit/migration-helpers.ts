import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "../../src/db/sqlite-binding.js";
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from "kysely";
import pg from "pg";
import type { Db } from "../../src/db/index.js";
import { migrations } from "../../src/db/migrations/index.js";
import type { Database } from "../../src/db/schema.js";
import { registerSearchText } from "../../src/db/search-text.js";
import { testBackend } from "../harness/server.js";

/** A database of the test backend, migrated only up to (not including) the named migration. */
export async function databaseBefore(migration: string): Promise<{ url: string; db: Db; drop: () => Promise<void> }> {
  let url: string;
  let db: Db;
  let drop = async () => {};
  if (testBackend() === "sqlite") {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "rookery-migration-")), "old.sqlite3");
    url = `sqlite:${file}`;
    const database = new SQLite(file);
    // Migrations from 007 on create triggers that call it, as the server's own connection does.
    registerSearchText(database);
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database }) });
  } else {
    const admin = process.env.ROOKERY_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
    const name = `rookery_migration_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
    const run = async (query: string) => {
      const client = new pg.Client({ connectionString: admin });
      await client.connect();
      await client.query(query);
      await client.end();
    };
    await run(`CREATE DATABASE ${name}`);
    const target = new URL(admin);
    target.pathname = `/${name}`;
    url = target.toString();
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url }) }) });
    drop = () => run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < migration));
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => before } }).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return { url, db, drop };
}
