import { randomBytes } from "node:crypto";
import type { Kysely, Migration } from "kysely";
import type { Database } from "../schema.js";

/**
 * Each channel's email-gateway token (Zulip's Stream.email_token): a column every new channel
 * fills, a token for each channel created before it (the same 32 hex digits new channels get),
 * then uniqueness.
 */
export const m013StreamEmailToken: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable("stream").addColumn("email_token", "text", (c) => c.notNull().defaultTo("")).execute();
    // Only stream.id and stream.email_token are touched, and both exist at this point.
    const typed = db as Kysely<Database>;
    const streams = await typed.selectFrom("stream").select("id").orderBy("id").execute();
    for (const { id } of streams) await typed.updateTable("stream").set({ email_token: randomBytes(16).toString("hex") }).where("id", "=", id).execute();
    await db.schema.createIndex("stream_email_token").on("stream").column("email_token").unique().execute();
  },
};
