import type { FastifyRequest } from "fastify";
import type { MultipartFile } from "@fastify/multipart";

/** A file sent in a multipart body, read into memory. */
export interface UploadedFile {
  kind: "file";
  field: string;
  filename: string;
  mimetype: string;
  data: Buffer;
}

/**
 * Multipart's onFile hook: keeps each file as an UploadedFile in the body, where parameter
 * parsing (which reads only strings) does not see it, as Zulip keeps files out of request.POST.
 */
export async function keepUploadedFile(part: MultipartFile & { value?: unknown }): Promise<void> {
  const data = await part.toBuffer();
  part.value = { kind: "file", field: part.fieldname, filename: part.filename, mimetype: part.mimetype, data } satisfies UploadedFile;
}

/** The files of a multipart request, in the order sent. */
export function uploadedFiles(request: FastifyRequest): UploadedFile[] {
  const body: unknown = request.body;
  if (typeof body !== "object" || body === null) return [];
  return Object.values(body).flatMap((value: unknown) => (Array.isArray(value) ? value : [value])).filter(isUploadedFile);
}

function isUploadedFile(value: unknown): value is UploadedFile {
  return typeof value === "object" && value !== null && (value as { kind?: unknown }).kind === "file" && Buffer.isBuffer((value as { data?: unknown }).data);
}
