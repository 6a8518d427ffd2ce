import type { Kysely, Migration } from "kysely";
import { dialectOf, withId } from "./helpers.js";

/** The email domains an organisation accepts new users from (Zulip's RealmDomain), one row each. */
export const m014RealmDomains: Migration = {
  async up(db: Kysely<unknown>) {
    const d = await dialectOf(db);
    await withId(db.schema.createTable("realm_domain"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realm.id"))
      .addColumn("domain", "text", (c) => c.notNull())
      .addColumn("allow_subdomains", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex("realm_domain_realm_domain").unique().on("realm_domain").columns(["realm_id", "domain"]).execute();
  },
};
