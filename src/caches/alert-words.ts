import type { Db } from "../db/index.js";
import { alertWordsOfRealm } from "../db/queries/alert-words.js";

/** Each realm's alert words by user, loaded once and dropped by the actions that change them. */
export class AlertWordCache {
  private readonly realms = new Map<number, Promise<Map<number, string[]>>>();

  constructor(private readonly db: Db) {}

  /** The alert words of every user of a realm who has any. */
  byUser(realmId: number): Promise<Map<number, string[]>> {
    let loading = this.realms.get(realmId);
    if (!loading) {
      loading = alertWordsOfRealm(this.db, realmId).then((rows) => {
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
