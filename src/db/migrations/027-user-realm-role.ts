import { sql, type Kysely, type Migration } from "kysely";

/**
 * Lookups that must not read every user of an organisation: its users by role (the few guests or
 * administrators an event leaves out of, or adds to, a realm-wide fan-out), and by address as
 * typed, in any case (whether an address is taken, at every sign-up and account creation).
 */
export const m027UserRealmRole: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex("user_realm_role").on("user").columns(["realm_id", "role"]).execute();
    await sql`create index user_realm_lower_delivery_email on "user" (realm_id, lower(delivery_email))`.execute(db);
    await sql`create index user_realm_lower_email on "user" (realm_id, lower(email))`.execute(db);
  },
};
