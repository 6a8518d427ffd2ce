import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/db/index.js";
import { startServer, type TestServer } from "../harness/server.js";
import { databaseBefore } from "./migration-helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
  await server.as("hamlet").post("/users/me/subscriptions", { subscriptions: [{ name: "Fresh" }] });
});
afterAll(() => server.stop());

describe("migration 013-stream-email-token", () => {
  it("gives every existing channel its own token, with the column and uniqueness a fresh database has", async () => {
    const { url, db, drop } = await databaseBefore("013-stream-email-token");
    const realm = await db
      .insertInto("realm")
      .values({ string_id: "old", name: "Old realm", description: "", date_created: 1600000000000, deactivated: 0, props: "{}" })
      .returning("id")
      .executeTakeFirstOrThrow();
    // Written without the column the migration adds.
    for (const name of ["Old one", "Old two"]) await sql`insert into stream (realm_id, name, date_created) values (${realm.id}, ${name}, ${1600000000000})`.execute(db);
    await db.destroy();
    const store = await openStore(url);
    try {
      const migrated = await store.db.selectFrom("stream").selectAll().where("realm_id", "=", realm.id).orderBy("id").execute();
      expect(migrated.map((s) => s.name)).toEqual(["Old one", "Old two"]);
      for (const stream of migrated) expect(stream.email_token).toMatch(/^[0-9a-f]{32}$/);
      expect(migrated[0]?.email_token).not.toBe(migrated[1]?.email_token);
      const fresh = await server.app.ctx.db.selectFrom("stream").selectAll().where("name", "=", "Fresh").executeTakeFirstOrThrow();
      expect(fresh.email_token).toMatch(/^[0-9a-f]{32}$/);
      expect(Object.keys(migrated[0] ?? {}).sort()).toEqual(Object.keys(fresh).sort());
      const copy = store.write((tx) => tx.updateTable("stream").set({ email_token: migrated[0]?.email_token ?? "" }).where("id", "=", migrated[1]?.id ?? -1).execute());
      await expect(copy).rejects.toThrow();
    } finally {
      await store.close();
      await drop();
    }
  });
});
