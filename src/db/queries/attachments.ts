import type { Insertable, Selectable } from "kysely";
import type { Db } from "../index.js";
import type { AttachmentTable } from "../schema.js";

/** An uploaded file as stored. */
export type AttachmentRow = Selectable<AttachmentTable>;

/** Stores a new upload's row; returns its id. */
export async function insertAttachment(db: Db, row: Insertable<AttachmentTable>): Promise<number> {
  const inserted = await db.insertInto("attachment").values(row).returning("id").executeTakeFirstOrThrow();
  return inserted.id;
}

/** The upload stored under this path, if any. */
export function attachmentByPath(db: Db, pathId: string): Promise<AttachmentRow | undefined> {
  return db.selectFrom("attachment").selectAll().where("path_id", "=", pathId).executeTakeFirst();
}

/** An upload by id, if any. */
export function attachmentById(db: Db, id: number): Promise<AttachmentRow | undefined> {
  return db.selectFrom("attachment").selectAll().where("id", "=", id).executeTakeFirst();
}

/** The uploads stored under these paths. */
export async function attachmentsByPaths(db: Db, pathIds: readonly string[]): Promise<AttachmentRow[]> {
  if (pathIds.length === 0) return [];
  return db.selectFrom("attachment").selectAll().where("path_id", "in", pathIds).execute();
}

/** A user's uploads, oldest first. */
export function attachmentsOfOwner(db: Db, ownerId: number): Promise<AttachmentRow[]> {
  return db.selectFrom("attachment").selectAll().where("owner_id", "=", ownerId).orderBy("id").execute();
}

/** The bytes a realm's uploads take (Zulip's currently_used_upload_space_bytes). */
export async function realmUploadSpaceUsed(db: Db, realmId: number): Promise<number> {
  const row = await db
    .selectFrom("attachment")
    .select((eb) => eb.fn.sum<number | string | null>("size").as("total"))
    .where("realm_id", "=", realmId)
    .executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** The messages (id and date sent) that link each of these uploads. */
export async function messagesOfAttachments(db: Db, attachmentIds: readonly number[]): Promise<Map<number, { id: number; date_sent: number }[]>> {
  const out = new Map<number, { id: number; date_sent: number }[]>();
  if (attachmentIds.length === 0) return out;
  const rows = await db
    .selectFrom("attachment_message")
    .innerJoin("message", "message.id", "attachment_message.message_id")
    .select(["attachment_message.attachment_id", "message.id", "message.date_sent"])
    .where("attachment_message.attachment_id", "in", attachmentIds)
    .orderBy("message.id")
    .execute();
  for (const r of rows) out.set(r.attachment_id, [...(out.get(r.attachment_id) ?? []), { id: r.id, date_sent: r.date_sent }]);
  return out;
}

/** Links an upload to a message and widens its cached publicity; a second link is a no-op. */
export async function linkAttachment(db: Db, attachment: AttachmentRow, messageId: number, realmPublic: boolean, webPublic: boolean): Promise<void> {
  const existing = await db.selectFrom("attachment_message").select("message_id").where("attachment_id", "=", attachment.id).where("message_id", "=", messageId).executeTakeFirst();
  if (!existing) await db.insertInto("attachment_message").values({ attachment_id: attachment.id, message_id: messageId }).execute();
  const changes: { is_realm_public?: number; is_web_public?: number } = {};
  if (realmPublic && attachment.is_realm_public !== 1) changes.is_realm_public = 1;
  if (webPublic && attachment.is_web_public !== 1) changes.is_web_public = 1;
  if (Object.keys(changes).length > 0) await db.updateTable("attachment").set(changes).where("id", "=", attachment.id).execute();
}

/** The path ids of the uploads a message links. */
export async function attachmentPathsOfMessage(db: Db, messageId: number): Promise<Map<string, number>> {
  const rows = await db
    .selectFrom("attachment_message")
    .innerJoin("attachment", "attachment.id", "attachment_message.attachment_id")
    .select(["attachment.path_id", "attachment.id"])
    .where("attachment_message.message_id", "=", messageId)
    .execute();
  return new Map(rows.map((r) => [r.path_id, r.id]));
}

/** Unlinks uploads from messages; their cached publicity becomes unknown, to be worked out again. */
export async function unlinkAttachments(db: Db, messageIds: readonly number[], attachmentIds?: readonly number[]): Promise<void> {
  if (messageIds.length === 0) return;
  let linked = db.selectFrom("attachment_message").select("attachment_id").where("message_id", "in", messageIds);
  if (attachmentIds) linked = linked.where("attachment_id", "in", attachmentIds.length > 0 ? attachmentIds : [-1]);
  const ids = [...new Set((await linked.execute()).map((r) => r.attachment_id))];
  if (ids.length === 0) return;
  await db.deleteFrom("attachment_message").where("message_id", "in", messageIds).where("attachment_id", "in", ids).execute();
  await resetAttachmentPublicity(db, ids);
}

/** Forgets the cached publicity of uploads whose messages moved or went away. */
export async function resetAttachmentPublicity(db: Db, attachmentIds: readonly number[]): Promise<void> {
  if (attachmentIds.length === 0) return;
  await db.updateTable("attachment").set({ is_realm_public: null, is_web_public: null }).where("id", "in", attachmentIds).execute();
}

/** Forgets the cached publicity of the uploads a channel's messages link (its privacy changed). */
export async function resetChannelAttachmentPublicity(db: Db, streamId: number): Promise<void> {
  await db
    .updateTable("attachment")
    .set({ is_realm_public: null, is_web_public: null })
    .where("id", "in", (eb) =>
      eb.selectFrom("attachment_message").innerJoin("message", "message.id", "attachment_message.message_id").select("attachment_message.attachment_id").where("message.stream_id", "=", streamId),
    )
    .execute();
}

/** The ids of the uploads these messages link. */
export async function attachmentIdsOfMessages(db: Db, messageIds: readonly number[]): Promise<number[]> {
  if (messageIds.length === 0) return [];
  const rows = await db.selectFrom("attachment_message").select("attachment_id").distinct().where("message_id", "in", messageIds).execute();
  return rows.map((r) => r.attachment_id);
}

/** Deletes an upload's row, its message links and its image facts. */
export async function deleteAttachment(db: Db, attachment: AttachmentRow): Promise<void> {
  await db.deleteFrom("attachment_message").where("attachment_id", "=", attachment.id).execute();
  await db.deleteFrom("image_attachment").where("path_id", "=", attachment.path_id).execute();
  await db.deleteFrom("attachment").where("id", "=", attachment.id).execute();
}

/** Whether the user received (has a row for) a message linking the upload. */
export async function receivedLinkingMessage(db: Db, attachmentId: number, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom("attachment_message")
    .innerJoin("user_message", "user_message.message_id", "attachment_message.message_id")
    .select("user_message.message_id")
    .where("attachment_message.attachment_id", "=", attachmentId)
    .where("user_message.user_id", "=", userId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether the user is an active subscriber of a channel with shared history where a message links the upload. */
export async function subscribedWhereLinkedWithSharedHistory(db: Db, attachmentId: number, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom("attachment_message")
    .innerJoin("message", "message.id", "attachment_message.message_id")
    .innerJoin("subscription", "subscription.stream_id", "message.stream_id")
    .innerJoin("stream", "stream.id", "message.stream_id")
    .select("message.id")
    .where("attachment_message.attachment_id", "=", attachmentId)
    .where("subscription.user_id", "=", userId)
    .where("subscription.active", "=", 1)
    .where("stream.history_public_to_subscribers", "=", 1)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Whether a message in a public channel (a web-public one, with `webPublic`) links the upload. */
export async function linkedFromPublicChannel(db: Db, attachmentId: number, webPublic = false): Promise<boolean> {
  const row = await db
    .selectFrom("attachment_message")
    .innerJoin("message", "message.id", "attachment_message.message_id")
    .innerJoin("stream", "stream.id", "message.stream_id")
    .select("message.id")
    .where("attachment_message.attachment_id", "=", attachmentId)
    .where("stream.invite_only", "=", 0)
    .$if(webPublic, (query) => query.where("stream.is_web_public", "=", 1))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Uploads created before `before` that no message links, oldest first (Zulip's old unclaimed attachments). */
export function unclaimedAttachmentsBefore(db: Db, before: number, limit: number): Promise<AttachmentRow[]> {
  return db
    .selectFrom("attachment")
    .selectAll()
    .where("create_time", "<", before)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom("attachment_message").select("attachment_message.message_id").whereRef("attachment_message.attachment_id", "=", "attachment.id"))))
    .orderBy("create_time")
    .orderBy("id")
    .limit(limit)
    .execute();
}

/**
 * Deletes those of these uploads that are still unclaimed and created before `before` (a message
 * may have linked one since it was picked), with their image facts; returns their path ids.
 */
export async function deleteUnclaimedAttachments(db: Db, ids: readonly number[], before: number): Promise<string[]> {
  if (ids.length === 0) return [];
  const deleted = await db
    .deleteFrom("attachment")
    .where("id", "in", ids)
    .where("create_time", "<", before)
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom("attachment_message").select("attachment_message.message_id").whereRef("attachment_message.attachment_id", "=", "attachment.id"))))
    .returning("path_id")
    .execute();
  const paths = deleted.map((r) => r.path_id);
  if (paths.length > 0) await db.deleteFrom("image_attachment").where("path_id", "in", paths).execute();
  return paths;
}
