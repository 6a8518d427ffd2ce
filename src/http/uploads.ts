import type { FastifyRequest } from "fastify";
import type { Multipart } from "@fastify/multipart";
import { ApiError } from "./errors.js";

/** A file sent in a multipart body, read into memory. */
export interface UploadedFile {
  kind: "file";
  field: string;
  filename: string;
  mimetype: string;
  data: Buffer;
}

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
