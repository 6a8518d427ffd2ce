import { timingSafeEqual } from "node:crypto";
import type { AppContext } from "../context.js";
import type { RealmRow } from "../db/queries/realms.js";
import type { UserRow } from "../db/queries/users.js";
import type { MaybePromise } from "../base/maybe-promise.js";
import { remembered } from "../base/remembered.js";
import { ApiError, unauthorized } from "../base/errors.js";

const API_KEY_FORMAT = /^[A-Za-z0-9]{32}$/;
const INVALID_HEADER = "Invalid authorization header for basic auth";

interface Credentials {
  email: string;
  apiKey: string;
  keyBytes: Buffer;
}

/**
 * Authenticates an /api/v1 request from its Authorization header (HTTP Basic, email + API key),
 * with Zulip's checks in Zulip's order. Every failure after the header is parsed is a 401. When
 * the user and the realm are cached (nearly always) the answer comes at once, not as a promise.
 */
export function authenticate(ctx: AppContext, header: string | undefined): MaybePromise<UserRow> {
  if (header === undefined) throw unauthorized();
  const credentials = basicCredentials(header);
  const user = ctx.users.byApiKey(credentials.apiKey);
  if (user instanceof Promise) return user.then((found) => withRealm(ctx, credentials, found));
  return withRealm(ctx, credentials, user);
}

/**
 * Authenticates a file download by an `api_key` query parameter alone, as Zulip's
 * authenticated_uploads_api_view does (for clients that cannot send headers with a download).
 */
export async function authenticateApiKeyParam(ctx: AppContext, apiKey: string): Promise<UserRow> {
  if (!API_KEY_FORMAT.test(apiKey)) throw unauthorized("Malformed API key");
  const user = await ctx.users.byApiKey(apiKey);
  if (!user || !timingSafeEqual(keyBytes(user.api_key), Buffer.from(apiKey))) throw unauthorized("Invalid API key");
  return checkActive(user, await ctx.realms.get(user.realm_id));
}

function withRealm(ctx: AppContext, credentials: Credentials, user: UserRow | undefined): MaybePromise<UserRow> {
  if (!user || !timingSafeEqual(keyBytes(user.api_key), credentials.keyBytes) || user.delivery_email.toLowerCase() !== credentials.email.toLowerCase()) {
    throw unauthorized("Invalid API key");
  }
  const realm = ctx.realms.get(user.realm_id);
  if (realm instanceof Promise) return realm.then((found) => checkActive(user, found));
  return checkActive(user, realm);
}

/** Refuses a caller whose organisation or account is deactivated (401, Zulip's messages). */
export function checkActive(user: UserRow, realm: RealmRow | undefined): UserRow {
  if (!realm || realm.deactivated) throw unauthorized("This organization has been deactivated");
  if (!user.is_active) throw unauthorized("Account is deactivated");
  return user;
}

/** Email and API key from a Basic header; a client sends the same header with every request. */
const basicCredentials = remembered((header: string): Credentials => {
  const parts = header.trim().split(/\s+/);
  if (parts.length !== 2) throw unauthorized(INVALID_HEADER);
  const [scheme, encoded] = parts as [string, string];
  if (scheme.toLowerCase() !== "basic") throw new ApiError("This endpoint requires HTTP basic authentication.");
  const decoded = Buffer.from(encoded, "base64").toString("utf8");
  const pieces = decoded.split(":");
  if (pieces.length !== 2 || !/^[A-Za-z0-9+/=_-]+$/.test(encoded)) throw unauthorized(INVALID_HEADER);
  const email = pieces[0]!.trim();
  const apiKey = pieces[1]!.trim();
  if (!API_KEY_FORMAT.test(apiKey)) throw unauthorized("Malformed API key");
  return { email, apiKey, keyBytes: Buffer.from(apiKey) };
}, 1_000);

/** A stored key's bytes, for the timing-safe comparison (both sides are 32 ASCII characters). */
const keyBytes = remembered((apiKey: string) => Buffer.from(apiKey));
