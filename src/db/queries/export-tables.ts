import type { Selectable } from "kysely";
import type { Db } from "../index.js";
import type { AttachmentTable, MessageTable, RecipientTable, StreamTable, UserTable } from "../schema.js";
import { RecipientType } from "./messages.js";

/**
 * The reads of a realm export (lib/export/): every big table is read in pages by key, so an
 * export holds one page at a time whatever the organisation's size.
 */

/** A user and the id of their personal recipient, if they have one yet. */
export type ExportUserRow = Selectable<UserTable> & { recipient_id: number | null };
/** A channel and the id of its recipient, if it has one yet. */
export type ExportStreamRow = Selectable<StreamTable> & { recipient_id: number | null };

/** The realm's users with ids above `afterId`, by id. */
export function usersPage(db: Db, realmId: number, afterId: number, limit: number): Promise<ExportUserRow[]> {
  return db
    .selectFrom("user as u")
    .leftJoin("recipient as r", (j) => j.onRef("r.type_id", "=", "u.id").on("r.type", "=", RecipientType.PERSONAL))
    .selectAll("u")
    .select("r.id as recipient_id")
    .where("u.realm_id", "=", realmId)
    .where("u.id", ">", afterId)
    .orderBy("u.id")
    .limit(limit)
    .execute();
}

/** The realm's channels with ids above `afterId`, by id. */
export function streamsPage(db: Db, realmId: number, afterId: number, limit: number): Promise<ExportStreamRow[]> {
  return db
    .selectFrom("stream as s")
    .leftJoin("recipient as r", (j) => j.onRef("r.type_id", "=", "s.id").on("r.type", "=", RecipientType.STREAM))
    .selectAll("s")
    .select("r.id as recipient_id")
    .where("s.realm_id", "=", realmId)
    .where("s.id", ">", afterId)
    .orderBy("s.id")
    .limit(limit)
    .execute();
}

/** The largest recipient id in the database (0 when there is none). */
export async function maxRecipientId(db: Db): Promise<number> {
  const row = await db.selectFrom("recipient").select((eb) => eb.fn.max<number | string | null>("id").as("m")).executeTakeFirst();
  return Number(row?.m ?? 0);
}

/** The group direct-message conversations of the realm (recipients with a message in it) above `afterId`, by id. */
export function groupRecipientsPage(db: Db, realmId: number, afterId: number, limit: number): Promise<Selectable<RecipientTable>[]> {
  return db
    .selectFrom("recipient as r")
    .selectAll("r")
    .where("r.type", "=", RecipientType.GROUP)
    .where("r.id", ">", afterId)
    .where((eb) => eb.exists(eb.selectFrom("message as m").select("m.id").whereRef("m.recipient_id", "=", "r.id").where("m.realm_id", "=", realmId)))
    .orderBy("r.id")
    .limit(limit)
    .execute();
}

/** The subscriptions of these channels, by channel then user. */
export function subscriptionsOfStreams(db: Db, streamIds: readonly number[]) {
  if (streamIds.length === 0) return Promise.resolve([]);
  return db.selectFrom("subscription").selectAll().where("stream_id", "in", streamIds).orderBy("stream_id").orderBy("user_id").execute();
}

/** The distinct client names the realm's messages and scheduled messages were sent from. */
export async function clientNames(db: Db, realmId: number): Promise<string[]> {
  const sent = await db.selectFrom("message").select("client").distinct().where("realm_id", "=", realmId).execute();
  const scheduled = await db.selectFrom("scheduled_message").select("client").distinct().where("realm_id", "=", realmId).execute();
  return [...new Set([...sent, ...scheduled].map((r) => r.client))].sort();
}

/** The realm's messages above `afterId`, by id; only those sent to public channels when `publicOnly`. */
export function messagesPage(db: Db, realmId: number, afterId: number, limit: number, publicOnly: boolean): Promise<Selectable<MessageTable>[]> {
  let query = db.selectFrom("message as m").selectAll("m").where("m.realm_id", "=", realmId).where("m.id", ">", afterId);
  if (publicOnly) query = query.innerJoin("stream as s", "s.id", "m.stream_id").where("s.invite_only", "=", 0);
  return query.orderBy("m.id").limit(limit).execute();
}

/** The per-user rows of these messages, by message then user. */
export function userMessagesOf(db: Db, messageIds: readonly number[]) {
  if (messageIds.length === 0) return Promise.resolve([]);
  return db.selectFrom("user_message").selectAll().where("message_id", "in", messageIds).orderBy("message_id").orderBy("user_id").execute();
}

/** The reactions to these messages, by message then user. */
export function reactionsOf(db: Db, messageIds: readonly number[]) {
  if (messageIds.length === 0) return Promise.resolve([]);
  return db.selectFrom("reaction").selectAll().where("message_id", "in", messageIds).orderBy("message_id").orderBy("user_id").orderBy("emoji_code").execute();
}

/** The widgets' submessages of these messages, by id. */
export function submessagesOf(db: Db, messageIds: readonly number[]) {
  if (messageIds.length === 0) return Promise.resolve([]);
  return db.selectFrom("submessage").selectAll().where("message_id", "in", messageIds).orderBy("id").execute();
}

/** The realm's uploads above `afterId`, by id. */
export function attachmentsPage(db: Db, realmId: number, afterId: number, limit: number): Promise<Selectable<AttachmentTable>[]> {
  return db.selectFrom("attachment").selectAll().where("realm_id", "=", realmId).where("id", ">", afterId).orderBy("id").limit(limit).execute();
}

/** The messages that link these uploads. */
export function attachmentMessagesOf(db: Db, attachmentIds: readonly number[]) {
  if (attachmentIds.length === 0) return Promise.resolve([]);
  return db.selectFrom("attachment_message").selectAll().where("attachment_id", "in", attachmentIds).orderBy("attachment_id").orderBy("message_id").execute();
}

/** Rows of small per-realm tables, by id. */
export function realmRows(db: Db, realmId: number) {
  return {
    realm: db.selectFrom("realm").selectAll().where("id", "=", realmId).execute(),
    emoji: db.selectFrom("realm_emoji").selectAll().where("realm_id", "=", realmId).orderBy("id").execute(),
    domains: db.selectFrom("realm_domain").selectAll().where("realm_id", "=", realmId).orderBy("id").execute(),
    filters: db.selectFrom("realm_filter").selectAll().where("realm_id", "=", realmId).orderBy("id").execute(),
    playgrounds: db.selectFrom("realm_playground").selectAll().where("realm_id", "=", realmId).orderBy("id").execute(),
    userDefaults: db.selectFrom("realm_user_default").selectAll().where("realm_id", "=", realmId).execute(),
    profileFields: db.selectFrom("custom_profile_field").selectAll().where("realm_id", "=", realmId).orderBy("id").execute(),
    defaultStreams: db.selectFrom("default_stream").selectAll().where("realm_id", "=", realmId).orderBy("stream_id").execute(),
    groups: db.selectFrom("user_group").selectAll().where("realm_id", "=", realmId).orderBy("id").execute(),
    scheduled: db.selectFrom("scheduled_message").selectAll().where("realm_id", "=", realmId).where("delivered", "=", 0).orderBy("id").execute(),
  };
}

/** Members and subgroups of these groups. */
export async function groupMembershipsOf(db: Db, groupIds: readonly number[]) {
  if (groupIds.length === 0) return { members: [], subgroups: [] };
  const members = await db.selectFrom("user_group_member").selectAll().where("group_id", "in", groupIds).orderBy("group_id").orderBy("user_id").execute();
  const subgroups = await db.selectFrom("user_group_subgroup").selectAll().where("supergroup_id", "in", groupIds).orderBy("supergroup_id").orderBy("subgroup_id").execute();
  return { members, subgroups };
}

/** Rows of per-user tables for these users, by user. */
export function perUserRows(db: Db, userIds: readonly number[]) {
  const ids = userIds.length === 0 ? [-1] : userIds;
  return {
    alertWords: () => db.selectFrom("alert_word").selectAll().where("user_id", "in", ids).orderBy("id").execute(),
    profileValues: () => db.selectFrom("custom_profile_field_value").selectAll().where("user_id", "in", ids).orderBy("user_id").orderBy("field_id").execute(),
    mutedUsers: () => db.selectFrom("muted_user").selectAll().where("user_id", "in", ids).orderBy("user_id").orderBy("muted_user_id").execute(),
    presence: () => db.selectFrom("presence").selectAll().where("user_id", "in", ids).orderBy("user_id").execute(),
    statuses: () => db.selectFrom("user_status").selectAll().where("user_id", "in", ids).orderBy("user_id").execute(),
    userTopics: () => db.selectFrom("user_topic").selectAll().where("user_id", "in", ids).orderBy("user_id").orderBy("stream_id").orderBy("topic_key").execute(),
    drafts: () => db.selectFrom("draft").selectAll().where("user_id", "in", ids).orderBy("id").execute(),
  };
}

/** Ids of the realm's messages above `afterId`, by id; only those sent to public channels when `publicOnly`. */
export async function messageIdsPage(db: Db, realmId: number, afterId: number, limit: number, publicOnly: boolean): Promise<number[]> {
  let query = db.selectFrom("message as m").select("m.id").where("m.realm_id", "=", realmId).where("m.id", ">", afterId);
  if (publicOnly) query = query.innerJoin("stream as s", "s.id", "m.stream_id").where("s.invite_only", "=", 0);
  return (await query.orderBy("m.id").limit(limit).execute()).map((r) => r.id);
}

/** How many messages an export of the realm holds. */
export async function exportMessageCount(db: Db, realmId: number, publicOnly: boolean): Promise<number> {
  let query = db.selectFrom("message as m").select((eb) => eb.fn.countAll<number | string>().as("n")).where("m.realm_id", "=", realmId);
  if (publicOnly) query = query.innerJoin("stream as s", "s.id", "m.stream_id").where("s.invite_only", "=", 0);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** The exported messages (all, or only those in public channels) that link these uploads. */
export function exportedAttachmentMessagesOf(db: Db, attachmentIds: readonly number[], publicOnly: boolean) {
  if (attachmentIds.length === 0) return Promise.resolve([]);
  let query = db.selectFrom("attachment_message as am").innerJoin("message as m", "m.id", "am.message_id").select(["am.attachment_id", "am.message_id"]).where("am.attachment_id", "in", attachmentIds);
  if (publicOnly) query = query.innerJoin("stream as s", "s.id", "m.stream_id").where("s.invite_only", "=", 0);
  return query.orderBy("am.attachment_id").orderBy("am.message_id").execute();
}

/** Emails of these users, by id. */
export async function emailsOf(db: Db, userIds: readonly number[]): Promise<Map<number, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.selectFrom("user").select(["id", "email"]).where("id", "in", userIds).execute();
  return new Map(rows.map((r) => [r.id, r.email]));
}

/** The recipient of a group conversation by its participants' key, if it has one. */
export async function groupRecipientByKey(db: Db, dmKey: string): Promise<number | undefined> {
  const row = await db.selectFrom("recipient").select("id").where("type", "=", RecipientType.GROUP).where("dm_key", "=", dmKey).executeTakeFirst();
  return row?.id;
}

/** The realm's copies of Zulip's system bots (Notification Bot, Welcome Bot…), by id and email. */
export function systemBotsOf(db: Db, realmId: number): Promise<{ id: number; email: string }[]> {
  return db.selectFrom("user").select(["id", "email"]).where("realm_id", "=", realmId).where("is_system_bot", "=", 1).orderBy("id").execute();
}
