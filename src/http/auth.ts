import { timingSafeEqual } from "node:crypto";
import type { AppContext } from "../context.js";
import type { UserRow } from "../db/queries/users.js";
import { remembered } from "../lib/remembered.js";
import { ApiError, unauthorized } from "./errors.js";

const API_KEY_FORMAT = /^[A-Za-z0-9]{32}$/;
const INVALID_HEADER = "Invalid authorization header for basic auth";

/**
 * Authenticates an /api/v1 request from its Authorization header (HTTP Basic, email + API key),
 * with Zulip's checks in Zulip's order. Every failure after the header is parsed is a 401.
 */
export async function authenticate(ctx: AppContext, header: string | undefined): Promise<UserRow> {
  if (header === undefined) throw unauthorized();
  const { email, apiKey } = basicCredentials(header);
  const user = await ctx.users.byApiKey(apiKey);
  if (!user || !sameKey(user.api_key, apiKey) || user.delivery_email.toLowerCase() !== email.toLowerCase()) {
    throw unauthorized("Invalid API key");
  }
  const realm = await ctx.realms.get(user.realm_id);
  if (!realm || realm.deactivated) throw unauthorized("This organization has been deactivated");
  if (!user.is_active) throw unauthorized("Account is deactivated");
  return user;
}

/** Email and API key from a Basic header; a client sends the same header with every request. */
const basicCredentials = remembered((header: string): { email: string; apiKey: string } => {
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
  return { email, apiKey };
}, 1_000);

function sameKey(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
