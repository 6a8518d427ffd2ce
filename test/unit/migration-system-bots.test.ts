import type { Selectable } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/db/index.js";
import type { UserTable } from "../../src/db/schema.js";
import { startServer, type TestServer } from "../harness/server.js";
import { databaseBefore } from "./migration-helpers.js";

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

/** Each migration that adds a system bot to the realms that existed before it. */
const SYSTEM_BOT_MIGRATIONS = [
  { migration: "006-system-bots", email: "notification-bot@zulip.com", name: "Notification Bot" },
  { migration: "017-welcome-bot", email: "welcome-bot@zulip.com", name: "Welcome Bot" },
];

describe.each(SYSTEM_BOT_MIGRATIONS)("migration $migration", ({ migration, email, name }) => {
  it(`gives each existing realm the ${name} a new realm gets`, async () => {
    const { url, db, drop } = await databaseBefore(migration);
    const realm = await db
      .insertInto("realm")
      .values({ string_id: "old", name: "Old realm", description: "", date_created: 1600000000000, deactivated: 0, props: "{}" })
      .returning("id")
      .executeTakeFirstOrThrow();
    await db.destroy();
    const store = await openStore(url);
    try {
      // Each migration is about its own bot; the others add theirs.
      const migrated = await store.db.selectFrom("user").selectAll().where("realm_id", "=", realm.id).where("email", "=", email).execute();
      expect(migrated).toHaveLength(1);
      const fresh = await server.app.ctx.db.selectFrom("user").selectAll().where("is_system_bot", "=", 1).where("email", "=", email).execute();
      expect(fresh).toHaveLength(1);
      const [old, made] = [migrated[0], fresh[0]];
      if (!old || !made) throw new Error("no bot");
      expect(comparable(old)).toEqual(comparable(made));
      expect(Object.keys(old).sort()).toEqual(Object.keys(made).sort());
      expect(old.date_joined).toBe(1600000000000);
      expect(old.api_key).toMatch(/^[A-Za-z0-9]{32}$/);
      expect(comparable(old)).toMatchObject({ email, full_name: name, is_bot: 1, is_system_bot: 1, bot_owner_id: null });
    } finally {
      await store.close();
      await drop();
    }
  });
});
