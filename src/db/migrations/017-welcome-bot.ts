import type { Kysely, Migration } from "kysely";
import { systemBotRow, WELCOME_BOT } from "../system-bots.js";
import type { Database } from "../schema.js";

/** A Welcome Bot for every realm that has none (realms created before it; createRealm makes it for new ones). */
export const m017WelcomeBot: Migration = {
  async up(db: Kysely<unknown>) {
    const typed = db as Kysely<Database>;
    const realms = await typed.selectFrom("realm").select(["id", "date_created"]).orderBy("id").execute();
    for (const realm of realms) {
      const bot = await typed.selectFrom("user").select("id").where("realm_id", "=", realm.id).where("email", "=", WELCOME_BOT.email).executeTakeFirst();
      // The realm's date of creation, as createRealm uses for its bots.
      if (!bot) await typed.insertInto("user").values(systemBotRow(WELCOME_BOT, realm.id, realm.date_created)).execute();
    }
  },
};
