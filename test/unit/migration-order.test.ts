import { Migrator, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { openStore } from "../../src/db/index.js";
import { migrations } from "../../src/db/migrations/index.js";
import { databaseBefore } from "./migration-helpers.js";

describe("migrations written side by side", () => {
  it("a database that already has later-numbered migrations still takes the earlier ones it lacks", async () => {
    const { url, db, drop } = await databaseBefore("010-realm-config");
    // 012 and later applied first, as a build of another branch would have left the database.
    const later = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "010" || name >= "012"));
    const { error } = await new Migrator({ db, provider: { getMigrations: async () => later } }).migrateToLatest();
    expect(error).toBeUndefined();
    await db.destroy();
    const store = await openStore(url);
    try {
      expect(await store.db.selectFrom("realm_filter").selectAll().execute()).toEqual([]);
      expect(await store.db.selectFrom("scheduled_message").selectAll().execute()).toEqual([]);
      const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(store.db);
      expect(applied.rows.map((row) => row.name).sort()).toEqual(Object.keys(migrations).sort());
    } finally {
      await store.close();
      await drop();
    }
  });
});
