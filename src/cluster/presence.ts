import type { Redis } from "ioredis";
import type { Logger } from "pino";
import type { PresenceEntry } from "../events/changes.js";
import type { QueuedEvent } from "../events/types.js";
import type { ClusterKeys } from "./redis.js";

/**
 * Presence shared by the processes of a cluster, in Redis rather than on the shared stream: a
 * ping is not a commit every process must read.
 *
 * Per realm: a hash (user id → "lastActive,lastConnected,updateId", ms, lastActive empty when
 * never active), a sorted set of user ids scored by their latest update id (so "what changed
 * after id N" is one range read), the update-id counter, and a marker set once the realm's rows
 * were loaded from the database (a Redis that restarted empty is loaded again). Each change is
 * decided and stored by one script, so two processes pinging for one user agree.
 *
 * Presence events go on a pub/sub channel, several pings' in one message. Each process delivers
 * them to its own queues and acknowledges; the sender answers its request once every live process
 * has (FENCE_MS at most), as a writer waits for the stream: the next poll anywhere has the event.
 */

/** The longest a sender waits for the other processes to deliver its presence events. */
const FENCE_MS = 1000;
/** Entries read per round trip when a process catches up on a realm. */
const PAGE = 5000;

/** The rules of a ping, in ms (the presence cache's constants). */
export interface PresenceRules {
  minGapMs: number;
  onlineGapMs: number;
}

/** What a ping did in Redis: the stored entry, whether it changed, whether others must be told. */
export interface SharedPresenceChange {
  entry: PresenceEntry;
  changed: boolean;
  announce: boolean;
}

/** Changes read from Redis: those after the id asked for, oldest first, and the realm's latest id then. */
export interface SharedChanges {
  top: number;
  entries: PresenceEntry[];
  /** More changes than one read returns: read on from the last entry's id. */
  more: boolean;
}

/** The scripts, run by their digest (EVALSHA): Redis keeps them, so a call sends only its arguments. */
interface ScriptCommands {
  rookeryPresenceUpdate(...args: (string | number)[]): Promise<(string | number)[] | null>;
  rookeryPresenceChanges(...args: (string | number)[]): Promise<string[] | null>;
  rookeryPresenceSeed(...args: (string | number)[]): Promise<number>;
}

/** Redis-side presence of a cluster (see above). */
export class SharedPresence {
  private pending: QueuedEvent[] = [];
  private flushScheduled = false;
  private seq = 0;
  /** Batches sent and not yet acknowledged by every live process: seq → who has yet to answer. */
  private readonly waiting = new Map<number, { missing: Set<string>; resolve: () => void }>();
  private listener: ((events: readonly QueuedEvent[]) => void | Promise<void>) | undefined;
  private batchDone: Promise<void> | undefined;

  constructor(
    private readonly processId: string,
    private readonly commands: Redis,
    private readonly subscriber: Redis,
    private readonly keys: ClusterKeys,
    private readonly log: Logger,
    /** The other live processes (those that must acknowledge events). */
    private readonly peers: () => string[],
  ) {
    commands.defineCommand("rookeryPresenceUpdate", { numberOfKeys: 4, lua: UPDATE });
    commands.defineCommand("rookeryPresenceChanges", { numberOfKeys: 4, lua: CHANGES });
    commands.defineCommand("rookeryPresenceSeed", { numberOfKeys: 4, lua: SEED });
    this.scripts = commands as unknown as ScriptCommands;
  }

  private readonly scripts: ScriptCommands;

  /** Starts listening for presence events of the other processes. */
  async start(): Promise<void> {
    this.subscriber.on("message", (channel: string, text: string) => {
      if (channel === this.keys.presenceEvents) this.heard(text);
    });
    await this.subscriber.subscribe(this.keys.presenceEvents);
  }

  /** Where events from the other processes (and this one's) are delivered: this process's queues. */
  listen(listener: (events: readonly QueuedEvent[]) => void | Promise<void>): void {
    this.listener = listener;
  }

  /**
   * A ping (or, with `idleAt`, an idle entry at that time replacing the user's presence), and in
   * the same call the changes after `sinceId` (a process's copy catches up at no extra cost).
   * Stored times move only when at least `minGapMs` newer; a change takes the realm's next update
   * id. Undefined when the realm is not in Redis yet (load it with `seed`, then ask again).
   */
  async update(realmId: number, userId: number, now: number, active: boolean, force: boolean, rules: PresenceRules, sinceId: number, idleAt?: number): Promise<{ change: SharedPresenceChange; changes: SharedChanges } | undefined> {
    const args = [userId, now, active ? 1 : 0, force ? 1 : 0, rules.minGapMs, rules.onlineGapMs, idleAt ?? "", sinceId, PAGE];
    const reply = await this.scripts.rookeryPresenceUpdate(...this.realmKeys(realmId), ...args);
    if (reply === null) return undefined;
    const entry = parseEntry(realmId, userId, String(reply[2]));
    return { change: { entry, changed: Number(reply[0]) === 1, announce: Number(reply[1]) === 1 }, changes: parseChanges(realmId, reply.slice(3).map(String)) };
  }

  /** Changes after `sinceId`, oldest first, and the realm's latest id; undefined when the realm is not in Redis yet. */
  async changesSince(realmId: number, sinceId: number): Promise<{ top: number; entries: PresenceEntry[] } | undefined> {
    const entries: PresenceEntry[] = [];
    let from = sinceId;
    for (;;) {
      const reply = await this.scripts.rookeryPresenceChanges(...this.realmKeys(realmId), from, PAGE);
      if (reply === null) return undefined;
      const page = parseChanges(realmId, reply);
      entries.push(...page.entries);
      if (!page.more) return { top: page.top, entries };
      from = page.entries.at(-1)?.updateId ?? from;
    }
  }

  /**
   * Loads a realm's rows (from the database) into Redis unless another process did; entries
   * written since are kept. The counter is raised to `floor` (ids this process has seen).
   */
  async seed(realmId: number, rows: readonly PresenceEntry[], floor: number): Promise<void> {
    const args: (string | number)[] = [Math.max(floor, ...rows.map((r) => r.updateId))];
    for (const r of rows) args.push(r.userId, entryText(r), r.updateId);
    await this.scripts.rookeryPresenceSeed(...this.realmKeys(realmId), ...args);
  }

  /**
   * Delivers presence events here at once and to the other processes in the next message on the
   * channel (events of one turn of the event loop go together); resolves once every live process
   * has delivered them, or after FENCE_MS.
   */
  publish(events: readonly QueuedEvent[]): Promise<void> {
    if (events.length === 0) return Promise.resolve();
    const local = this.listener?.(events);
    this.pending.push(...events);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      this.batchDone = new Promise((resolve) => setImmediate(() => this.flush().then(resolve, resolve)));
    }
    const others = this.batchDone ?? Promise.resolve();
    return local ? Promise.all([local, others]).then(() => undefined) : others;
  }

  /** Lets every wait end (the process is stopping). */
  stop(): void {
    for (const wait of this.waiting.values()) wait.resolve();
    this.waiting.clear();
  }

  private async flush(): Promise<void> {
    this.flushScheduled = false;
    const events = this.pending;
    this.pending = [];
    const seq = ++this.seq;
    const missing = new Set(this.peers());
    const acknowledged = missing.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(seq);
        resolve();
      }, FENCE_MS);
      timer.unref();
      this.waiting.set(seq, {
        missing,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      });
    });
    try {
      await this.commands.publish(this.keys.presenceEvents, JSON.stringify({ from: this.processId, seq, events }));
    } catch (error) {
      this.log.error({ err: error }, "could not publish presence events to the cluster");
      this.waiting.get(seq)?.resolve();
      this.waiting.delete(seq);
    }
    await acknowledged;
  }

  private heard(text: string): void {
    let message: { from?: unknown; seq?: unknown; events?: unknown; ack?: unknown };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      this.log.error("unreadable message on the presence channel; skipped");
      return;
    }
    if (typeof message.from !== "string" || typeof message.seq !== "number") return;
    if (typeof message.ack === "string") {
      // { ack: who answers, from: the sender, seq }
      if (message.from !== this.processId) return;
      const wait = this.waiting.get(message.seq);
      if (!wait) return;
      wait.missing.delete(message.ack);
      if (wait.missing.size === 0) {
        this.waiting.delete(message.seq);
        wait.resolve();
      }
      return;
    }
    if (message.from === this.processId || !Array.isArray(message.events)) return;
    let delivered: void | Promise<void> = undefined;
    try {
      delivered = this.listener?.(message.events as QueuedEvent[]);
    } catch (error) {
      this.log.error({ err: error }, "delivering presence events from the cluster failed");
    }
    // Acknowledged once delivered (the queues may log them first: cluster/queue-keeper.ts).
    const ack = () => this.commands.publish(this.keys.presenceEvents, JSON.stringify({ ack: this.processId, from: message.from, seq: message.seq })).catch(() => undefined);
    if (delivered) void delivered.then(ack);
    else void ack();
  }

  private realmKeys(realmId: number): [string, string, string, string] {
    return [this.keys.presence(realmId), this.keys.presenceLog(realmId), this.keys.presenceIds(realmId), this.keys.presenceSeeded(realmId)];
  }
}

/** A reply of { latest id, user, entry text, … } (PAGE pairs at most: then there may be more). */
function parseChanges(realmId: number, reply: readonly string[]): SharedChanges {
  const entries: PresenceEntry[] = [];
  for (let i = 1; i + 1 < reply.length; i += 2) {
    const text = reply[i + 1];
    if (text) entries.push(parseEntry(realmId, Number(reply[i]), text));
  }
  return { top: Number(reply[0] ?? 0), entries, more: reply.length - 1 >= 2 * PAGE };
}

function entryText(e: PresenceEntry): string {
  return `${e.lastActive ?? ""},${e.lastConnected ?? ""},${e.updateId}`;
}

function parseEntry(realmId: number, userId: number, text: string): PresenceEntry {
  const [active = "", connected = "", id = "0"] = text.split(",");
  return { userId, realmId, lastActive: active === "" ? null : Number(active), lastConnected: connected === "" ? null : Number(connected), updateId: Number(id) };
}

/*
 * The scripts. KEYS: the realm's hash, its sorted set of changes, its id counter, its loaded marker.
 * Times travel as the caller's decimal strings and are stored as given (no float formatting).
 */

/**
 * Lua: appends to `out` the latest update id, then each user changed after id `after` with their
 * entry text (at most `limit`, oldest change first). Shared by the ping and the changes scripts.
 */
const SINCE = `local function since(out, after, limit)
  out[#out + 1] = redis.call('GET', KEYS[3]) or '0'
  local users = redis.call('ZRANGEBYSCORE', KEYS[2], '(' .. after, '+inf', 'LIMIT', 0, tonumber(limit))
  if #users == 0 then return out end
  local rows = redis.call('HMGET', KEYS[1], unpack(users))
  for i = 1, #users do
    out[#out + 1] = users[i]
    out[#out + 1] = rows[i] or ''
  end
  return out
end`;

/**
 * ARGV: user, now, active (1/0), force (1/0), min gap, online gap, idle time ("" for a ping),
 * then the id after which changes are wanted and the most to return.
 * A ping moves last connection when it is older than the min gap, and last activity (with the
 * connection) when active and that is older; it is announced when the user was not active within
 * the online gap (or forced). An idle replacement sets no activity and connection = idle time.
 * Returns nil (realm not loaded) or { changed, announce, entry text, latest id, user, entry text, … }.
 */
const UPDATE = `if redis.call('EXISTS', KEYS[4]) == 0 then return nil end
${SINCE}
local user, now, active, force = ARGV[1], ARGV[2], ARGV[3] == '1', ARGV[4] == '1'
local minGap, onlineGap = tonumber(ARGV[5]), tonumber(ARGV[6])
local old = redis.call('HGET', KEYS[1], user)
local la, lc, announce, changed = '', now, true, true
if ARGV[7] ~= '' then
  lc = ARGV[7]
elseif old then
  local a, c, id = string.match(old, '^([^,]*),([^,]*),(%d+)$')
  la, lc = a, c
  local n = tonumber(now)
  announce = force or (active and (la == '' or n - tonumber(la) > onlineGap))
  changed = false
  if lc == '' or n - tonumber(lc) > minGap then lc = now; changed = true end
  if active and (la == '' or n - tonumber(la) > minGap) then la = now; lc = now; changed = true end
  if not changed then return since({0, announce and 1 or 0, old}, ARGV[8], ARGV[9]) end
elseif active then
  la = now
end
local id = redis.call('INCR', KEYS[3])
local text = la .. ',' .. lc .. ',' .. id
redis.call('HSET', KEYS[1], user, text)
redis.call('ZADD', KEYS[2], id, user)
return since({1, announce and 1 or 0, text}, ARGV[8], ARGV[9])`;

/** ARGV: after id, page size. Returns nil (realm not loaded) or { latest id, user, entry text, … } oldest change first. */
const CHANGES = `if redis.call('EXISTS', KEYS[4]) == 0 then return nil end
${SINCE}
return since({}, ARGV[1], ARGV[2])`;

/** ARGV: counter floor, then user, entry text, update id for each row. Does nothing once loaded. */
const SEED = `if redis.call('EXISTS', KEYS[4]) == 1 then return 0 end
for i = 2, #ARGV, 3 do
  if redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1]) == 1 then redis.call('ZADD', KEYS[2], ARGV[i + 2], ARGV[i]) end
end
local current = tonumber(redis.call('GET', KEYS[3]) or '0')
if current < tonumber(ARGV[1]) then redis.call('SET', KEYS[3], ARGV[1]) end
redis.call('SET', KEYS[4], '1')
return 1`;
