import { Transform } from "node:stream";
import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import {
  attachmentById,
  attachmentPathsOfMessage,
  attachmentsByPaths,
  deleteAttachment,
  insertAttachment,
  linkAttachment,
  realmUploadSpaceUsed,
  unlinkAttachments,
  type AttachmentRow,
} from "../db/queries/attachments.js";
import { insertImageAttachment } from "../db/queries/image-attachments.js";
import type { MessageRow } from "../db/queries/messages.js";
import type { StreamRow } from "../db/queries/streams.js";
import type { UserRow } from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";
import { ApiError, badRequest } from "../base/errors.js";
import type { IncomingFile } from "../uploads/incoming.js";
import { attachmentDicts, fileAccess } from "../lib/messages/attachments.js";
import { realmProp } from "../lib/realm/props.js";
import { hasImageSignature, IMAGE_BOMB_TOTAL_PIXELS, IMAGE_SIGNATURE_BYTES, probeImage, type ImageFacts } from "../uploads/images.js";
import { fitName, newPathId, sanitizeName, unquote } from "../uploads/paths.js";
import { deleteUploadFiles } from "../uploads/storage.js";

/** A file written to storage whose rows are not yet recorded. */
export interface StagedUpload {
  pathId: string;
  /** The name as uploaded: the attachment's `name`. */
  fileName: string;
  size: number;
  contentType: string;
  image: ImageFacts | undefined;
}

// Enough of a file's start for any image header sharp reads (a JPEG's EXIF segment is ≤ 64 KiB).
const HEAD_BYTES = 256 * 1024;

/** Zulip's RealmUploadQuotaError. */
function quotaExceeded(): ApiError {
  return new ApiError("Upload would exceed your organization's upload quota.", "REALM_UPLOAD_QUOTA", 400);
}

/** The realm's upload quota in bytes, or null for none (realm_upload_quota_mib). */
async function quotaBytes(ctx: AppContext, realmId: number): Promise<number | null> {
  const mib = realmProp(await ctx.realms.get(realmId), "upload_quota_mib");
  return typeof mib === "number" ? mib * 1024 * 1024 : null;
}

/**
 * The first half of POST /user_uploads: streams the file to storage under a new path id, its
 * size checked against the server's limit and the realm's quota as it flows (Zulip's checks in
 * Zulip's order: size, then quota), its type read from its first bytes.
 */
export async function stageUpload(ctx: AppContext, user: UserRow, file: IncomingFile): Promise<StagedUpload> {
  // The attachment keeps the name as sent (URL-unquoted, as Zulip's get_file_info has it); the
  // path gets its sanitised form, cut to a length the file system takes.
  const fileName = unquote(file.filename);
  const pathId = newPathId(user.realm_id, fitName(sanitizeName(fileName)));
  // A cut-short body may fail the file before storage reads it (while the quota is read from the
  // database, or before this part was handed over): the failure is kept for storage's pipeline
  // instead of leaving it waiting for bytes that never come.
  let early: Error | undefined;
  const keepEarly = (error: Error) => (early ??= error);
  file.stream.on("error", keepEarly);
  const quota = await quotaBytes(ctx, user.realm_id);
  const room = quota === null ? Infinity : quota - (await realmUploadSpaceUsed(ctx.db, user.realm_id));
  file.stream.off("error", keepEarly);
  const head: Buffer[] = [];
  let headSize = 0;
  let total = 0;
  let overQuota = false;
  let keepHead = true;
  // Counts and keeps the first bytes on the way to storage; past the quota the rest is read (the
  // size limit is reported first) but not kept.
  const inspect = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      total += chunk.length;
      if (total > room) overQuota = true;
      if (overQuota) return done();
      if (headSize < HEAD_BYTES && keepHead) {
        head.push(chunk);
        headSize += chunk.length;
        // Once its first bytes say it is no image, nothing more of it is held.
        if (headSize >= IMAGE_SIGNATURE_BYTES && !hasImageSignature(Buffer.concat(head))) {
          keepHead = false;
          head.length = 0;
        }
      }
      done(null, chunk);
    },
  });
  file.stream.on("error", (error: Error) => inspect.destroy(error));
  // Storage may not be reading yet when a cut-short body fails the file: the failure then waits on
  // `inspect` for storage's pipeline to see, instead of going unheard (which ends the process).
  inspect.on("error", () => {});
  const failed = early ?? file.stream.errored ?? (file.stream.destroyed ? new Error("the file part ended before its end") : undefined);
  if (failed) inspect.destroy(failed);
  else file.stream.pipe(inspect);
  // A file past the size limit ends early; receiveSingleFile reports it (and discards this one).
  const size = await ctx.files.put(pathId, inspect);
  if (overQuota && !file.stream.truncated) {
    await deleteUploadFiles(ctx.files, pathId);
    throw quotaExceeded();
  }
  const facts = size > 0 && head.length > 0 ? await probeImage(Buffer.concat(head)) : undefined;
  // An image past the pixel limit is kept as a plain file: never decoded, previewed or shown inline.
  const image = facts && facts.width * facts.height * facts.frames <= IMAGE_BOMB_TOTAL_PIXELS ? facts : undefined;
  return { pathId, fileName, size, contentType: image?.contentType ?? declaredType(file.mimetype), image };
}

/** The declared type, reduced to `type/subtype`; it only ever decides how a download is offered. */
function declaredType(mimetype: string): string {
  const type = mimetype.split(";")[0]?.trim().toLowerCase() ?? "";
  return /^[a-z0-9.+-]+\/[a-z0-9.+-]+$/.test(type) ? type : "application/octet-stream";
}

/** Removes a staged file that will not be recorded. */
export async function discardUpload(ctx: AppContext, staged: StagedUpload): Promise<void> {
  await deleteUploadFiles(ctx.files, staged.pathId);
}

/**
 * The second half of POST /user_uploads: records the upload (and, for an image, its facts, then
 * queues its thumbnails). `attachment` add goes to the uploader. Returns the file's URL.
 */
export async function checkRecordUpload(ctx: AppContext, user: UserRow, staged: StagedUpload): Promise<string> {
  const quota = await quotaBytes(ctx, user.realm_id);
  try {
    const imageId = await write(ctx, async (tx, outbox) => {
      const used = await realmUploadSpaceUsed(tx, user.realm_id);
      if (quota !== null && used + staged.size > quota) throw quotaExceeded();
      const id = await insertAttachment(tx, {
        realm_id: user.realm_id,
        owner_id: user.id,
        path_id: staged.pathId,
        file_name: staged.fileName,
        size: staged.size,
        content_type: staged.contentType,
        create_time: ctx.clock.now(),
        is_realm_public: null,
        is_web_public: null,
      });
      const row = await attachmentById(tx, id);
      if (row) await notifyAttachment(tx, outbox, user.id, "add", row, used + staged.size);
      if (!staged.image) return undefined;
      const { width, height, frames } = staged.image;
      return insertImageAttachment(tx, { realm_id: user.realm_id, path_id: staged.pathId, original_width_px: width, original_height_px: height, frames, thumbnail_metadata: "[]" });
    });
    if (imageId !== undefined) ctx.thumbnails.enqueue(imageId);
  } catch (error) {
    await discardUpload(ctx, staged);
    throw error;
  }
  return `/user_uploads/${staged.pathId}`;
}

async function notifyAttachment(tx: Db, outbox: Outbox, userId: number, op: "add" | "update", row: AttachmentRow, used?: number): Promise<void> {
  const [attachment] = await attachmentDicts(tx, [row]);
  if (!attachment) return;
  outbox.send({ type: "attachment", op, attachment: { ...attachment }, upload_space_used: used ?? (await realmUploadSpaceUsed(tx, row.realm_id)) }, [userId]);
}

/**
 * Zulip's do_claim_attachments: links each upload the message names that its sender may read
 * (others are ignored), widening its publicity to the channel's; `attachment` update goes to
 * the sender. Returns whether anything was claimed (the message's has_attachment).
 */
export async function doClaimAttachments(tx: Db, outbox: Outbox, sender: UserRow, message: Pick<MessageRow, "id">, stream: StreamRow | undefined, pathIds: readonly string[]): Promise<boolean> {
  let claimed = false;
  for (const attachment of await attachmentsByPaths(tx, pathIds)) {
    if ((await fileAccess(tx, sender, attachment.path_id)).access !== "allowed") continue;
    claimed = true;
    const realmPublic = stream !== undefined && !stream.invite_only;
    await linkAttachment(tx, attachment, message.id, realmPublic, realmPublic && stream.is_web_public === 1);
    const updated = await attachmentById(tx, attachment.id);
    if (updated) await notifyAttachment(tx, outbox, sender.id, "update", updated);
  }
  return claimed;
}

/**
 * Zulip's check_attachment_reference_change, for a content edit: unlinks uploads the new
 * content no longer names, claims new ones. Returns the message's new has_attachment.
 */
export async function doUpdateAttachmentReferences(tx: Db, outbox: Outbox, editor: UserRow, message: MessageRow, stream: StreamRow | undefined, pathIds: readonly string[]): Promise<boolean> {
  const previous = await attachmentPathsOfMessage(tx, message.id);
  const next = new Set(pathIds);
  if (previous.size === next.size && [...next].every((p) => previous.has(p))) return previous.size > 0;
  const removed = [...previous].filter(([path]) => !next.has(path)).map(([, id]) => id);
  if (removed.length > 0) await unlinkAttachments(tx, [message.id], removed);
  const added = [...next].filter((p) => !previous.has(p));
  if (added.length > 0) await doClaimAttachments(tx, outbox, editor, message, stream, added);
  return (await attachmentPathsOfMessage(tx, message.id)).size > 0;
}

/**
 * DELETE /attachments/{id}: the owner deletes an upload (Zulip's do_delete_attachment); its
 * file, thumbnails and rows go, and `attachment` remove goes to the owner.
 */
export async function checkRemoveAttachment(ctx: AppContext, user: UserRow, attachmentId: number): Promise<void> {
  const attachment = await write(ctx, async (tx, outbox) => {
    const row = await attachmentById(tx, attachmentId);
    if (!row || row.owner_id !== user.id) throw badRequest("Invalid attachment");
    await deleteAttachment(tx, row);
    outbox.send({ type: "attachment", op: "remove", attachment: { id: row.id }, upload_space_used: await realmUploadSpaceUsed(tx, row.realm_id) }, [user.id]);
    return row;
  });
  await deleteUploadFiles(ctx.files, attachment.path_id);
}
