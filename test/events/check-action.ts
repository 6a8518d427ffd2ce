import { expect } from "vitest";
import { userById } from "../../src/db/queries/users.js";
import type { AppEvent } from "../../src/events/types.js";
import { applyEvents } from "../../src/lib/state/apply.js";
import type { StateOptions } from "../../src/lib/state/types.js";
import type { Json, ParamValue } from "../harness/client.js";
import { validateEvent } from "../harness/openapi.js";
import type { FixtureName, TestServer } from "../harness/server.js";
import type { UserRow } from "../../src/db/queries/users.js";

/** How checkAction registers and what it expects. */
export interface CheckActionOptions {
  /** event_types of the queue (and of the state, unless fetchEventTypes says otherwise); default all. */
  eventTypes?: string[];
  /** fetch_event_types of both /register calls; default = eventTypes. */
  fetchEventTypes?: string[];
  /** client_capabilities; default {notification_settings_null: true}. */
  capabilities?: Record<string, boolean>;
  /** Other /register parameters (apply_markdown, client_gravatar, include_subscribers, slim_presence…). */
  register?: Record<string, ParamValue>;
  /** The events expected: how many, or their kinds in order ("realm_user" or "realm_user:update"). */
  expectEvents?: number | string[];
  /** false for actions that change no state (typing): then only the events are checked. Default true. */
  changesState?: boolean;
  /** State keys that differ between two /register calls without any action (timestamps). */
  volatileKeys?: string[];
}

const QUEUE_KEYS = ["queue_id", "last_event_id"];
const ALWAYS_VOLATILE = ["server_timestamp"];

/**
 * Zulip's verify_action for Rookery. Registers a queue for `who` with /register (state included),
 * runs `action` (which should make its change over HTTP), reads the queue with a non-blocking
 * GET /events, validates each event against Zulip's /events schema, applies the events to the old
 * state with the server's own applyEvents, and requires the result to equal a fresh /register.
 * Fails when the action produced no event, or (unless changesState is false) changed no state.
 * Returns the events (with their ids) for further assertions.
 *
 *   const events = await checkAction(server, "hamlet", () => server.as("iago").patch(`/users/${id}`, {full_name: "X"}),
 *     { expectEvents: ["realm_user:update"] });
 */
export async function checkAction(
  server: TestServer,
  who: FixtureName | UserRow,
  action: () => Promise<unknown>,
  opts: CheckActionOptions = {},
): Promise<Json[]> {
  const client = server.as(who);
  const userId = typeof who === "string" ? server.users[who].id : who.id;
  const params: Record<string, ParamValue> = {
    client_capabilities: opts.capabilities ?? { notification_settings_null: true },
    ...opts.register,
  };
  if (opts.eventTypes) params.event_types = opts.eventTypes;
  if (opts.fetchEventTypes) params.fetch_event_types = opts.fetchEventTypes;

  const before = await client.post("/register", params);
  expect(before.status, JSON.stringify(before.body)).toBe(200);
  const { queue_id: queueId, last_event_id: lastEventId } = before.body;
  const oldState = strip(before.body, opts.volatileKeys);

  await action();

  const polled = await client.get("/events", { queue_id: queueId, last_event_id: lastEventId, dont_block: true });
  expect(polled.status, JSON.stringify(polled.body)).toBe(200);
  const events: Json[] = polled.body.events;
  for (const event of events) validateEvent(event);
  if (opts.expectEvents === undefined) {
    expect(events.length, "the action produced no event").toBeGreaterThan(0);
  } else if (typeof opts.expectEvents === "number") {
    expect(events.length).toBe(opts.expectEvents);
  } else {
    expect(events.map((e) => (opts.expectEvents as string[]).some((k) => k.includes(":")) ? `${e.type}${e.op ? `:${e.op}` : ""}` : e.type)).toEqual(
      opts.expectEvents,
    );
  }

  const user = await userById(server.app.ctx.db, userId);
  if (!user) throw new Error(`user ${userId} vanished`);
  const applied = structuredClone(oldState);
  applyEvents(applied, events.map(withoutId), user, stateOptions(params));

  const after = await client.post("/register", params);
  expect(after.status, JSON.stringify(after.body)).toBe(200);
  const freshState = strip(after.body, opts.volatileKeys);
  expect(normalize(applied)).toEqual(normalize(freshState));
  if (opts.changesState !== false) {
    expect(freshState, "the action changed nothing in /register's state").not.toEqual(oldState);
  }
  await client.delete("/events", { queue_id: queueId });
  await client.delete("/events", { queue_id: after.body.queue_id });
  return events;
}

/**
 * Order-insensitive lists, as Zulip's own test normalises them: lists of objects sorted by their
 * id key (user_id, stream_id, id…), lists of scalars left as they are (their order is meaningful).
 */
export function normalize(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(normalize);
    const key = ID_KEYS.find((k) => items.length > 0 && items.every((i) => typeof i === "object" && i !== null && typeof (i as Json)[k] === "number"));
    return key ? [...items].sort((a, b) => (a as Json)[key] - (b as Json)[key]) : items;
  }
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, normalize(v)]));
  }
  return value;
}

const ID_KEYS = ["user_id", "stream_id", "id", "draft_id"];

export function strip(body: Json, volatile: string[] = []): Record<string, unknown> {
  const out: Record<string, unknown> = { ...body };
  for (const key of ["result", "msg", ...QUEUE_KEYS, ...ALWAYS_VOLATILE, ...volatile]) delete out[key];
  return out;
}

export function withoutId(event: Json): AppEvent {
  const { id: _id, ...rest } = event;
  return rest;
}

/** The StateOptions the server derived from the same /register parameters. */
export function stateOptions(params: Record<string, ParamValue>): StateOptions {
  const flag = (name: string, fallback: boolean) => (typeof params[name] === "boolean" ? (params[name] as boolean) : fallback);
  const subscribers = params.include_subscribers;
  return {
    clientGravatar: flag("client_gravatar", true),
    slimPresence: flag("slim_presence", false),
    applyMarkdown: flag("apply_markdown", false),
    includeSubscribers: subscribers === "partial" ? "partial" : subscribers === "true" || subscribers === true,
    allPublicStreams: flag("all_public_streams", false),
    capabilities: { notification_settings_null: false, ...(params.client_capabilities as Record<string, boolean>) },
    narrow: (params.narrow as [string, string][] | undefined) ?? [],
  };
}
