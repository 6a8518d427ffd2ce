import type { Db } from "../db/index.js";
import { realmById, type RealmRow } from "../db/queries/realms.js";
import type { MaybePromise } from "../base/maybe-promise.js";

/** Realms by id, in memory; actions that change a realm call `forget` after their commit. */
export class RealmCache {
  private readonly byId = new Map<number, RealmRow>();

  constructor(private readonly db: Db) {}

  /** The realm with this id, or undefined; at once when cached. */
  get(id: number): MaybePromise<RealmRow | undefined> {
    return this.byId.get(id) ?? this.load(id);
  }

  private async load(id: number): Promise<RealmRow | undefined> {
    const row = await realmById(this.db, id);
    if (row) this.byId.set(id, row);
    return row;
  }

  /** Drops a realm after a change. */
  forget(id: number): void {
    this.byId.delete(id);
  }

  /** Drops every realm. */
  forgetAll(): void {
    this.byId.clear();
  }
}
