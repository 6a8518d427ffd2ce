import { timingSafeEqual } from "node:crypto";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../context.js";
import type { RealmRow } from "../db/queries/realms.js";
import type { SessionRow } from "../db/queries/sessions.js";
import type { UserRow } from "../db/queries/users.js";
import type { MaybePromise } from "../base/maybe-promise.js";
import { sessionDigest } from "../caches/sessions.js";
import { checkActive } from "./auth.js";
import { ApiError, csrfFailed, sessionRequired } from "../base/errors.js";

/** The name of the browser session cookie. */
export const SESSION_COOKIE = "rookery_session";

/** A request's valid session: its row, the digest it is stored under, and the cookie itself. */
export interface FoundSession {
  row: SessionRow;
  digest: string;
  cookie: string;
}

/** The request's session when its cookie names one that has not expired; at once when cached. */
export function findSession(ctx: AppContext, request: FastifyRequest): MaybePromise<FoundSession | undefined> {
  const cookie = cookieValue(request.headers.cookie, SESSION_COOKIE);
  // A cookie of ours is 43 base64url characters; anything else cannot name a session.
  if (cookie === undefined || !/^[A-Za-z0-9_-]{43}$/.test(cookie)) return undefined;
  const digest = sessionDigest(cookie);
  const row = ctx.sessions.get(digest);
  const valid = (found: SessionRow | undefined) => (found && found.expires_at > ctx.clock.now() ? { row: found, digest, cookie } : undefined);
  return row instanceof Promise ? row.then(valid) : valid(row);
}

/**
 * Authenticates a /json call by the session `findSession` found (without one, the caller answers
 * 401 asking for session authentication), as Zulip's authenticated_json_view behind csrf_protect:
 * a call that changes something (not GET or HEAD) must pass the CSRF check; then the account and
 * its organisation must be active.
 */
export function sessionUser(ctx: AppContext, request: FastifyRequest, found: FoundSession): MaybePromise<UserRow> {
  // A request another process of the cluster forwarded was checked there.
  if (!SAFE_METHODS.has(request.method) && !ctx.cluster?.isForwarded(request)) checkCsrf(ctx, request, found.row, false);
  request.sessionDigest = found.digest;
  const user = ctx.users.cached(found.row.user_id);
  const withRealm = (row: UserRow | undefined): MaybePromise<UserRow> => {
    if (!row) throw sessionRequired();
    const realm = ctx.realms.get(row.realm_id);
    return realm instanceof Promise ? realm.then((r) => activeForSession(row, r)) : activeForSession(row, realm);
  };
  return user instanceof Promise ? user.then(withRealm) : withRealm(user);
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** checkActive's refusals, asking for a session rather than Basic credentials (no password box in a browser). */
function activeForSession(user: UserRow, realm: RealmRow | undefined): UserRow {
  try {
    return checkActive(user, realm);
  } catch (error) {
    if (error instanceof ApiError) throw new ApiError(error.msg, error.code, error.status, error.data, { "WWW-Authenticate": 'Session realm="zulip"' });
    throw error;
  }
}

/**
 * Django's CSRF check for a session's request: an Origin header must be this server's; then the
 * token (the `X-CSRFToken` header, or with `formField` the `csrfmiddlewaretoken` field of a form
 * post) must be the session's. Throws 403 CSRF_FAILED with Django's reason.
 */
export function checkCsrf(ctx: AppContext, request: FastifyRequest, session: SessionRow, formField: boolean): void {
  const origin = request.headers.origin;
  if (origin !== undefined && !isOwnOrigin(ctx, request, origin)) throw csrfFailed(`Origin checking failed - ${origin} does not match any trusted origins.`);
  const posted = formField ? bodyField(request.body, "csrfmiddlewaretoken") : undefined;
  const header = request.headers["x-csrftoken"];
  const token = posted || (typeof header === "string" ? header : undefined);
  if (!token) throw csrfFailed("CSRF token missing.");
  const source = posted ? "POST" : "the 'X-Csrftoken' HTTP header";
  if (token.length !== 32 && token.length !== 64) throw csrfFailed(`CSRF token from ${source} has incorrect length.`);
  if (/[^a-zA-Z0-9]/.test(token)) throw csrfFailed(`CSRF token from ${source} has invalid characters.`);
  const expected = Buffer.from(session.csrf_token);
  const given = Buffer.from(token);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw csrfFailed(`CSRF token from ${source} incorrect.`);
}

/** Whether `origin` is this server's: its external URL's, or the one the request was addressed to. */
export function isOwnOrigin(ctx: AppContext, request: FastifyRequest, origin: string): boolean {
  if (origin === new URL(ctx.config.externalUrl).origin) return true;
  const host = request.headers.host;
  return host !== undefined && origin === `${request.protocol}://${host}`;
}

/** Gives the browser its session cookie: HttpOnly, SameSite=Lax, Path=/, Secure when served over https. */
export function setSessionCookie(ctx: AppContext, reply: FastifyReply, cookie: string, expiresAt: number): void {
  const maxAge = Math.max(0, Math.floor((expiresAt - ctx.clock.now()) / 1000));
  reply.header("Set-Cookie", `${SESSION_COOKIE}=${cookie}; ${cookieFlags(ctx)}; Max-Age=${maxAge}`);
}

/** Tells the browser to drop its session cookie. */
export function clearSessionCookie(ctx: AppContext, reply: FastifyReply): void {
  reply.header("Set-Cookie", `${SESSION_COOKIE}=; ${cookieFlags(ctx)}; Max-Age=0`);
}

function cookieFlags(ctx: AppContext): string {
  const secure = ctx.config.externalUrl.startsWith("https:") ? "; Secure" : "";
  return `Path=/; HttpOnly; SameSite=Lax${secure}`;
}

/** A cookie's value from a Cookie header (the first of that name), or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq >= 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** A text field of a parsed form body. */
export function bodyField(body: unknown, name: string): string | undefined {
  if (typeof body !== "object" || body === null || !Object.hasOwn(body, name)) return undefined;
  const value = (body as Record<string, unknown>)[name];
  return typeof value === "string" ? value : undefined;
}
