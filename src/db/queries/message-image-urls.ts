import { createHash } from "node:crypto";
import type { Db } from "../index.js";
import { chunks } from "../chunks.js";

/** The digest an image URL is recorded under. */
export function imageUrlDigest(url: string): string {
  return createHash("sha256").update(url).digest("hex");
}

/** Records the external images a message shows (replacing what it showed before). */
export async function setMessageImageUrls(db: Db, messageId: number, urls: readonly string[]): Promise<void> {
  await db.deleteFrom("message_image_url").where("message_id", "=", messageId).execute();
  const digests = [...new Set(urls.map(imageUrlDigest))];
  if (digests.length > 0) await db.insertInto("message_image_url").values(digests.map((url_digest) => ({ url_digest, message_id: messageId }))).execute();
}

/** The newest messages (at most `limit`) that show the image at `url`, newest first. */
export async function messagesShowingImage(db: Db, url: string, limit: number): Promise<number[]> {
  const rows = await db.selectFrom("message_image_url").select("message_id").where("url_digest", "=", imageUrlDigest(url)).orderBy("message_id", "desc").limit(limit).execute();
  return rows.map((r) => r.message_id);
}

/** Forgets the images of deleted messages. */
export async function deleteMessageImageUrls(db: Db, messageIds: readonly number[]): Promise<void> {
  for (const slice of chunks(messageIds)) await db.deleteFrom("message_image_url").where("message_id", "in", slice).execute();
}
