import type { AppContext } from "../context.js";
import { alertWordsOfRealm } from "../db/queries/alert-words.js";

/**
 * Alert words: which recipients of a message get the has_alert_word flag. Zulip matches a word
 * case-insensitively where it stands between these characters (or the start/end of the text).
 */
const ALLOWED_BEFORE = new Set([" ", "\n", "(", '"', ".", ",", "'", ";", "[", "*", "`", ">"]);
const ALLOWED_AFTER = new Set([" ", "\n", ")", '"', "?", ":", ".", ",", "'", ";", "]", "!", "*", "`"]);

/** Whether `content` contains any of `words` as Zulip's alert-word matcher sees it. */
export function alertWordsMatch(content: string, words: readonly string[]): boolean {
  const text = content.toLowerCase();
  for (const raw of words) {
    const word = raw.toLowerCase();
    if (word.length === 0) continue;
    let at = text.indexOf(word);
    while (at !== -1) {
      const before = at === 0 ? undefined : text[at - 1];
      const after = text[at + word.length];
      if ((before === undefined || ALLOWED_BEFORE.has(before)) && (after === undefined || ALLOWED_AFTER.has(after))) return true;
      at = text.indexOf(word, at + 1);
    }
  }
  return false;
}

/** Each realm's alert words by user, loaded once and dropped by the actions that change them. */
export class AlertWordCache {
  private readonly realms = new Map<number, Promise<Map<number, string[]>>>();

  constructor(private readonly ctx: AppContext) {}

  /** The alert words of every user of a realm who has any. */
  byUser(realmId: number): Promise<Map<number, string[]>> {
    let loading = this.realms.get(realmId);
    if (!loading) {
      loading = alertWordsOfRealm(this.ctx.db, realmId).then((rows) => {
        const map = new Map<number, string[]>();
        for (const r of rows) map.set(r.user_id, [...(map.get(r.user_id) ?? []), r.word]);
        return map;
      });
      this.realms.set(realmId, loading);
      loading.catch(() => this.realms.delete(realmId));
    }
    return loading;
  }

  /** Drops a realm after its words changed. */
  forget(realmId: number): void {
    this.realms.delete(realmId);
  }

  /** Drops every realm (changes were missed). */
  forgetAll(): void {
    this.realms.clear();
  }
}

const caches = new WeakMap<AppContext, AlertWordCache>();

/** The alert-word cache of a context. */
export function alertWordCacheOf(ctx: AppContext): AlertWordCache {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new AlertWordCache(ctx);
    caches.set(ctx, cache);
  }
  return cache;
}
