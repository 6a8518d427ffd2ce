import type { Kysely, Migration } from "kysely";
import { dialectOf, withId } from "./helpers.js";

/**
 * Data exports of an organisation requested through the API (Zulip's REALM_EXPORTED audit-log
 * rows). Times are milliseconds; `started_time` is set once, by the one process that claims the
 * job, so an export runs once even in a cluster. `export_path` is the archive's storage key.
 */
export const m026Exports: Migration = {
  async up(db: Kysely<unknown>) {
    const d = await dialectOf(db);
    await withId(db.schema.createTable("realm_export"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realm.id"))
      .addColumn("acting_user_id", "integer", (c) => c.notNull().references("user.id"))
      .addColumn("export_time", "bigint", (c) => c.notNull())
      .addColumn("started_time", "bigint")
      .addColumn("failed_time", "bigint")
      .addColumn("deleted_time", "bigint")
      .addColumn("export_path", "text")
      .execute();
    await db.schema.createIndex("realm_export_realm").on("realm_export").columns(["realm_id", "export_time"]).execute();
  },
};
