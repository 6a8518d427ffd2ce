import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SQLite from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Selectable } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Db } from "../../src/db/index.js";
import { migrations } from "../../src/db/migrations/index.js";
import type { Database, UserTable } from "../../src/db/schema.js";
import { startServer, testBackend, type TestServer } from "../harness/server.js";

/** A database of the test backend, migrated only up to (not including) 006-system-bots. */
async function databaseBefore007(): Promise<{ url: string; db: Db; drop: () => Promise<void> }> {
  let url: string;
  let db: Db;
  let drop = async () => {};
  if (testBackend() === "sqlite") {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "rookery-m006-")), "old.sqlite3");
    url = `sqlite:${file}`;
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new SQLite(file) }) });
  } else {
    const admin = process.env.ROOKERY_TEST_PG_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
    const name = `rookery_m006_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
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
  const before = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "006-system-bots"));
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => before } }).migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return { url, db, drop };
}

/** The columns that must match between two realms' bots (ids, keys, realm and dates differ by nature). */
function comparable(row: Selectable<UserTable>): Record<string, unknown> {
  const { id: _id, api_key: _key, realm_id: _realm, date_joined: _joined, ...rest } = row;
  return rest;
}

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

describe("migration 006-system-bots", () => {
  it("gives each existing realm the Notification Bot a new realm gets", async () => {
    const { url, db, drop } = await databaseBefore007();
    const realm = await db
      .insertInto("realm")
      .values({ string_id: "old", name: "Old realm", description: "", date_created: 1600000000000, deactivated: 0, props: "{}" })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db.destroy();
    const store = await openStore(url);
    try {
      const migrated = await store.db.selectFrom("user").selectAll().where("realm_id", "=", realm.id).execute();
      expect(migrated).toHaveLength(1);
      const fresh = await server.app.ctx.db.selectFrom("user").selectAll().where("is_system_bot", "=", 1).execute();
      expect(fresh).toHaveLength(1);
      const [old, made] = [migrated[0], fresh[0]];
      if (!old || !made) throw new Error("no bot");
      expect(comparable(old)).toEqual(comparable(made));
      expect(Object.keys(old).sort()).toEqual(Object.keys(made).sort());
      expect(old.date_joined).toBe(1600000000000);
      expect(old.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
      expect(comparable(old)).toMatchObject({ email: "notification-bot@zulip.com", full_name: "Notification Bot", is_bot: 1, is_system_bot: 1 });
    } finally {
      await store.close();
      await drop();
    }
  });
});
