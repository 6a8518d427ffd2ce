import { randomUUID } from "node:crypto";
import type { Logger } from "pino";
import type { Clock } from "../base/clock.js";
import { TimerWheel } from "../base/timer-wheel.js";
import type { EventBus } from "./bus.js";
import { matchesNarrow } from "./narrow.js";
import { badQueueId, EventQueue, headOf, type PollWaiter, type QueueOptions, type SavedQueue } from "./queue.js";
import { queueShape, queueTransforms, type OfferedEvent } from "./transforms.js";
import type { QueuedEvent } from "./types.js";

/** Zulip's DEFAULT_EVENT_QUEUE_TIMEOUT_SECS and MAX_QUEUE_TIMEOUT_SECS. */
export const DEFAULT_LIFESPAN_SECS = 600;
export const MAX_LIFESPAN_SECS = 7 * 24 * 3600;
/** How often idle queues are collected (Zulip: every 60 s). */
const SWEEP_EVERY_MS = 60_000;

/** Timings a test or benchmark may shorten. */
export interface QueueTimings {
  /** Milliseconds a poll waits before a heartbeat is queued; default 45–55 s like Zulip. */
  heartbeatMs?: number;
}

/**
 * Every event queue of this process, in memory: by id, by owner (so delivery costs O(recipients)),
 * and by realm for the queues that see all public channels. Fed by the bus after each commit.
 */
export class QueueRegistry {
  private readonly byId = new Map<string, EventQueue>();
  private readonly byUser = new Map<number, Set<EventQueue>>();
  private readonly publicByRealm = new Map<number, Set<EventQueue>>();
  private readonly byRealm = new Map<number, Set<EventQueue>>();
  private sweeper: NodeJS.Timeout | undefined;
  /** The heartbeats of every waiting poll, on one timer. */
  private readonly heartbeats = new TimerWheel<EventQueue>((queue) => this.sendHeartbeat(queue));
  private unsubscribe: (() => void) | undefined;
  /** Fixed heartbeat delay in ms, or undefined for Zulip's 45 s + random(0..10) s. */
  heartbeatMs: number | undefined;
  /** Set by `stop`: polls are answered at once instead of waiting (the server is going down). */
  closing = false;
  /** Events appended to queues since start (for the metrics). */
  delivered = 0;
  /**
   * Cluster mode: the id of this process (12 hex digits), written as the last group of every new
   * queue id so that any process can tell the owner while the id stays a UUID, as Zulip's are.
   */
  idOwner = "";
  /** Where heartbeats go instead of straight into their queue (the durable event log), when set. */
  heartbeatSink: ((queue: EventQueue) => void) | undefined;

  constructor(
    private readonly clock: Clock,
    private readonly log: Logger,
    timings: QueueTimings = {},
  ) {
    this.heartbeatMs = timings.heartbeatMs;
  }

  /** Subscribes to the bus and starts the idle sweep (an unref'd timer: it never keeps the process up). */
  start(bus: EventBus): void {
    this.unsubscribe = bus.subscribe((commit) => this.deliver(commit.events));
    this.sweeper = setInterval(() => this.sweep(), SWEEP_EVERY_MS);
    this.sweeper.unref();
  }

  /** Stops delivery and the sweep, and answers every waiting poll with what its queue holds. */
  stop(): void {
    this.answerWaiting();
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    clearInterval(this.sweeper);
    this.heartbeats.stop();
  }

  /** From now on polls are answered at once (the server is going down); those waiting are answered now. */
  answerWaiting(): void {
    this.closing = true;
    for (const queue of this.byId.values()) queue.finish("ready");
  }

  /** The queue `queueId`, if this process holds it. */
  get(queueId: string): EventQueue | undefined {
    return this.byId.get(queueId);
  }

  /** Every queue. */
  all(): EventQueue[] {
    return [...this.byId.values()];
  }

  /** Takes back a saved queue as it was (events/durable.ts), sharing its options like a new one's; false if one with its id is here. */
  insert(saved: SavedQueue): boolean {
    if (this.byId.has(saved.id)) return false;
    this.add(EventQueue.restore({ ...saved, options: keptOptions(saved.options) }));
    return true;
  }

  /** Whether this process holds the queue `queueId`. */
  has(queueId: string): boolean {
    return this.byId.has(queueId);
  }

  /** The ids of every queue. */
  ids(): string[] {
    return [...this.byId.keys()];
  }

  /** Drops these queues (they missed events); waiting polls are answered BAD_EVENT_QUEUE_ID. */
  drop(ids: readonly string[]): void {
    for (const id of ids) {
      const queue = this.byId.get(id);
      if (!queue) continue;
      this.remove(queue);
      queue.finish("gone");
    }
  }

  /**
   * Takes over a queue another process saved when it stopped, after giving it the commits it
   * missed meanwhile (`missed`, in order); false if it expired or its owner was deactivated.
   */
  adopt(saved: SavedQueue, missed: readonly (readonly QueuedEvent[])[]): boolean {
    const queue = EventQueue.restore(saved);
    if (queue.expired(this.clock.now()) || this.byId.has(queue.id)) return false;
    const alone = new QueueRegistry(this.clock, this.log);
    alone.add(queue);
    for (const events of missed) alone.deliver(events);
    if (!alone.has(queue.id)) return false;
    this.add(queue);
    return true;
  }

  /** Takes a queue rebuilt elsewhere (cluster/queue-keeper.ts) as it is; false if one with its id is here. */
  take(queue: EventQueue): boolean {
    if (this.byId.has(queue.id)) return false;
    this.add(queue);
    return true;
  }

  /** A queue-addressed event (heartbeats, restart notices): heartbeats go to every listed queue, other events by its event_types. */
  pushTo(ids: readonly string[], event: OfferedEvent): void {
    for (const id of ids) {
      const queue = this.byId.get(id);
      if (!queue || (event.type !== "heartbeat" && !queue.acceptsType(event.type))) continue;
      queue.push(event);
      queue.wake();
    }
  }

  /** Allocates a queue with a random id for `options.userId`. */
  create(options: QueueOptions): EventQueue {
    // Clients register with the same few lists and capabilities: queues share one copy of each.
    const queue = new EventQueue(this.idOwner === "" ? randomUUID() : randomUUID().slice(0, 24) + this.idOwner, keptOptions(options), this.clock.now());
    this.add(queue);
    return queue;
  }

  /** The caller's queue `queueId`; BAD_EVENT_QUEUE_ID if unknown, expired or someone else's. */
  access(queueId: string, userId: number): EventQueue {
    const queue = this.byId.get(queueId);
    if (!queue || queue.options.userId !== userId) throw badQueueId(queueId);
    if (queue.expired(this.clock.now())) {
      this.remove(queue);
      throw badQueueId(queueId);
    }
    return queue;
  }

  /** Destroys a queue; a poll waiting on it is answered with what it holds. */
  delete(queue: EventQueue): void {
    this.remove(queue);
    queue.finish("ready");
  }

  /**
   * Parks a long-poll on `queue` (answering one already waiting there); its heartbeat goes on the
   * registry's one timer wheel, not a timer of its own.
   */
  park(queue: EventQueue, waiter: PollWaiter): void {
    queue.park(this.clock.now(), waiter, this.heartbeats, this.heartbeatDelay());
  }

  /** The delay before the next heartbeat of a waiting poll: 45–54 s in whole seconds, like Zulip's 45 s + random(0..10) s. */
  heartbeatDelay(): number {
    return this.heartbeatMs ?? 45_000 + 1000 * Math.floor(Math.random() * 10);
  }

  /** Queues the heartbeat event on `queue` and answers its poll. */
  sendHeartbeat(queue: EventQueue): void {
    if (this.byId.get(queue.id) !== queue) return;
    if (this.heartbeatSink) return this.heartbeatSink(queue);
    queue.push({ type: "heartbeat" });
    queue.wake();
  }

  /** Number of live queues (for benchmarks and tests). */
  size(): number {
    return this.byId.size;
  }

  /** Long-polls waiting on a queue (for the metrics): each has its heartbeat on the wheel. */
  waitingPolls(): number {
    return this.heartbeats.size();
  }

  /** The queues owned by `userId`. */
  ofUser(userId: number): readonly EventQueue[] {
    return [...(this.byUser.get(userId) ?? [])];
  }

  /**
   * Appends each committed event to the queues of its recipients (and, for public-channel events,
   * to the realm's all_public_streams/narrow queues), then answers the polls it woke, once per batch.
   */
  deliver(batch: readonly QueuedEvent[]): void {
    const touched = new Set<EventQueue>();
    for (const item of batch) {
      const event = item.event as OfferedEvent;
      const transform = queueTransforms[item.event.type];
      const seen = new Set<EventQueue>();
      // The event as shaped for each distinct queue shape (and per-user fields), serialised once:
      // 10,000 queues of the same kind share one object and one JSON text.
      const shapes = new Map<string, Shaped | null>();
      const offer = (queue: EventQueue) => {
        if (seen.has(queue)) return;
        seen.add(queue);
        if (!queue.acceptsType(event.type)) return;
        const extra = item.perUser?.[queue.options.userId];
        const own = item.perQueue?.[queue.id];
        const personal = () => (extra || own ? { ...event, ...extra, ...own } : event);
        if (event.type === "message" && queue.options.narrow.length > 0 && !matchesNarrow(queue.options.narrow, personal())) return;
        // Fields for this one queue make its event its own; per-user fields are shared by equal value.
        queue.shape ??= queueShape(queue.options);
        const key = own ? undefined : extra ? `${queue.shape}\u0000${JSON.stringify(extra)}` : queue.shape;
        let shaped = key === undefined ? undefined : shapes.get(key);
        if (shaped === undefined) {
          const offered = personal();
          const result = transform ? transform(offered, queue.options) : offered;
          const events = result === null ? [] : isList(result) ? result : [result];
          shaped = result === null ? null : { events, heads: events.map((one) => headOf(one, JSON.stringify(one))) };
          if (key !== undefined) shapes.set(key, shaped);
        }
        if (!shaped) return;
        const { events, heads } = shaped;
        for (let i = 0; i < events.length; i++) queue.push(events[i]!, heads[i]);
        this.delivered += shaped.events.length;
        touched.add(queue);
      };
      for (const userId of item.userIds) {
        const queues = this.byUser.get(userId);
        if (queues) for (const queue of queues) offer(queue);
      }
      if (item.realm !== undefined) {
        const except = item.realm.except.length > 0 ? new Set(item.realm.except) : undefined;
        for (const queue of this.byRealm.get(item.realm.id) ?? []) if (!except?.has(queue.options.userId)) offer(queue);
      }
      if (item.publicRealmId !== undefined) {
        for (const queue of this.publicByRealm.get(item.publicRealmId) ?? []) offer(queue);
      }
      this.dropDeactivated(item);
    }
    for (const queue of touched) queue.wake();
  }

  /** Collects the queues idle past their lifespan. */
  sweep(): void {
    const now = this.clock.now();
    for (const queue of this.byId.values()) if (queue.expired(now)) this.remove(queue);
  }

  /** Every queue as plain data, for the restart dump. */
  save(): SavedQueue[] {
    return [...this.byId.values()].map((queue) => queue.save());
  }

  /**
   * Adopts queues saved by a previous process, skipping those that expired meanwhile, and tells
   * each (if its event_types allow) that the server restarted, as Zulip does.
   */
  restore(saved: readonly SavedQueue[], restart: OfferedEvent): number {
    const now = this.clock.now();
    let kept = 0;
    for (const entry of saved) {
      const queue = EventQueue.restore(entry);
      if (queue.expired(now) || this.byId.has(queue.id)) continue;
      this.add(queue);
      if (queue.acceptsType(restart.type)) queue.push(restart);
      kept++;
    }
    this.log.info({ kept, dropped: saved.length - kept }, "event queues restored");
    return kept;
  }

  private add(queue: EventQueue): void {
    this.byId.set(queue.id, queue);
    const { userId, realmId } = queue.options;
    let own = this.byUser.get(userId);
    if (!own) this.byUser.set(userId, (own = new Set()));
    own.add(queue);
    let all = this.byRealm.get(realmId);
    if (!all) this.byRealm.set(realmId, (all = new Set()));
    all.add(queue);
    if (queue.options.allPublicStreams || queue.options.narrow.length > 0) {
      let realm = this.publicByRealm.get(realmId);
      if (!realm) this.publicByRealm.set(realmId, (realm = new Set()));
      realm.add(queue);
    }
  }

  private remove(queue: EventQueue): void {
    if (this.byId.get(queue.id) !== queue) return;
    this.byId.delete(queue.id);
    const { userId, realmId } = queue.options;
    const own = this.byUser.get(userId);
    own?.delete(queue);
    if (own?.size === 0) this.byUser.delete(userId);
    const all = this.byRealm.get(realmId);
    all?.delete(queue);
    if (all?.size === 0) this.byRealm.delete(realmId);
    const realm = this.publicByRealm.get(realmId);
    realm?.delete(queue);
    if (realm?.size === 0) this.publicByRealm.delete(realmId);
  }

  /** A deactivated user's queues are useless (every request of theirs fails auth): drop them now. */
  private dropDeactivated(item: QueuedEvent): void {
    const event = item.event;
    if (event.type !== "realm_user" || event.op !== "update" || event.person.is_active !== false) return;
    for (const queue of this.ofUser(event.person.user_id)) {
      this.remove(queue);
      queue.finish("gone");
    }
  }
}

/** Registration values many queues share, by their JSON (bounded: past it, values are kept as they come). */
const sharedValues = new Map<string, unknown>();
const SHARED_VALUES_MAX = 1000;

/** `options` with the lists and capabilities many queues share replaced by one shared copy. */
function keptOptions(options: QueueOptions): QueueOptions {
  return { ...options, eventTypes: options.eventTypes && interned(options.eventTypes), narrow: interned(options.narrow), capabilities: interned(options.capabilities) };
}

function interned<T extends object>(value: T): T {
  const key = JSON.stringify(value);
  const found = sharedValues.get(key);
  if (found !== undefined) return found as T;
  if (sharedValues.size < SHARED_VALUES_MAX) sharedValues.set(key, value);
  return value;
}

/** An event as shaped for one kind of queue, and the shared JSON heads of its events (see headOf). */
interface Shaped {
  events: readonly OfferedEvent[];
  heads: readonly (string | undefined)[];
}

function isList(value: OfferedEvent | readonly OfferedEvent[]): value is readonly OfferedEvent[] {
  return Array.isArray(value);
}
