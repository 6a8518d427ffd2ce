import type { Insertable, Selectable } from "kysely";
import type { Db } from "../index.js";
import type { ImageAttachmentTable } from "../schema.js";

/** An uploaded image's facts as stored. */
export type ImageAttachmentRow = Selectable<ImageAttachmentTable>;

/** Records an uploaded image; returns its id. */
export async function insertImageAttachment(db: Db, row: Insertable<ImageAttachmentTable>): Promise<number> {
  const inserted = await db.insertInto("image_attachment").values(row).returning("id").executeTakeFirstOrThrow();
  return inserted.id;
}

/** The image facts of these uploads (those that are images), in the realm. */
export async function imageAttachmentsByPaths(db: Db, realmId: number, pathIds: readonly string[]): Promise<ImageAttachmentRow[]> {
  if (pathIds.length === 0) return [];
  return db.selectFrom("image_attachment").selectAll().where("realm_id", "=", realmId).where("path_id", "in", pathIds).orderBy("id").execute();
}

/** One image's facts by id. */
export function imageAttachmentById(db: Db, id: number): Promise<ImageAttachmentRow | undefined> {
  return db.selectFrom("image_attachment").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Images whose thumbnails were never made (the work a restarted server picks up again). */
export function unthumbnailedImages(db: Db): Promise<ImageAttachmentRow[]> {
  return db.selectFrom("image_attachment").selectAll().where("thumbnail_metadata", "=", "[]").orderBy("id").execute();
}

/** Saves the list of thumbnails made of an image. */
export async function setThumbnailMetadata(db: Db, id: number, metadata: string): Promise<void> {
  await db.updateTable("image_attachment").set({ thumbnail_metadata: metadata }).where("id", "=", id).execute();
}

/** The messages that link an image, by path. */
export async function messageIdsLinkingPath(db: Db, pathId: string): Promise<number[]> {
  const rows = await db
    .selectFrom("attachment_message")
    .innerJoin("attachment", "attachment.id", "attachment_message.attachment_id")
    .select("attachment_message.message_id")
    .where("attachment.path_id", "=", pathId)
    .orderBy("attachment_message.message_id")
    .execute();
  return rows.map((r) => r.message_id);
}

/** Forgets an upload as an image (it could not be thumbnailed). */
export async function deleteImageAttachment(db: Db, id: number): Promise<void> {
  await db.deleteFrom("image_attachment").where("id", "=", id).execute();
}
