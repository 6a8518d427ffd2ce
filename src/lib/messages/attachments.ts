import type { Db } from "../../db/index.js";
import {
  attachmentByPath,
  attachmentIdsOfMessages,
  linkedFromPublicChannel,
  messagesOfAttachments,
  receivedLinkingMessage,
  subscribedWhereLinkedWithSharedHistory,
  type AttachmentRow,
} from "../../db/queries/attachments.js";
import { imageAttachmentsByPaths, type ImageAttachmentRow } from "../../db/queries/image-attachments.js";
import type { UserRow } from "../../db/queries/users.js";
import { THUMBNAIL_FORMATS, formatName, type StoredThumbnail } from "../../uploads/images.js";
import type { UploadPreview } from "../../markdown/context.js";
import { replacePlaceholders } from "../../markdown/previews.js";
import type { RealmRow } from "../../db/queries/realms.js";
import { Role } from "../users/roles.js";
import { webPublicStreamsEnabled } from "../channels/permissions.js";

/** An attachment as GET /attachments and attachment events show it (Zulip's Attachment.to_dict). */
export interface ApiAttachment {
  id: number;
  name: string;
  path_id: string;
  size: number;
  create_time: number;
  messages: { id: number; date_sent: number }[];
}

/** The API form of uploads, with the messages that link each. */
export async function attachmentDicts(db: Db, rows: readonly AttachmentRow[]): Promise<ApiAttachment[]> {
  const messages = await messagesOfAttachments(db, rows.map((r) => r.id));
  return rows.map((r) => ({ id: r.id, name: r.file_name, path_id: r.path_id, size: Number(r.size), create_time: Number(r.create_time), messages: messages.get(r.id) ?? [] }));
}

/** Whether a user may read an upload: "missing" (no such file), "forbidden", or "allowed". */
export type FileAccess = "allowed" | "forbidden" | "missing";

/**
 * Zulip's validate_attachment_request: the owner; anyone in the realm who can see public
 * channels when a message in a public channel links it; whoever received a message linking it;
 * a subscriber of a channel with shared history where it was linked.
 */
export async function fileAccess(db: Db, user: UserRow, pathId: string): Promise<{ access: FileAccess; attachment?: AttachmentRow }> {
  const attachment = await attachmentByPath(db, pathId);
  if (!attachment) return { access: "missing" };
  if (attachment.owner_id === user.id) return { access: "allowed", attachment };
  if (attachment.realm_id !== user.realm_id) return { access: "forbidden", attachment };
  const realmPublic = attachment.is_realm_public === null ? await linkedFromPublicChannel(db, attachment.id) : attachment.is_realm_public === 1;
  if (realmPublic && user.role !== Role.GUEST) return { access: "allowed", attachment };
  if (await receivedLinkingMessage(db, attachment.id, user.id)) return { access: "allowed", attachment };
  const sharedHistory = await subscribedWhereLinkedWithSharedHistory(db, attachment.id, user.id);
  return { access: sharedHistory ? "allowed" : "forbidden", attachment };
}

/**
 * Zulip's validate_attachment_request_for_spectator_access, for a caller without credentials:
 * an upload of the served organisation that a message in a web-public channel links, while the
 * organisation allows web-public access (spectators).
 */
export async function spectatorFileAccess(db: Db, realm: RealmRow | undefined, pathId: string): Promise<FileAccess> {
  const attachment = await attachmentByPath(db, pathId);
  if (!attachment) return "missing";
  if (!realm || attachment.realm_id !== realm.id || !webPublicStreamsEnabled(realm)) return "forbidden";
  const webPublic = attachment.is_web_public === null ? await linkedFromPublicChannel(db, attachment.id, true) : attachment.is_web_public === 1;
  return webPublic ? "allowed" : "forbidden";
}

/** The ids of uploads linked from these messages (their publicity may change when the messages move). */
export function attachmentsOfMessages(db: Db, messageIds: readonly number[]): Promise<number[]> {
  return attachmentIdsOfMessages(db, messageIds);
}

/** The recorded thumbnails of an image. */
export function storedThumbnails(row: Pick<ImageAttachmentRow, "thumbnail_metadata">): StoredThumbnail[] {
  try {
    const parsed: unknown = JSON.parse(row.thumbnail_metadata);
    return Array.isArray(parsed) ? parsed.filter(isStoredThumbnail) : [];
  } catch {
    return [];
  }
}

function isStoredThumbnail(value: unknown): value is StoredThumbnail {
  return typeof value === "object" && value !== null && typeof (value as { extension?: unknown }).extension === "string" && typeof (value as { max_width?: unknown }).max_width === "number";
}

/**
 * What the renderer shows for an uploaded image (Zulip's get_user_upload_previews): its size,
 * and the default thumbnail (the first format of its kind, still or animated) once made.
 */
export function uploadPreview(row: ImageAttachmentRow): UploadPreview {
  const animated = row.frames > 1;
  const made = storedThumbnails(row);
  const format = THUMBNAIL_FORMATS.find((f) => f.animated === animated) ?? THUMBNAIL_FORMATS[0];
  const ready = made.length > 0 && format !== undefined;
  return {
    width: row.original_width_px,
    height: row.original_height_px,
    animated: ready && format.animated,
    thumbnailUrl: ready ? `/user_uploads/thumbnail/${row.path_id}/${formatName(format)}` : null,
  };
}

/** The previews of the uploads these path ids name that are images. */
export async function uploadPreviews(db: Db, realmId: number, pathIds: readonly string[]): Promise<Map<string, UploadPreview>> {
  const rows = await imageAttachmentsByPaths(db, realmId, pathIds);
  return new Map(rows.map((row) => [row.path_id, uploadPreview(row)]));
}

/**
 * Message HTML with the spinners of already-thumbnailed images replaced, read inside the write
 * that stores the message: a thumbnail finished between rendering and storing is not missed.
 */
export async function settlePlaceholders(db: Db, realmId: number, html: string): Promise<string> {
  if (!html.includes("image-loading-placeholder")) return html;
  const paths = [...html.matchAll(/<div class="message_inline_image"><a href="\/user_uploads\/([^"]+)"/g)].map((m) => m[1] ?? "");
  let out = html;
  for (const [pathId, preview] of await uploadPreviews(db, realmId, paths)) {
    if (preview.thumbnailUrl !== null) out = replacePlaceholders(out, pathId, preview);
  }
  return out;
}
