import fs from "node:fs";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { checkRecordUpload, checkRemoveAttachment, discardUpload, stageUpload } from "../actions/uploads.js";
import type { AppContext } from "../context.js";
import { attachmentByPath, attachmentsOfOwner, realmUploadSpaceUsed } from "../db/queries/attachments.js";
import { imageAttachmentsByPaths } from "../db/queries/image-attachments.js";
import { defaultRealm } from "../db/queries/realms.js";
import type { UserRow } from "../db/queries/users.js";
import { authenticate, authenticateApiKeyParam } from "../http/auth.js";
import { endpoint } from "../http/endpoint.js";
import { ApiError, badRequest, missingArgument } from "../base/errors.js";
import { sendFileError, sendStoredFile } from "../http/files.js";
import { findSession, sessionUser } from "../http/session.js";
import { pathInt } from "../http/params.js";
import { receiveSingleFile } from "../http/uploads.js";
import { attachmentDicts, fileAccess, spectatorFileAccess, storedThumbnails, type FileAccess } from "../lib/messages/attachments.js";
import { formatName, parseFormatName } from "../uploads/images.js";
import { isPathId } from "../uploads/paths.js";
import { ImageProxyError } from "../uploads/image-proxy.js";
import { mayShowImage } from "../lib/messages/image-access.js";

// Shown in the browser when detected from the bytes as one of these; every other file is a download.
const INLINE_IMAGE_TYPES = new Set(["image/png", "image/jpeg", "image/gif", "image/webp", "image/avif"]);

/** Uploading files, temporary download URLs, and the caller's attachments. */
export const uploadEndpoints = [
  endpoint({
    method: "POST",
    path: "/user_uploads",
    streamsBody: true,
    params: {},
    async handler({ ctx, user, request, reply }) {
      const maxBytes = ctx.config.maxFileUploadSizeMib * 1024 * 1024;
      const staged = await receiveSingleFile(request, reply, maxBytes, (file) => stageUpload(ctx, user, file), (done) => discardUpload(ctx, done));
      const url = await checkRecordUpload(ctx, user, staged);
      return { uri: url, url };
    },
  }),
  endpoint({
    method: "GET",
    path: "/user_uploads/:realm_id_str/*",
    params: {},
    async handler({ ctx, user, path }) {
      const pathId = `${path.realm_id_str ?? ""}/${path["*"] ?? ""}`;
      const { access } = isPathId(pathId) ? await fileAccess(ctx.db, user, pathId) : { access: "missing" as const };
      // Zulip answers these two in HTML even here; under /api/v1 they are its envelope, same words.
      if (access === "missing") throw new ApiError("File not found.", "BAD_REQUEST", 404);
      if (access !== "allowed") throw new ApiError("You are not authorized to view this file.", "BAD_REQUEST", 403);
      const name = pathId.split("/").pop() ?? "";
      return { url: `/user_uploads/temporary/${ctx.urls.sign(pathId, ctx.clock.now())}/${encodeURIComponent(name)}` };
    },
  }),
  endpoint({
    method: "GET",
    path: "/attachments",
    params: {},
    async handler({ ctx, user }) {
      const attachments = await attachmentDicts(ctx.db, await attachmentsOfOwner(ctx.db, user.id));
      return { attachments, upload_space_used: await realmUploadSpaceUsed(ctx.db, user.realm_id) };
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/attachments/:attachment_id",
    params: {},
    async handler({ ctx, user, path }) {
      await checkRemoveAttachment(ctx, user, pathInt(path.attachment_id));
      return {};
    },
  }),
];

/**
 * The files themselves, outside /api/v1 as Zulip serves them: /user_uploads/{realm}/{path}
 * for a caller authenticated by HTTP Basic, an `api_key` parameter or the web app's session
 * cookie (the links in rendered messages work in the browser as they are), its thumbnails under
 * /user_uploads/thumbnail/, and credential-free temporary URLs (about a minute).
 */
export function registerFileRoutes(http: FastifyInstance, ctx: AppContext): void {
  http.get(
    // A wildcard, not two parameters: tokens are longer than the router's parameter limit.
    "/user_uploads/temporary/*",
    async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
      const [token, filename, ...rest] = ((request.params as Record<string, string | undefined>)["*"] ?? "").split("/");
      if (rest.length > 0) return sendFileError(reply, 404);
      const pathId = ctx.urls.verify(token ?? "", ctx.clock.now());
      if (pathId === undefined) throw badRequest("Invalid token");
      if (pathId.split("/").pop() !== filename) throw badRequest("Invalid filename");
      await serveOriginal(ctx, request, reply, pathId);
      return reply;
    },
  );
  http.get(
    "/user_uploads/thumbnail/*",
    async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
      const user = await caller(ctx, request);
      const rest = (request.params as Record<string, string | undefined>)["*"] ?? "";
      const cut = rest.lastIndexOf("/");
      const pathId = rest.slice(0, cut);
      const format = parseFormatName(rest.slice(cut + 1));
      if (!format || !isPathId(pathId)) return sendFileError(reply, 404);
      const access = user ? (await fileAccess(ctx.db, user, pathId)).access : await anonymousAccess(ctx, pathId);
      if (access !== "allowed") return sendFileError(reply, access === "missing" ? 404 : 403);
      const [image] = await imageAttachmentsByPaths(ctx.db, Number(pathId.split("/")[0]), [pathId]);
      const made = image ? storedThumbnails(image) : [];
      // An unknown format gets the closest one made, preferring the same kind (still or animated).
      const closest = [...made].sort((a, b) => distance(a) - distance(b))[0];
      function distance(t: (typeof made)[number]): number {
        return (t.animated === format?.animated ? 0 : 1e9) + Math.abs(t.max_width - (format?.maxWidth ?? 0)) + (t.extension === format?.extension ? 0 : 1);
      }
      if (!closest) return sendFileError(reply, 404);
      const name = formatName({ maxWidth: closest.max_width, maxHeight: closest.max_height, animated: closest.animated, extension: closest.extension });
      await sendStoredFile(request, reply, ctx.files, { key: `thumbnail/${pathId}/${name}`, contentType: closest.content_type, inline: true, filename: name });
      return reply;
    },
  );
  // Images of other sites as message previews show them, fetched by the image proxy.
  http.get("/thumbnail", async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const user = await caller(ctx, request);
    const query = (request.query ?? {}) as Record<string, unknown>;
    const url = query.url;
    const size = query.size;
    if (typeof url !== "string") throw missingArgument("url");
    if (typeof size !== "string") throw missingArgument("size");
    if (size !== "thumbnail" && size !== "full") throw badRequest("Invalid size.");
    if (!(await mayShowImage(ctx.db, user, url))) return sendFileError(reply, 403);
    let file: string;
    try {
      file = await ctx.imageProxy.rendition(url, size);
    } catch (error) {
      if (error instanceof ImageProxyError) throw new ApiError(error.message, "BAD_REQUEST", error.status);
      throw error;
    }
    const stat = await fs.promises.stat(file).catch(() => undefined);
    // Evicted between being made and being read: the next request makes it again.
    if (!stat) return sendFileError(reply, 404);
    reply
      .header("Content-Type", "image/webp")
      .header("Content-Length", String(stat.size))
      .header("Cache-Control", "private, max-age=86400")
      .header("X-Content-Type-Options", "nosniff")
      .header("Content-Security-Policy", "default-src 'none'; sandbox")
      .send(fs.createReadStream(file));
    return reply;
  });
  // /user_uploads/download/… offers the same file as a download, whatever its type.
  for (const [url, download] of [["/user_uploads/download/:realm_id/*", true], ["/user_uploads/:realm_id/*", false]] as const) {
    http.get(url, async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
      const user = await caller(ctx, request);
      const params = request.params as Record<string, string | undefined>;
      const pathId = `${params.realm_id ?? ""}/${params["*"] ?? ""}`;
      const access = isPathId(pathId) ? (user ? (await fileAccess(ctx.db, user, pathId)).access : await anonymousAccess(ctx, pathId)) : "missing";
      if (access !== "allowed") return sendFileError(reply, access === "missing" ? 404 : 403);
      await serveOriginal(ctx, request, reply, pathId, download);
      return reply;
    });
  }
}

/** The caller of a file download: HTTP Basic, else `api_key`, else the web app's session cookie, else nobody. */
async function caller(ctx: AppContext, request: FastifyRequest): Promise<UserRow | undefined> {
  if (request.headers.authorization !== undefined) return authenticate(ctx, request.headers.authorization);
  const apiKey = (request.query as Record<string, unknown> | undefined)?.api_key;
  if (typeof apiKey === "string") return authenticateApiKeyParam(ctx, apiKey);
  const session = await findSession(ctx, request);
  return session && sessionUser(ctx, request, session);
}

/**
 * Without credentials, only files a web-public channel's message links (Zulip's spectator
 * access), each at most 1000 times a day (its spectator_attachment_access_by_file limit).
 */
async function anonymousAccess(ctx: AppContext, pathId: string): Promise<FileAccess> {
  const access = await spectatorFileAccess(ctx.db, await defaultRealm(ctx.db), pathId);
  if (access !== "allowed") return access;
  return (await ctx.limits.spectatorFiles.hit(pathId, ctx.clock.now())) > 0 ? "forbidden" : "allowed";
}

async function serveOriginal(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, pathId: string, download = false): Promise<void> {
  const attachment = await attachmentByPath(ctx.db, pathId);
  if (!attachment) {
    sendFileError(reply, 404);
    return;
  }
  const [image] = await imageAttachmentsByPaths(ctx.db, attachment.realm_id, [pathId]);
  const inline = !download && image !== undefined && INLINE_IMAGE_TYPES.has(attachment.content_type);
  await sendStoredFile(request, reply, ctx.files, { key: pathId, contentType: attachment.content_type, inline, filename: pathId.split("/").pop() ?? "" });
}
