import { createHash } from "node:crypto";
import type { Db } from "../db/index.js";
import { sessionById, type SessionRow } from "../db/queries/sessions.js";
import type { MaybePromise } from "../base/maybe-promise.js";

/** The most sessions one process keeps in memory; past it the least recently used are dropped. */
const MAX_CACHED = 50_000;

/** The digest a session is stored and cached under: its cookie is never kept. */
export function sessionDigest(cookie: string): string {
  return createHash("sha256").update(cookie).digest("hex");
}

/**
 * Browser sessions by cookie digest, kept in memory for the hot path (every /json call looks one
 * up). Misses read the database, so a session made by another process is found; unknown cookies
 * are never cached, so a new session is never hidden. Ending sessions is exact: the action
 * deletes the rows and, after its commit, every process drops the user's entries (a
 * "sessions" cache change) before the action returns; a read that started before such a drop
 * is not kept.
 */
export class SessionCache {
  private readonly byDigest = new Map<string, SessionRow>();
  /** Counts the drops, so a row read while one happened is not kept. */
  private generation = 0;

  constructor(private readonly db: Db) {}

  /** The session with this digest, or undefined; at once when cached. Expiry is the caller's check. */
  get(digest: string): MaybePromise<SessionRow | undefined> {
    const cached = this.byDigest.get(digest);
    if (cached) return cached;
    const generation = this.generation;
    return sessionById(this.db, digest).then((row) => {
      if (row && generation === this.generation) this.keep(row);
      return row;
    });
  }

  /** Drops a user's sessions after they were ended or changed. */
  forgetUser(userId: number): void {
    this.generation++;
    for (const [digest, row] of this.byDigest) if (row.user_id === userId) this.byDigest.delete(digest);
  }

  /** Drops everything (changes were missed). */
  forgetAll(): void {
    this.generation++;
    this.byDigest.clear();
  }

  private keep(row: SessionRow): void {
    if (this.byDigest.size >= MAX_CACHED) {
      const oldest = this.byDigest.keys().next().value;
      if (oldest !== undefined) this.byDigest.delete(oldest);
    }
    this.byDigest.set(row.id, row);
  }
}
