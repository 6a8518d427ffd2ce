import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import multipart from "@fastify/multipart";
import type { Multipart } from "@fastify/multipart";
import { ApiError, badRequest } from "../base/errors.js";
import type { IncomingFile, UploadedFile } from "../uploads/incoming.js";

/** The largest file a multipart body may carry (the server_settings' max_file_upload_size_mib). */
export const MAX_FILE_UPLOAD_SIZE_MIB = 25;

/** Limits of a multipart body: each field as large as a whole form body may be, files as above. */
export function multipartLimits(bodyLimit: number): { fileSize: number; fieldSize: number } {
  return { fileSize: MAX_FILE_UPLOAD_SIZE_MIB * 1024 * 1024, fieldSize: bodyLimit };
}

/**
 * Reads a multipart body into `request.body`: text fields as strings (repeated ones as a list),
 * files as UploadedFile, which parameter parsing (it reads only strings) does not see, as Zulip
 * keeps files out of request.POST. Called once the caller is authenticated, so nobody else's
 * upload is read; a malformed body is the client's error.
 */
export async function readMultipart(request: FastifyRequest): Promise<void> {
  const body: Record<string, unknown[]> = {};
  try {
    for await (const part of request.parts()) {
      const value = part.type === "file" ? await uploadedFile(part) : part.value;
      (body[part.fieldname] ??= []).push(value);
    }
  } catch (error) {
    throw multipartError(error);
  }
  request.body = Object.fromEntries(Object.entries(body).map(([name, values]) => [name, values.length === 1 ? values[0] : values]));
}

/** The files of a multipart request, in the order sent. */
export function uploadedFiles(request: FastifyRequest): UploadedFile[] {
  const body: unknown = request.body;
  if (typeof body !== "object" || body === null) return [];
  return Object.values(body).flatMap((value: unknown) => (Array.isArray(value) ? value : [value])).filter(isUploadedFile);
}

async function uploadedFile(part: Extract<Multipart, { type: "file" }>): Promise<UploadedFile> {
  const data = await part.toBuffer();
  return { kind: "file", field: part.fieldname, filename: part.filename, mimetype: part.mimetype, data };
}

/**
 * Busboy's and the plugin's errors (no boundary, truncated body, limits) as 400s. The rest of the
 * body is not read, so the connection is not kept.
 */
function multipartError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
  const msg =
    code === "FST_REQ_FILE_TOO_LARGE"
      ? `Uploaded file is larger than the allowed limit of ${MAX_FILE_UPLOAD_SIZE_MIB} MiB`
      : code === "FST_PARTS_LIMIT" || code === "FST_FILES_LIMIT" || code === "FST_FIELDS_LIMIT"
        ? "Too many parts in the multipart body"
        : "Malformed multipart body";
  return new ApiError(msg, "BAD_REQUEST", 400, {}, { Connection: "close" });
}

function isUploadedFile(value: unknown): value is UploadedFile {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "file" && Buffer.isBuffer((value as { data?: unknown }).data);
}

/** The error @fastify/multipart raises when a file passes the size limit. */
export const FILE_TOO_LARGE = "FST_REQ_FILE_TOO_LARGE";

/**
 * Reads a multipart body that must carry exactly one file, after the caller is authenticated:
 * `take` consumes the first file's stream as it arrives (to storage, never whole in memory);
 * any further file is drained and then `undo` runs on what `take` made before Zulip's error.
 * Fields are ignored. `maxBytes` bounds the file (the stream fails past it).
 */
export async function receiveSingleFile<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  maxBytes: number,
  take: (file: IncomingFile) => Promise<T>,
  undo: (taken: T) => Promise<void>,
): Promise<T> {
  if (!request.isMultipart()) throw badRequest("You must specify a file to upload");
  let taken: { value: T } | undefined;
  let extra = false;
  try {
    for await (const part of request.parts({ limits: { fileSize: maxBytes, fieldSize: 1024 * 1024 } })) {
      if (part.type !== "file") continue;
      if (taken || extra) {
        extra = true;
        part.file.resume();
        continue;
      }
      taken = { value: await take({ filename: part.filename, mimetype: part.mimetype, stream: part.file }) };
      if (part.file.truncated) throw Object.assign(new Error("file too large"), { code: FILE_TOO_LARGE });
    }
  } catch (error) {
    // The rest of the body is dropped, and the connection closes after the answer: it is never
    // left waiting on a body nobody reads.
    reply.header("Connection", "close");
    request.raw.unpipe();
    request.raw.resume();
    if (taken) await undo(taken.value);
    if (typeof error === "object" && error !== null && (error as { code?: unknown }).code === FILE_TOO_LARGE) {
      throw badRequest(`Uploaded file is larger than the allowed limit of ${maxBytes / (1024 * 1024)} MiB`);
    }
    // Storage failing (a system call's error) is the server's fault; the body's parser failing is the client's.
    if (typeof error === "object" && error !== null && "syscall" in error) throw error;
    throw multipartError(error);
  }
  // Whatever followed the last part (the closing boundary may arrive after the parser finished)
  // is read and dropped: a request left unread keeps its connection busy for good.
  request.raw.resume();
  if (!taken) throw badRequest("You must specify a file to upload");
  if (extra) {
    await undo(taken.value);
    throw badRequest("You may only upload one file at a time");
  }
  return taken.value;
}

/**
 * A context whose routes read their multipart body themselves (request.parts()): nothing is
 * parsed before the handler, so a caller is authenticated before a byte of a file is read. Any
 * other body is drained unread.
 */
export async function streamingBodies(http: FastifyInstance): Promise<{ instance: FastifyInstance }> {
  let child: FastifyInstance | undefined;
  await http.register(async (instance) => {
    instance.removeAllContentTypeParsers();
    await instance.register(multipart);
    instance.addContentTypeParser("*", (_request, payload, done) => {
      payload.on("error", (error) => done(error, undefined));
      payload.on("end", () => done(null, {}));
      payload.resume();
    });
    child = instance;
  });
  if (!child) throw new Error("the streaming context did not load");
  // Wrapped: an instance is thenable, and a promise would adopt it instead of returning it.
  return { instance: child };
}
