import type { Logger } from "pino";
import type { Db, Store } from "../db/index.js";
import type { Cluster } from "../cluster/cluster.js";
import type { EventBus } from "../events/bus.js";
import type { PresenceEntry } from "../events/changes.js";
import type { QueuedEvent } from "../events/types.js";
import { presenceRowsOfRealm, upsertPresenceRows, type PresenceRow } from "../db/queries/presence.js";
import type { UserRow } from "../db/queries/users.js";

/**
 * Presence, kept in memory with write-behind: every client pings every minute, so a ping must not
 * cost a SQL write. Changed rows are written in one transaction a moment later (and by `flush`).
 * Times are milliseconds; the wire carries whole seconds.
 *
 * In cluster mode Redis holds every realm's presence (`cluster/presence.ts`), and each process a
 * copy it brings up to date from Redis before it answers from it (one read of what changed since,
 * shared by the requests waiting meanwhile). A ping goes to Redis only when it may change something.
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

/** Log positions per cached block of answer text. */
const BLOCK = 64;

/** A block's answer text (its live entries' pieces, joined) and the highest update id among them. */
interface TextBlock {
  text: string;
  maxId: number;
}

/**
 * One entry's piece of an answer: its text, null to leave it out, or undefined when that cannot
 * be told at once (its user is not in the cache).
 */
export type EntryPiece = (entry: PresenceEntry) => string | null | undefined;

export class RealmPresence {
  readonly entries = new Map<number, PresenceEntry>();
  /** (updateId, userId) in increasing updateId order; stale pairs are skipped and compacted away. */
  private log: [number, number][] = [];
  /** Each user's position in the log. */
  private readonly positions = new Map<number, number>();
  /**
   * Answer text of whole blocks of the log, per format: under churn each answer lists most of the
   * realm, and a block is read by every ping until one of its users changes again.
   */
  private readonly blocks = new Map<string, Map<number, TextBlock>>();
  /** The version of the pieces the blocks were made with (the user cache's). */
  private blocksVersion = -1;
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
      this.positions.set(r.user_id, this.log.length);
      this.log.push([r.last_update_id, r.user_id]);
      this.lastUpdateId = Math.max(this.lastUpdateId, r.last_update_id);
    }
  }

  /** Gives an entry the realm's next update id. */
  bump(entry: PresenceEntry): void {
    entry.updateId = ++this.lastUpdateId;
    this.replaced(entry.userId);
    this.entries.set(entry.userId, entry);
    this.positions.set(entry.userId, this.log.length);
    this.log.push([entry.updateId, entry.userId]);
    this.compact();
  }

  /**
   * Takes an entry whose update id was given elsewhere (cluster mode: by another process, or by
   * the shared counter), keeping the log in update-id order; an older change of the user is ignored.
   */
  apply(entry: PresenceEntry): void {
    const existing = this.entries.get(entry.userId);
    if (existing && existing.updateId >= entry.updateId) return;
    this.replaced(entry.userId);
    this.entries.set(entry.userId, entry);
    let at = this.log.length;
    while (at > 0 && (this.log[at - 1] as [number, number])[0] > entry.updateId) at--;
    if (at === this.log.length) {
      this.positions.set(entry.userId, at);
      this.log.push([entry.updateId, entry.userId]);
    } else {
      this.log.splice(at, 0, [entry.updateId, entry.userId]);
      this.reindex();
    }
    this.lastUpdateId = Math.max(this.lastUpdateId, entry.updateId);
    this.compact();
  }

  /** Forgets everything (Redis lost the realm's ids: it is read again from the start). */
  clear(): void {
    this.entries.clear();
    this.log = [];
    this.reindex();
    this.lastUpdateId = 0;
  }

  /**
   * The answer text of the entries changed after `sinceId` (their pieces joined with commas,
   * oldest change first) and the highest update id among them (-1: none); undefined when a piece
   * could not be told at once. Whole blocks are made once per `version` of the pieces.
   */
  textSince(sinceId: number, format: string, version: number, piece: EntryPiece): { text: string; maxId: number } | undefined {
    if (version !== this.blocksVersion) {
      this.blocks.clear();
      this.blocksVersion = version;
    }
    let cache = this.blocks.get(format);
    if (!cache) {
      cache = new Map();
      this.blocks.set(format, cache);
    }
    const end = this.log.length;
    const wholeEnd = end - (end % BLOCK);
    const parts: string[] = [];
    let maxId = -1;
    let i = this.firstAfter(sinceId);
    while (i < end) {
      if (i % BLOCK === 0 && i + BLOCK <= wholeEnd) {
        const k = i / BLOCK;
        let block = cache.get(k);
        if (!block) {
          block = this.makeText(i, i + BLOCK, piece);
          if (!block) return undefined;
          cache.set(k, block);
        }
        if (block.text !== "") parts.push(block.text);
        maxId = Math.max(maxId, block.maxId);
        i += BLOCK;
        continue;
      }
      const upTo = Math.min(end, i + BLOCK - (i % BLOCK));
      const some = this.makeText(i, upTo, piece);
      if (!some) return undefined;
      if (some.text !== "") parts.push(some.text);
      maxId = Math.max(maxId, some.maxId);
      i = upTo;
    }
    return { text: parts.join(","), maxId };
  }

  private makeText(from: number, to: number, piece: EntryPiece): TextBlock | undefined {
    const parts: string[] = [];
    let maxId = -1;
    for (let i = from; i < to; i++) {
      const [id, user] = this.log[i] as [number, number];
      const entry = this.entries.get(user);
      if (!entry || entry.updateId !== id) continue;
      const text = piece(entry);
      if (text === undefined) return undefined;
      if (text === null) continue;
      parts.push(text);
      maxId = Math.max(maxId, id);
    }
    return { text: parts.join(","), maxId };
  }

  /** The first log position whose update id is above `sinceId`. */
  private firstAfter(sinceId: number): number {
    let lo = 0;
    let hi = this.log.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((this.log[mid] as [number, number])[0] <= sinceId) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** A user's earlier change is no longer live: the block holding it must be made again. */
  private replaced(userId: number): void {
    const at = this.positions.get(userId);
    if (at === undefined) return;
    const k = Math.floor(at / BLOCK);
    for (const cache of this.blocks.values()) cache.delete(k);
  }

  private compact(): void {
    if (this.log.length <= 2 * this.entries.size + 64) return;
    this.log = this.log.filter(([id, user]) => this.entries.get(user)?.updateId === id);
    this.reindex();
  }

  /** Positions moved: every position is taken again and every block dropped. */
  private reindex(): void {
    this.positions.clear();
    for (const [i, [, user]] of this.log.entries()) this.positions.set(user, i);
    this.blocks.clear();
  }

  /** Entries changed after `sinceId`, oldest change first. */
  changedSince(sinceId: number): PresenceEntry[] {
    const lo = this.firstAfter(sinceId);
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
  /** In a cluster: the call read Redis, so this process's copy is as current as a `realm()` would make it. */
  read?: boolean;
}

/** What the presence store uses of the server. */
export interface PresenceServices {
  store: Store;
  db: Db;
  log: Logger;
  cluster?: Cluster | undefined;
  /** Hands presence events of a cluster to this process's queues (resolves once they are there). */
  deliver: (events: readonly QueuedEvent[]) => void | Promise<void>;
}

/** A realm's copy in cluster mode, and its reads from Redis: `started` and `finished` count them. */
interface Replica {
  realmId: number;
  view: RealmPresence;
  /** Every change up to this id has been read from Redis (this process's own may be newer: they apply at once). */
  cursor: number;
  started: number;
  finished: number;
  reading: Promise<void> | undefined;
}

const MIN_GAP_MS = PRESENCE_UPDATE_MIN_FREQ_SECONDS * 1000;
/** An active ping after this long without activity is the user coming online (announced). */
const ONLINE_GAP_MS = (OFFLINE_THRESHOLD_SECS - PRESENCE_PING_INTERVAL_SECS - 10) * 1000;

/**
 * Zulip's do_update_user_presence rules for a ping at `now`: last connection moves when at least
 * PRESENCE_UPDATE_MIN_FREQ_SECONDS newer, last activity (and the connection with it) likewise when
 * active; announced when new, coming online, or forced. (cluster/presence.ts's script does the same in Redis.)
 */
export function decidePing(user: UserRow, existing: PresenceEntry | undefined, now: number, active: boolean, force: boolean): PresenceChange {
  if (!existing) {
    return { entry: { userId: user.id, realmId: user.realm_id, lastActive: active ? now : null, lastConnected: now, updateId: 0 }, changed: true, announce: true };
  }
  const becameOnline = active && (existing.lastActive === null || now - existing.lastActive > ONLINE_GAP_MS);
  let next: PresenceEntry | undefined;
  if (existing.lastConnected === null || now - existing.lastConnected > MIN_GAP_MS) next = { ...existing, lastConnected: now };
  if (active && (existing.lastActive === null || now - existing.lastActive > MIN_GAP_MS)) {
    // last_connected_time is never older than last_active_time.
    next = { ...existing, lastActive: now, lastConnected: now };
  }
  return { entry: next ?? existing, changed: next !== undefined, announce: force || becameOnline };
}

/** The presence of every realm served by one context. */
export class PresenceStore {
  private readonly realms = new Map<number, Promise<RealmPresence>>();
  private readonly replicas = new Map<number, Replica>();
  private readonly dirty = new Map<number, PresenceEntry>();
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly ctx: PresenceServices) {
    ctx.cluster?.presence.listen(ctx.deliver);
  }

  /**
   * A realm's presence: loaded from the database on first use; in a cluster, brought up to date
   * from Redis first (unless `current`: the caller's own update just did).
   */
  async realm(realmId: number, current = false): Promise<RealmPresence> {
    const view = await this.loaded(realmId);
    const replica = this.replicas.get(realmId);
    if (replica && !current) await this.fresh(replica);
    return view;
  }

  /**
   * Records a ping at `now` (Zulip's do_update_user_presence). Stored times move only when at
   * least PRESENCE_UPDATE_MIN_FREQ_SECONDS newer; a change takes the realm's next update id.
   */
  async update(user: UserRow, now: number, active: boolean, force = false): Promise<PresenceChange> {
    const view = await this.loaded(user.realm_id);
    const local = decidePing(user, view.entries.get(user.id), now, active, force);
    const shared = this.ctx.cluster?.presence;
    if (!shared) {
      if (local.changed) {
        view.bump(local.entry);
        this.markDirty(local.entry);
      }
      return local;
    }
    // This copy is never ahead of Redis: if it shows nothing to change, Redis would not either.
    if (!local.changed && !force) return local;
    return this.shared(user, now, active, force);
  }

  /** Replaces a user's presence with a single idle connection at `at` (presence_enabled turned off). */
  async replaceWithIdle(user: UserRow, at: number): Promise<PresenceEntry> {
    const view = await this.loaded(user.realm_id);
    const shared = this.ctx.cluster?.presence;
    if (!shared) {
      const entry = { userId: user.id, realmId: user.realm_id, lastActive: null, lastConnected: at, updateId: 0 };
      view.bump(entry);
      this.markDirty(entry);
      return entry;
    }
    return (await this.shared(user, at, false, true, at)).entry;
  }

  /**
   * A ping or an idle replacement in Redis, which also brings this process's copy up to date
   * (the realm is loaded into Redis first if it is not there).
   */
  private async shared(user: UserRow, now: number, active: boolean, force: boolean, idleAt?: number): Promise<PresenceChange> {
    const shared = (this.ctx.cluster as Cluster).presence;
    const replica = this.replicas.get(user.realm_id) as Replica;
    const rules = { minGapMs: MIN_GAP_MS, onlineGapMs: ONLINE_GAP_MS };
    let done = await shared.update(user.realm_id, user.id, now, active, force, rules, replica.cursor, idleAt);
    if (!done) {
      await this.read(replica);
      done = await shared.update(user.realm_id, user.id, now, active, force, rules, replica.cursor, idleAt);
      if (!done) throw new Error(`presence of realm ${user.realm_id} is not in Redis`);
    }
    this.absorb(replica, done.changes);
    if (done.changes.more) await this.read(replica);
    if (done.change.changed) {
      replica.view.apply(done.change.entry);
      this.markDirty(done.change.entry);
    }
    return { ...done.change, read: true };
  }

  /**
   * Hands presence events to every queue that wants them: one process's through `bus` (the
   * server's bus of the moment: it logs events before delivering them); in a cluster, every
   * process's through Redis pub/sub (not the shared stream). Resolves once every live process has them.
   */
  async announce(bus: EventBus, events: readonly QueuedEvent[]): Promise<void> {
    if (events.length === 0) return;
    const shared = this.ctx.cluster?.presence;
    if (shared) await shared.publish(events);
    else await bus.publish({ events, changes: [] });
  }

  /** Writes every changed row now (and waits for a write already under way). */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    // In user order: two processes writing overlapping rows at once take their locks in one order (no deadlock).
    const rows = [...this.dirty.values()].sort((x, y) => x.userId - y.userId).map(toRow);
    this.dirty.clear();
    const previous = this.flushing;
    this.flushing = previous.then(async () => {
      if (rows.length > 0) await this.ctx.store.write((tx) => upsertPresenceRows(tx, rows));
    });
    await this.flushing;
  }

  /** The realm's copy: from the database alone, or in a cluster from Redis (loaded into Redis from the database by the first process to need it). */
  private loaded(realmId: number): Promise<RealmPresence> {
    let loading = this.realms.get(realmId);
    if (!loading) {
      if (this.ctx.cluster) {
        const replica: Replica = { realmId, view: new RealmPresence([]), cursor: 0, started: 0, finished: 0, reading: undefined };
        this.replicas.set(realmId, replica);
        loading = this.fresh(replica).then(() => replica.view);
      } else {
        loading = presenceRowsOfRealm(this.ctx.db, realmId).then((rows) => new RealmPresence(rows));
      }
      this.realms.set(realmId, loading);
      loading.catch(() => {
        this.realms.delete(realmId);
        this.replicas.delete(realmId);
      });
    }
    return loading;
  }

  /** Resolves after a read from Redis that began after this call (several callers share one). */
  private async fresh(replica: Replica): Promise<void> {
    const need = replica.started + 1;
    while (replica.finished < need) {
      if (!replica.reading) {
        const n = ++replica.started;
        replica.reading = this.read(replica).finally(() => {
          replica.finished = n;
          replica.reading = undefined;
        });
      }
      await replica.reading;
    }
  }

  /** Applies what changed in Redis since the copy's latest id (loading the realm into Redis if it is not there). */
  private async read(replica: Replica): Promise<void> {
    const shared = (this.ctx.cluster as Cluster).presence;
    const view = replica.view;
    const realmId = replica.realmId;
    let got = await shared.changesSince(realmId, replica.cursor);
    if (!got) {
      const rows = await presenceRowsOfRealm(this.ctx.db, realmId);
      await shared.seed(realmId, rows.map(fromRow), view.lastUpdateId);
      got = await shared.changesSince(realmId, replica.cursor);
      if (!got) throw new Error(`presence of realm ${realmId} is not in Redis`);
    }
    if (got.top < replica.cursor) {
      // Redis started again with lower ids: read the realm anew.
      view.clear();
      replica.cursor = 0;
      got = (await shared.changesSince(realmId, 0)) ?? got;
    }
    this.absorb(replica, got);
  }

  /** Applies changes read from Redis; every change up to their latest id has now been read. */
  private absorb(replica: Replica, changes: { top: number; entries: readonly PresenceEntry[] }): void {
    for (const entry of changes.entries) replica.view.apply(entry);
    replica.cursor = Math.max(replica.cursor, changes.top);
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

function fromRow(r: PresenceRow): PresenceEntry {
  return { userId: r.user_id, realmId: r.realm_id, lastActive: r.last_active_time, lastConnected: r.last_connected_time, updateId: r.last_update_id };
}
