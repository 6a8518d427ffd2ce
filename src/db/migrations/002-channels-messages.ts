import type { Kysely, Migration } from "kysely";
import { dialectOf, withId } from "./helpers.js";

/** Channels, subscriptions, messages with per-user flags, reactions, topic policies, muted users. */
export const m002ChannelsMessages: Migration = {
  async up(db: Kysely<unknown>) {
    const d = await dialectOf(db);
    await withId(db.schema.createTable("stream"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realm.id"))
      .addColumn("name", "text", (c) => c.notNull())
      .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("rendered_description", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("invite_only", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("is_web_public", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("history_public_to_subscribers", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("stream_post_policy", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("message_retention_days", "integer")
      .addColumn("can_remove_subscribers_group", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("date_created", "bigint", (c) => c.notNull())
      .addColumn("creator_id", "integer", (c) => c.references("user.id"))
      .addColumn("first_message_id", "integer")
      .addColumn("deactivated", "integer", (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex("stream_realm_name").on("stream").columns(["realm_id", "name"]).execute();
    await db.schema
      .createTable("subscription")
      .addColumn("user_id", "integer", (c) => c.notNull().references("user.id"))
      .addColumn("stream_id", "integer", (c) => c.notNull().references("stream.id"))
      .addColumn("active", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("is_user_active", "integer", (c) => c.notNull().defaultTo(1))
      .addColumn("color", "text", (c) => c.notNull())
      .addColumn("is_muted", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("pin_to_top", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("desktop_notifications", "integer")
      .addColumn("audible_notifications", "integer")
      .addColumn("push_notifications", "integer")
      .addColumn("email_notifications", "integer")
      .addColumn("wildcard_mentions_notify", "integer")
      .addPrimaryKeyConstraint("subscription_pk", ["user_id", "stream_id"])
      .execute();
    await db.schema.createIndex("subscription_stream").on("subscription").columns(["stream_id", "active"]).execute();
    await db.schema
      .createTable("default_stream")
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realm.id"))
      .addColumn("stream_id", "integer", (c) => c.notNull().references("stream.id"))
      .addPrimaryKeyConstraint("default_stream_pk", ["realm_id", "stream_id"])
      .execute();
    await withId(db.schema.createTable("message"), d)
      .addColumn("realm_id", "integer", (c) => c.notNull().references("realm.id"))
      .addColumn("sender_id", "integer", (c) => c.notNull().references("user.id"))
      .addColumn("stream_id", "integer", (c) => c.references("stream.id"))
      .addColumn("topic", "text", (c) => c.notNull().defaultTo(""))
      // Direct messages: the sorted user ids of the conversation, comma-joined ("3,7"); "" for channel messages.
      .addColumn("dm_key", "text", (c) => c.notNull().defaultTo(""))
      .addColumn("content", "text", (c) => c.notNull())
      .addColumn("rendered_content", "text", (c) => c.notNull())
      .addColumn("date_sent", "bigint", (c) => c.notNull())
      .addColumn("last_edit_time", "bigint")
      .addColumn("edit_history", "text")
      .addColumn("has_link", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("has_image", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("has_attachment", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("is_me_message", "integer", (c) => c.notNull().defaultTo(0))
      .addColumn("client", "text", (c) => c.notNull().defaultTo("API"))
      .execute();
    await db.schema.createIndex("message_stream_topic").on("message").columns(["stream_id", "topic", "id"]).execute();
    await db.schema.createIndex("message_dm_key").on("message").columns(["dm_key", "id"]).execute();
    await db.schema.createIndex("message_sender").on("message").columns(["sender_id", "id"]).execute();
    await db.schema
      .createTable("user_message")
      .addColumn("user_id", "integer", (c) => c.notNull().references("user.id"))
      .addColumn("message_id", "integer", (c) => c.notNull().references("message.id").onDelete("cascade"))
      .addColumn("flags", "integer", (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint("user_message_pk", ["user_id", "message_id"])
      .execute();
    await db.schema.createIndex("user_message_message").on("user_message").columns(["message_id"]).execute();
    await db.schema
      .createTable("reaction")
      .addColumn("message_id", "integer", (c) => c.notNull().references("message.id").onDelete("cascade"))
      .addColumn("user_id", "integer", (c) => c.notNull().references("user.id"))
      .addColumn("emoji_name", "text", (c) => c.notNull())
      .addColumn("emoji_code", "text", (c) => c.notNull())
      .addColumn("reaction_type", "text", (c) => c.notNull())
      .addPrimaryKeyConstraint("reaction_pk", ["message_id", "user_id", "reaction_type", "emoji_code"])
      .execute();
    await db.schema
      .createTable("user_topic")
      .addColumn("user_id", "integer", (c) => c.notNull().references("user.id"))
      .addColumn("stream_id", "integer", (c) => c.notNull().references("stream.id"))
      .addColumn("topic_name", "text", (c) => c.notNull())
      // lower(topic_name): topics match case-insensitively.
      .addColumn("topic_key", "text", (c) => c.notNull())
      .addColumn("visibility_policy", "integer", (c) => c.notNull())
      .addColumn("last_updated", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("user_topic_pk", ["user_id", "stream_id", "topic_key"])
      .execute();
    await db.schema
      .createTable("muted_user")
      .addColumn("user_id", "integer", (c) => c.notNull().references("user.id"))
      .addColumn("muted_user_id", "integer", (c) => c.notNull().references("user.id"))
      .addColumn("date_muted", "bigint", (c) => c.notNull())
      .addPrimaryKeyConstraint("muted_user_pk", ["user_id", "muted_user_id"])
      .execute();
  },
};
