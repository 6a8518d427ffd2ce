import { Readable } from "node:stream";
import { write, type AppContext } from "../context.js";
import { deleteImageAttachment, imageAttachmentById, messageIdsLinkingPath, setThumbnailMetadata, type ImageAttachmentRow } from "../db/queries/image-attachments.js";
import { messagesByIds, updateMessage, userMessagesOf } from "../db/queries/messages.js";
import { flagList } from "../lib/messages/flags.js";
import { storedThumbnails, uploadPreview } from "../lib/messages/attachments.js";
import { replacePlaceholders } from "../markdown/previews.js";
import { checkImage, formatName, formatsFor, makeThumbnails, type StoredThumbnail } from "../uploads/images.js";

/**
 * The thumbnail queue's work for one image: makes every missing format from the original, off
 * the request path, then records them and re-renders the messages that show the image.
 */
export async function runThumbnailJob(ctx: AppContext, imageId: number): Promise<void> {
  const image = await imageAttachmentById(ctx.db, imageId);
  if (!image) return;
  const made = storedThumbnails(image);
  let thumbnails: StoredThumbnail[] | undefined;
  try {
    const original = ctx.files.localPath?.(image.path_id) ?? (await readAll(ctx, image.path_id));
    const facts = await checkImage(original);
    const missing = formatsFor(facts.frames).filter((f) => !made.some((m) => formatName({ maxWidth: m.max_width, maxHeight: m.max_height, animated: m.animated, extension: m.extension }) === formatName(f)));
    thumbnails = [...made];
    for (const { format, data, stored } of await makeThumbnails(original, missing)) {
      await ctx.files.put(`thumbnail/${image.path_id}/${formatName(format)}`, Readable.from([data]));
      thumbnails.push(stored);
    }
  } catch (error) {
    ctx.log.warn({ err: error, pathId: image.path_id }, "could not thumbnail an uploaded image");
    thumbnails = undefined;
  }
  await doFinishThumbnails(ctx, image, thumbnails);
}

async function readAll(ctx: AppContext, key: string): Promise<Buffer> {
  const stream = await ctx.files.get(key);
  if (!stream) throw new Error(`no stored file ${key}`);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return Buffer.concat(chunks);
}

/**
 * Records an image's thumbnails (or, when it could not be thumbnailed, forgets it as an image)
 * and rewrites each message that links it: the spinner becomes the thumbnail, or the preview
 * goes. Zulip's rendering-only `update_message` goes to everyone holding the message.
 */
async function doFinishThumbnails(ctx: AppContext, image: ImageAttachmentRow, thumbnails: StoredThumbnail[] | undefined): Promise<void> {
  await write(ctx, async (tx, outbox) => {
    if (thumbnails) await setThumbnailMetadata(tx, image.id, JSON.stringify(thumbnails));
    else await deleteImageAttachment(tx, image.id);
    const preview = thumbnails ? uploadPreview({ ...image, thumbnail_metadata: JSON.stringify(thumbnails) }) : undefined;
    const now = ctx.clock.now();
    for (const message of await messagesByIds(tx, await messageIdsLinkingPath(tx, image.path_id))) {
      const html = replacePlaceholders(message.rendered_content, image.path_id, preview);
      if (html === message.rendered_content) continue;
      await updateMessage(tx, message.id, { rendered_content: html });
      const perUser: Record<number, Record<string, unknown>> = {};
      for (const row of await userMessagesOf(tx, message.id)) perUser[row.user_id] = { flags: flagList(row.flags) };
      outbox.queue({
        event: {
          type: "update_message",
          user_id: null,
          edit_timestamp: Math.floor(now / 1000),
          message_id: message.id,
          message_ids: [message.id],
          content: message.content,
          rendered_content: html,
          rendering_only: true,
        },
        userIds: Object.keys(perUser).map(Number),
        perUser,
      });
    }
  });
}
