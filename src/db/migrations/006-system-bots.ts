import type { Kysely, Migration } from "kysely";
import { notificationBotRow } from "../system-bots.js";
import type { Database } from "../schema.js";

/**
 * System bots: the is_system_bot flag, and a Notification Bot for every realm that has none
 * (realms created before this migration; createRealm makes it for new ones).
 */
export const m006SystemBots: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("user").addColumn("is_system_bot", "integer", (c) => c.notNull().defaultTo(0)).execute();
    // The schema now has every column Database describes for the tables read here.
    const typed = db as Kysely<Database>;
    const realms = await typed.selectFrom("realm").select(["id", "date_created"]).orderBy("id").execute();
    for (const realm of realms) {
      const bot = await typed.selectFrom("user").select("id").where("realm_id", "=", realm.id).where("is_system_bot", "=", 1).executeTakeFirst();
      // The realm's date of creation, as createRealm uses for its bot.
      if (!bot) await typed.insertInto("user").values(notificationBotRow(realm.id, realm.date_created)).execute();
    }
  },
};
