import type { Kysely, Migration } from "kysely";
import { dialectOf, withId } from "./helpers.js";

/** User groups (named and anonymous), their direct members and subgroups, email invitations and reusable links. */
export const m004GroupsInvites: Migration = {
  async up(db: Kysely<unknown>) {
    const d = await dialectOf(db);
    // name is null for anonymous groups: the value of a group setting given as {direct_members, direct_subgroups}.
    await withId(db.schema.createTable("user_group"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realm.id"))
      .addColumn("name", "text")
      .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("is_system_group", "integer", (c) => c.notNull().defaultTo(0))
      // Null only while the system groups of a new realm are being created.
      .addColumn("can_mention_group_id", "integer")
      .addColumn("date_created", "bigint", (c) => c.notNull())
      .execute();
    await db.schema.createIndex("user_group_realm_name").on("user_group").columns(["realm_id", "name"]).unique().execute();
    await db.schema
      .createTable("user_group_member")
      .addColumn("group_id", "integer", (c) => c.notNull().references("user_group.id").onDelete("cascade"))
      .addColumn("user_id", "integer", (c) => c.notNull().references("user.id"))
      .addPrimaryKeyConstraint("user_group_member_pk", ["group_id", "user_id"])
      .execute();
    await db.schema.createIndex("user_group_member_user").on("user_group_member").columns(["user_id"]).execute();
    await db.schema
      .createTable("user_group_subgroup")
      .addColumn("supergroup_id", "integer", (c) => c.notNull().references("user_group.id").onDelete("cascade"))
      .addColumn("subgroup_id", "integer", (c) => c.notNull().references("user_group.id").onDelete("cascade"))
      .addPrimaryKeyConstraint("user_group_subgroup_pk", ["supergroup_id", "subgroup_id"])
      .execute();
    await db.schema.createIndex("user_group_subgroup_sub").on("user_group_subgroup").columns(["subgroup_id"]).execute();
    // Email invitations (Zulip's PreregistrationUser + Confirmation): status 0 pending, 1 used, 2 revoked.
    await withId(db.schema.createTable("invite"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realm.id"))
      .addColumn("email", "text", (c) => c.notNull())
      .addColumn("referred_by_id", "integer", (c) => c.notNull().references("user.id"))
      .addColumn("invited_as", "integer", (c) => c.notNull())
      .addColumn("stream_ids", "text", (c) => c.notNull().defaultTo("[]"))
      .addColumn("include_realm_default_subscriptions", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("notify_referrer_on_join", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("key", "text", (c) => c.notNull().unique())
      .addColumn("invited_at", "bigint", (c) => c.notNull())
      .addColumn("expiry_date", "bigint")
      .addColumn("status", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("created_user_id", "integer", (c) => c.references("user.id"))
      .execute();
    await db.schema.createIndex("invite_realm_email").on("invite").columns(["realm_id", "email"]).execute();
    // Reusable invitation links: status 0 active, 2 revoked.
    await withId(db.schema.createTable("multiuse_invite"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realm.id"))
      .addColumn("referred_by_id", "integer", (c) => c.notNull().references("user.id"))
      .addColumn("invited_as", "integer", (c) => c.notNull())
      .addColumn("stream_ids", "text", (c) => c.notNull().defaultTo("[]"))
      .addColumn("include_realm_default_subscriptions", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("key", "text", (c) => c.notNull().unique())
      .addColumn("created_at", "bigint", (c) => c.notNull())
      .addColumn("expiry_date", "bigint")
      .addColumn("status", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
