import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyReply, FastifyRequest } from "fastify";
import { ApiError } from "../base/errors.js";

/**
 * Answers for requests that fail below the endpoints (HTTP parsing, URL decoding, body reading):
 * Zulip's error envelope, never Fastify's own `{"error","message","statusCode"}` body.
 */

/** The largest form body accepted; a multipart field may be as large. */
export const BODY_LIMIT_MIB = 32;

/** Fastify's request errors, by code, as the ApiError the client is told. */
const FASTIFY_ERRORS: Record<string, () => ApiError> = {
  FST_ERR_CTP_BODY_TOO_LARGE: () => new ApiError(`Request body is larger than the allowed limit of ${BODY_LIMIT_MIB} MiB`, "BAD_REQUEST", 413),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: () => new ApiError("Unsupported Content-Type", "BAD_REQUEST", 415),
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: () => new ApiError("Request body size did not match Content-Length"),
  FST_ERR_BAD_URL: () => new ApiError("Malformed URL"),
  FST_ERR_MAX_PARAM_LENGTH: () => new ApiError("URL path segment too long", "BAD_REQUEST", 414),
};

/** A Fastify (or other library) error the client caused, as an ApiError; undefined for a server fault. */
export function requestError(error: unknown): ApiError | undefined {
  const code = typeof error === "object" && error !== null && "code" in error ? String(error.code) : "";
  const known = FASTIFY_ERRORS[code];
  if (known) return known();
  // PostgreSQL's numeric_value_out_of_range: a number from the request beyond its column's
  // 32-bit range, such as an id no row can have (SQLite compares it and finds nothing).
  if (code === "22003") return new ApiError("Invalid ID: out of range");
  // PostgreSQL's character_not_in_repertoire: a NUL character, which its text cannot hold
  // (SQLite stores it and finds nothing); the transaction it was in is rolled back whole.
  if (code === "22021") return new ApiError("Null characters are not allowed");
  const status = typeof error === "object" && error !== null && "statusCode" in error ? Number(error.statusCode) : 500;
  if (status >= 400 && status < 500) return new ApiError(STATUS_CODES[status] ?? "Bad request", "BAD_REQUEST", status);
  return undefined;
}

/** Fastify's `frameworkErrors`: a URL the router cannot decode, or a path segment over the limit. */
export function frameworkErrors(error: Error, request: FastifyRequest, reply: FastifyReply): void {
  const answer = requestError(error) ?? new ApiError("Malformed URL");
  sendProtocolError(request.url, reply, answer);
}

/** The envelope under the API prefixes, plain text elsewhere (as the not-found answer). */
export function sendProtocolError(url: string, reply: FastifyReply, error: ApiError): void {
  reply.code(error.status).headers(error.headers);
  if (isApiUrl(url)) reply.type("application/json").send(JSON.stringify(error.body()) + "\n");
  else reply.type("text/plain").send(`${error.msg}\n`);
}

/** True for the paths that answer in Zulip's JSON envelope. */
export function isApiUrl(url: string): boolean {
  return url.startsWith("/api/v1") || url.startsWith("/json/");
}

/**
 * Node's `clientError`: a request that could not be parsed (headers or URL over 16 KB, bad
 * syntax, timeout). There is no request to read a path from, so the answer is always the
 * envelope; the socket is closed after it, and the answer says so.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const [status, msg] =
    error.code === "HPE_HEADER_OVERFLOW"
      ? [431, "Request headers are larger than the allowed limit of 16 KiB"]
      : error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "Request timed out"]
        : [400, "Malformed HTTP request"];
  const body = JSON.stringify(new ApiError(msg, "BAD_REQUEST", status).body()) + "\n";
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ""}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`;
  socket.end(head + body, () => socket.destroy());
  // A client that never reads the answer does not hold the socket open.
  socket.setTimeout(5_000, () => socket.destroy());
}
