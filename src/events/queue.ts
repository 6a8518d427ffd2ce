import { ApiError, badRequest } from "../base/errors.js";
import type { TimerWheel } from "../base/timer-wheel.js";

/** The registration parameters a queue keeps (POST /register, or GET /events without queue_id). */
export interface QueueOptions {
  userId: number;
  realmId: number;
  /** Event types delivered; null = every type. */
  eventTypes: readonly string[] | null;
  narrow: readonly (readonly [string, string])[];
  allPublicStreams: boolean;
  /** Declared client_capabilities, keyed by name (absent = false). */
  capabilities: Readonly<Record<string, boolean>>;
  applyMarkdown: boolean;
  clientGravatar: boolean;
  slimPresence: boolean;
  /** Seconds of idleness (no waiting poll) after which the queue is collected. */
  lifespanSecs: number;
}

/** An event as a queue holds and serves it: the event's fields plus the queue's `id`. */
export type DeliveredEvent = Record<string, unknown> & { type: string; id: number };

/**
 * How a waiting long-poll ends: "ready" to answer with the queue's events (new ones, a heartbeat,
 * or none when superseded), "gone" when the queue was dropped, "closed" when the client hung up.
 */
export type WakeReason = "ready" | "gone" | "closed";

/** A parked long-poll, told once how it ends. */
export interface PollWaiter {
  end(reason: WakeReason): void;
}

/**
 * The JSON of a delivered event up to its id (`{…,"id":`), for events whose fields many queues
 * share: the registry serialises each such event once per shape, and a poll's answer splices it.
 */
const HEAD = Symbol("shared JSON head");

/** A delivered event that carries its shared head (a hidden property: not serialised, not spread). */
type WithHead = DeliveredEvent & { [HEAD]?: string };

/** `events` as a JSON array, splicing the text shared between queues where there is one. */
export function eventsJson(events: readonly DeliveredEvent[]): string {
  if (events.length === 0) return "[]";
  let text = "[";
  for (let i = 0; i < events.length; i++) {
    const event = events[i]!;
    const head = (event as WithHead)[HEAD];
    if (i > 0) text += ",";
    text += head === undefined ? JSON.stringify(event) : `${head}${event.id}}`;
  }
  return text + "]";
}

/**
 * The shared head of `event` (see eventsJson) from its JSON without an id, or undefined when the
 * event has an `id` field of its own (then the delivered copy keeps that field's place).
 */
export function headOf(event: Record<string, unknown>, json: string): string | undefined {
  if (Object.hasOwn(event, "id") || !json.endsWith("}")) return undefined;
  return json === "{}" ? '{"id":' : `${json.slice(0, -1)},"id":`;
}

/** What a queue is saved as across a restart. */
export interface SavedQueue {
  id: string;
  options: QueueOptions;
  events: DeliveredEvent[];
  nextId: number;
  newestPrunedId: number;
  lastConnection: number;
}

/** The error for an unknown, expired, deleted or foreign queue (Zulip's BadEventQueueIdError). */
export function badQueueId(queueId: string): ApiError {
  return new ApiError(`Bad event queue ID: ${queueId}`, "BAD_EVENT_QUEUE_ID", 400, { queue_id: queueId });
}

/**
 * One client's event queue: its events not yet acknowledged, ids strictly increasing from 0,
 * and at most one waiting long-poll. Events stay until a later poll acknowledges them.
 */
export class EventQueue {
  events: DeliveredEvent[] = [];
  nextId = 0;
  newestPrunedId = -1;
  /** Counts the changes `savedVersion` stands for. */
  private changes = 0;
  /**
   * For the durable log (events/durable.ts), kept here rather than in a map of its own (every queue
   * has them): the version its row was written at (-1: none yet) and the lastConnection it holds.
   */
  writtenVersion = -1;
  writtenConnection = 0;
  private waiter: PollWaiter | undefined;
  /** When the waiting poll's heartbeat is due, in `heartbeats` (0 when none is). */
  wheelDue = 0;
  private heartbeats: TimerWheel<EventQueue> | undefined;
  /** The registry's key for the options that shape its events (`queueShape`), once computed. */
  shape: string | undefined;
  /** Flag events not yet handed to the client, by kind: a later one of the same kind joins them (made on first use: most queues never have one). */
  private joinable: Map<string, DeliveredEvent> | undefined;

  constructor(
    readonly id: string,
    readonly options: QueueOptions,
    /** Milliseconds of the last poll's start or end: idleness counts from here. */
    public lastConnection: number,
  ) {}

  /** Rebuilds a queue saved by `save`. */
  static restore(saved: SavedQueue): EventQueue {
    const queue = new EventQueue(saved.id, saved.options, saved.lastConnection);
    queue.events = saved.events;
    queue.nextId = saved.nextId;
    queue.newestPrunedId = saved.newestPrunedId;
    return queue;
  }

  /** The queue as plain data for the restart dump. */
  save(): SavedQueue {
    const { id, options, events, nextId, newestPrunedId, lastConnection } = this;
    return { id, options, events, nextId, newestPrunedId, lastConnection };
  }

  /**
   * Changes whenever `save()` would answer differently: a push takes the next id, an
   * acknowledgement that drops events raises newestPrunedId, a poll moves lastConnection, options
   * never change. A queue whose version is the one it had when saved need not be written again.
   */
  savedVersion(): number {
    return this.changes;
  }

  /** Whether the queue's event_types filter lets `type` through. */
  acceptsType(type: string): boolean {
    const types = this.options.eventTypes;
    if (types === null) return true;
    if (!types.includes(type)) return false;
    // A client that asked for both gets the modern user_topic events only (Zulip's rule).
    return !(type === "muted_topics" && types.includes("user_topic"));
  }

  /**
   * Appends an already-filtered event, giving it the next id. As in Zulip, an
   * update_message_flags event joins a waiting one of the same kind (same op and flag, not
   * `all`, and not the removal of `read`, whose message_details cannot be merged): clients that
   * mark messages read while scrolling would otherwise fill the queue with one-id events. The
   * joined event takes the newer id, and with it its place at the end of the queue.
   */
  push(event: Record<string, unknown> & { type: string }, head?: string): void {
    const delivered: DeliveredEvent = { ...event, id: this.nextId++ };
    this.changes++;
    const kind = joinableKind(delivered);
    if (kind === undefined) {
      if (head !== undefined) Object.defineProperty(delivered, HEAD, { value: head });
      this.events.push(delivered);
      return;
    }
    this.joinable ??= new Map();
    const waiting = this.joinable.get(kind);
    const at = waiting ? this.events.indexOf(waiting) : -1;
    if (waiting && at >= 0) {
      this.events.splice(at, 1);
      const joined = { ...waiting, id: delivered.id, messages: [...(waiting.messages as number[]), ...(delivered.messages as number[])] };
      this.events.push(joined);
      this.joinable.set(kind, joined);
    } else {
      this.events.push(delivered);
      this.joinable.set(kind, delivered);
    }
  }

  /** The events to hand to a poll; from now on, new flag events start afresh. */
  contents(): DeliveredEvent[] {
    this.joinable = undefined;
    return this.events;
  }

  /** The id of the newest event this queue has issued, or -1. */
  lastEventId(): number {
    return this.nextId - 1;
  }

  /**
   * Drops the events the client acknowledged (ids ≤ lastEventId), with Zulip's two refusals:
   * acknowledging below what was already pruned, and acknowledging an id never issued.
   */
  acknowledge(lastEventId: number): void {
    if (lastEventId < this.newestPrunedId) throw badRequest(`An event newer than ${lastEventId} has already been pruned!`);
    let drop = 0;
    while (drop < this.events.length && this.events[drop]!.id <= lastEventId) drop++;
    if (drop > 0) {
      this.newestPrunedId = this.events[drop - 1]!.id;
      this.changes++;
      this.events.splice(0, drop);
    }
    if (this.newestPrunedId !== lastEventId) throw badRequest(`Event ${lastEventId} was not in this queue`);
  }

  /** True while a long-poll is waiting on this queue. */
  isWaiting(): boolean {
    return this.waiter !== undefined;
  }

  /** Idle for its whole lifespan with no poll waiting: to be collected. */
  expired(now: number): boolean {
    return this.waiter === undefined && now - this.lastConnection >= this.options.lifespanSecs * 1000;
  }

  /**
   * Parks a long-poll: `waiter` is told when an event arrives, its heartbeat (due in
   * `heartbeatMs`, on the shared wheel) is queued, a newer poll supersedes it, or the queue goes away.
   */
  park(now: number, waiter: PollWaiter, heartbeats: TimerWheel<EventQueue>, heartbeatMs: number): void {
    this.finish("ready");
    this.lastConnection = now;
    this.changes++;
    this.waiter = waiter;
    this.heartbeats = heartbeats;
    heartbeats.add(this, heartbeatMs);
  }

  /** The client of `waiter` hung up: it is forgotten (a later poll's is left alone) and told "closed"; idleness counts from `now`. */
  hangUp(waiter: PollWaiter, now: number): void {
    if (this.waiter !== waiter) return;
    this.detach(waiter);
    this.lastConnection = now;
    this.changes++;
    waiter.end("closed");
  }

  /** Answers the waiting poll, if any, when there is something to say or the queue is going. */
  wake(): void {
    if (this.events.length > 0) this.finish("ready");
  }

  /** Ends the waiting poll (if any) with `reason`. */
  finish(reason: WakeReason): void {
    const waiter = this.waiter;
    if (!waiter) return;
    this.detach(waiter);
    waiter.end(reason);
  }

  /** Forgets a poll and its heartbeat; a later poll's waiter is left alone. */
  private detach(waiter: PollWaiter): void {
    if (this.waiter !== waiter) return;
    this.waiter = undefined;
    this.heartbeats?.remove(this);
    this.heartbeats = undefined;
  }
}

/** Zulip's kind of an update_message_flags event that later ones may join, or undefined. */
function joinableKind(event: DeliveredEvent): string | undefined {
  if (event.type !== "update_message_flags" || event.all === true || !Array.isArray(event.messages)) return undefined;
  if (event.op === "remove" && event.flag === "read") return undefined;
  return `${String(event.op)}/${String(event.flag)}`;
}
