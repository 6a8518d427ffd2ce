import type { Logger } from "pino";
import type { Db, Store } from "../db/index.js";
import type { Cluster } from "../cluster/cluster.js";
import type { EventBus } from "../events/bus.js";
import type { PresenceEntry } from "../events/changes.js";
import { presenceRowsOfRealm, upsertPresenceRows, type PresenceRow } from "../db/queries/presence.js";
import type { UserRow } from "../db/queries/users.js";

/**
 * Presence, kept in memory with write-behind: every client pings every minute, so a ping must not
 * cost a SQL write. Changed rows are written in one transaction a moment later (and by `flush`).
 * Times are milliseconds; the wire carries whole seconds.
 */

/** A user whose latest time is older than this is offline (Zulip's OFFLINE_THRESHOLD_SECS). */
export const OFFLINE_THRESHOLD_SECS = 200;
/** How often clients ping (PRESENCE_PING_INTERVAL_SECS). */
export const PRESENCE_PING_INTERVAL_SECS = 60;
/** Stored times move only when at least this much newer (PRESENCE_UPDATE_MIN_FREQ_SECONDS). */
export const PRESENCE_UPDATE_MIN_FREQ_SECONDS = 55;
/** Legacy status is active when the last activity is within this of the last connection. */
export const LEGACY_ACTIVITY_OFFSET_SECS = 70;
/** Realms with more active users get no presence events (unless forced). */
export const USER_LIMIT_FOR_SENDING_PRESENCE_UPDATE_EVENTS = 100;
/** Rows whose last connection is older are left out of full (non-incremental) fetches. */
export const PRESENCE_HISTORY_DAYS = 14;
const FLUSH_DELAY_MS = 1000;

class RealmPresence {
  readonly entries = new Map<number, PresenceEntry>();
  /** (updateId, userId) in increasing updateId order; stale pairs are skipped and compacted away. */
  private log: [number, number][] = [];
  lastUpdateId = 0;

  constructor(rows: readonly PresenceRow[]) {
    const sorted = [...rows].sort((a, b) => a.last_update_id - b.last_update_id);
    for (const r of sorted) {
      this.entries.set(r.user_id, {
        userId: r.user_id,
        realmId: r.realm_id,
        lastActive: r.last_active_time,
        lastConnected: r.last_connected_time,
        updateId: r.last_update_id,
      });
      this.log.push([r.last_update_id, r.user_id]);
      this.lastUpdateId = Math.max(this.lastUpdateId, r.last_update_id);
    }
  }

  /** Gives an entry the realm's next update id. */
  bump(entry: PresenceEntry): void {
    entry.updateId = ++this.lastUpdateId;
    this.entries.set(entry.userId, entry);
    this.log.push([entry.updateId, entry.userId]);
    if (this.log.length > 2 * this.entries.size + 64) {
      this.log = this.log.filter(([id, user]) => this.entries.get(user)?.updateId === id);
    }
  }

  /**
   * Takes an entry whose update id was given elsewhere (cluster mode: by another process, or by
   * the shared counter), keeping the log in update-id order; an older change of the user is ignored.
   */
  apply(entry: PresenceEntry): void {
    const existing = this.entries.get(entry.userId);
    if (existing && existing.updateId >= entry.updateId) return;
    this.entries.set(entry.userId, entry);
    let at = this.log.length;
    while (at > 0 && (this.log[at - 1] as [number, number])[0] > entry.updateId) at--;
    this.log.splice(at, 0, [entry.updateId, entry.userId]);
    this.lastUpdateId = Math.max(this.lastUpdateId, entry.updateId);
  }

  /** Entries changed after `sinceId`, oldest change first. */
  changedSince(sinceId: number): PresenceEntry[] {
    let lo = 0;
    let hi = this.log.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.log[mid] as [number, number])[0] <= sinceId) lo = mid + 1;
      else hi = mid;
    }
    const out: PresenceEntry[] = [];
    for (let i = lo; i < this.log.length; i++) {
      const [id, user] = this.log[i] as [number, number];
      const entry = this.entries.get(user);
      if (entry && entry.updateId === id) out.push(entry);
    }
    return out;
  }
}

/** What an update did: whether the row changed and whether others must be told. */
export interface PresenceChange {
  entry: PresenceEntry;
  changed: boolean;
  announce: boolean;
}

/** What the presence store uses of the server. */
export interface PresenceServices {
  store: Store;
  db: Db;
  bus: EventBus;
  log: Logger;
  cluster?: Cluster | undefined;
}

/** The presence of every realm served by one context. */
export class PresenceStore {
  private readonly realms = new Map<number, Promise<RealmPresence>>();
  private readonly dirty = new Map<number, PresenceEntry>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly ctx: PresenceServices) {}

  /** A realm's presence, loaded from the database on first use. */
  realm(realmId: number): Promise<RealmPresence> {
    let loading = this.realms.get(realmId);
    if (!loading) {
      loading = presenceRowsOfRealm(this.ctx.db, realmId).then((rows) => new RealmPresence(rows));
      this.realms.set(realmId, loading);
      loading.catch(() => this.realms.delete(realmId));
    }
    return loading;
  }

  /**
   * Records a ping at `now` (Zulip's do_update_user_presence). Stored times move only when at
   * least PRESENCE_UPDATE_MIN_FREQ_SECONDS newer; a change takes the realm's next update id.
   */
  async update(user: UserRow, now: number, active: boolean, force = false): Promise<PresenceChange> {
    const realm = await this.realm(user.realm_id);
    const existing = realm.entries.get(user.id);
    const minGap = PRESENCE_UPDATE_MIN_FREQ_SECONDS * 1000;
    const onlineGap = (OFFLINE_THRESHOLD_SECS - PRESENCE_PING_INTERVAL_SECS - 10) * 1000;
    if (!existing) {
      const entry = { userId: user.id, realmId: user.realm_id, lastActive: active ? now : null, lastConnected: now, updateId: 0 };
      await this.record(realm, entry);
      return { entry, changed: true, announce: true };
    }
    const becameOnline = active && (existing.lastActive === null || now - existing.lastActive > onlineGap);
    const next = { ...existing };
    let changed = false;
    if (next.lastConnected === null || now - next.lastConnected > minGap) {
      next.lastConnected = now;
      changed = true;
    }
    if (active && (next.lastActive === null || now - next.lastActive > minGap)) {
      next.lastActive = now;
      // last_connected_time is never older than last_active_time.
      next.lastConnected = now;
      changed = true;
    }
    if (changed) await this.record(realm, next);
    return { entry: changed ? next : existing, changed, announce: force || becameOnline };
  }

  /** Replaces a user's presence with a single idle connection at `at` (presence_enabled turned off). */
  async replaceWithIdle(user: UserRow, at: number): Promise<PresenceEntry> {
    const realm = await this.realm(user.realm_id);
    const entry = { userId: user.id, realmId: user.realm_id, lastActive: null, lastConnected: at, updateId: 0 };
    await this.record(realm, entry);
    return entry;
  }

  /**
   * A change made by another process of the cluster. The realm is loaded here if it was not (the
   * other process writes its rows a moment later, so the database may not have the change yet);
   * changes apply in stream order once it is, and apply ignores what the rows already have.
   */
  observe(entry: PresenceEntry): void {
    this.realm(entry.realmId).then(
      (realm) => realm.apply(entry),
      () => undefined,
    );
  }

  /**
   * Gives a changed entry the realm's next update id and stores it (written behind). In a cluster
   * the id comes from a counter shared by every process, and the entry goes to the other processes.
   */
  private async record(realm: RealmPresence, entry: PresenceEntry): Promise<void> {
    const cluster = this.ctx.cluster;
    if (!cluster) {
      realm.bump(entry);
      this.markDirty(entry);
      return;
    }
    entry.updateId = await cluster.nextPresenceId(entry.realmId, realm.lastUpdateId);
    realm.apply(entry);
    this.markDirty(entry);
    // Awaited like a commit's: the next request to another process sees the change.
    await this.ctx.bus.publish({ events: [], changes: [{ cache: "presence", entry }] });
  }

  /** Writes every changed row now (and waits for a write already under way). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const rows = [...this.dirty.values()].map(toRow);
    this.dirty.clear();
    const previous = this.flushing;
    this.flushing = previous.then(async () => {
      if (rows.length > 0) await this.ctx.store.write((tx) => upsertPresenceRows(tx, rows));
    });
    await this.flushing;
  }

  private markDirty(entry: PresenceEntry): void {
    this.dirty.set(entry.userId, entry);
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.flush().catch((error: unknown) => this.ctx.log.warn({ err: error }, "presence write-behind failed"));
    }, FLUSH_DELAY_MS);
    this.timer.unref();
  }
}

function toRow(e: PresenceEntry): PresenceRow {
  return { user_id: e.userId, realm_id: e.realmId, last_active_time: e.lastActive, last_connected_time: e.lastConnected, last_update_id: e.updateId };
}
