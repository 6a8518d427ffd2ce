import type { FastifyReply, FastifyRequest } from "fastify";
import type { ByteRange, FileStore } from "../uploads/storage.js";

/** How a stored file is offered: shown in the browser, or downloaded. */
export interface FileOffer {
  key: string;
  contentType: string;
  inline: boolean;
  /** The name the download gets (the last part of the URL). */
  filename: string;
}

// Types a browser would run as a page or script: never served as themselves, even as a download.
const ACTIVE_TYPES = /^(?:text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml|text\/javascript|application\/javascript|application\/x-javascript|text\/xsl|multipart\/x-mixed-replace)$/;

/**
 * Streams a stored file with Zulip's headers: Content-Disposition (inline or attachment, RFC
 * 6266 name), private immutable caching, nosniff, and single byte ranges (206 / 416).
 */
export async function sendStoredFile(request: FastifyRequest, reply: FastifyReply, files: FileStore, offer: FileOffer): Promise<void> {
  const size = await files.size(offer.key);
  if (size === undefined) {
    sendFileError(reply, 404);
    return;
  }
  const type = offer.inline || !ACTIVE_TYPES.test(offer.contentType) ? offer.contentType : "application/octet-stream";
  reply
    .header("Content-Type", type)
    .header("Content-Disposition", contentDisposition(offer.inline, offer.filename))
    .header("Cache-Control", "private, immutable")
    .header("X-Content-Type-Options", "nosniff")
    .header("Accept-Ranges", "bytes");
  if (!offer.inline) reply.header("Content-Security-Policy", "default-src 'none'; sandbox");
  const wanted = request.headers.range;
  const range = wanted === undefined ? undefined : parseRange(wanted, size);
  // Nothing here returns the reply: a reply is thenable, and an async function would wait on it.
  if (range === "unsatisfiable") {
    reply.code(416).header("Content-Range", `bytes */${size}`).type("text/plain").send("");
    return;
  }
  const partial = range !== undefined && size > 0;
  const stream = await files.get(offer.key, partial ? range : undefined);
  if (!stream) {
    sendFileError(reply, 404);
    return;
  }
  if (partial) reply.code(206).header("Content-Range", `bytes ${range.start}-${range.end}/${size}`);
  reply.header("Content-Length", String(partial ? range.end - range.start + 1 : size)).send(stream);
}

/** Zulip's HTML answers for a file that is not there (404) or not yours (403). */
export function sendFileError(reply: FastifyReply, status: 403 | 404): FastifyReply {
  const body = status === 404 ? "<p>File not found.</p>" : "<p>You are not authorized to view this file.</p>";
  return reply.code(status).type("text/html; charset=utf-8").send(body);
}

/** Zulip's patch_disposition_header: an ASCII name quoted, any other percent-encoded (RFC 8187). */
export function contentDisposition(inline: boolean, filename: string): string {
  const kind = inline ? "inline" : "attachment";
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(filename)) return `${kind}; filename="${filename.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
  return `${kind}; filename*=utf-8''${encodeURIComponent(filename)}`;
}

/** One `bytes=` range of a file (multiple ranges are answered whole), or "unsatisfiable". */
function parseRange(header: string, size: number): ByteRange | "unsatisfiable" | undefined {
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === "" && m[2] === "")) return undefined;
  let start: number;
  let end: number;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0) return "unsatisfiable";
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
    if (m[2] !== "" && Number(m[2]) < start) return undefined;
  }
  if (start >= size) return "unsatisfiable";
  return { start, end };
}
