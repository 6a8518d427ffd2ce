import { randomBytes } from "node:crypto";
import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import { deleteExpiredSessions, deleteSession, deleteSessionsOfUser, extendSession, insertSession } from "../db/queries/sessions.js";
import type { UserRow } from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";
import { randomToken } from "../base/secrets.js";
import { sessionDigest } from "../caches/sessions.js";

/** How long a session lasts without a visit (Django's SESSION_COOKIE_AGE, two weeks). */
export const SESSION_LIFETIME_MS = 14 * 86_400_000;

/** A new browser session: the cookie value (given to the browser only) and its CSRF token. */
export interface NewSession {
  cookie: string;
  csrfToken: string;
  expiresAt: number;
}

/** Signs a browser in as `user`. No event: nothing else changes. Expired sessions are swept on the way. */
export async function doCreateSession(ctx: AppContext, user: UserRow): Promise<NewSession> {
  const cookie = randomBytes(32).toString("base64url");
  const csrfToken = randomToken(32);
  const now = ctx.clock.now();
  const expiresAt = now + SESSION_LIFETIME_MS;
  await write(ctx, async (tx) => {
    await deleteExpiredSessions(tx, now);
    await insertSession(tx, { id: sessionDigest(cookie), user_id: user.id, csrf_token: csrfToken, created_at: now, expires_at: expiresAt });
  });
  return { cookie, csrfToken, expiresAt };
}

/** Signs one browser out (POST /accounts/logout/); every process forgets the session before this returns. */
export async function doEndSession(ctx: AppContext, digest: string, userId: number): Promise<void> {
  await write(ctx, async (tx, outbox) => {
    await deleteSession(tx, digest);
    outbox.invalidate({ cache: "sessions", userId });
  });
}

/**
 * Ends every session of a user inside the caller's transaction (password change: all but the
 * browser that made it; deactivation: all). Every process forgets them after the commit.
 */
export async function doEndSessionsOfUser(tx: Db, outbox: Outbox, userId: number, keepDigest?: string): Promise<void> {
  await deleteSessionsOfUser(tx, userId, keepDigest);
  outbox.invalidate({ cache: "sessions", userId });
}

/** Moves a session's expiry to a lifetime from now (the app page does, at most daily per session). */
export async function doExtendSession(ctx: AppContext, digest: string, userId: number): Promise<number> {
  const expiresAt = ctx.clock.now() + SESSION_LIFETIME_MS;
  await write(ctx, async (tx, outbox) => {
    await extendSession(tx, digest, expiresAt);
    outbox.invalidate({ cache: "sessions", userId });
  });
  return expiresAt;
}
