import type { AppContext } from "../../context.js";
import { activeStreamsByIds, activeStreamsOfRealm, defaultStreamIds, type StreamRow } from "../../db/queries/streams.js";
import { subscriberIds, subscriptionsOfUser } from "../../db/queries/subscriptions.js";
import type { UserRow } from "../../db/queries/users.js";
import type { ApiStream, AppEvent } from "../../events/types.js";
import { isAdmin, Role } from "../users/roles.js";
import { userSetting } from "../users/settings.js";
import { byName } from "../channels/list.js";
import { apiStream, apiSubscription, canAccessStream, canSeeStream } from "../channels/streams.js";
import type { StateOptions, StateSection } from "./types.js";

/** The user-level settings a null per-channel notification setting inherits. */
const NOTIFICATION_DEFAULTS: Record<string, string> = {
  desktop_notifications: "enable_stream_desktop_notifications",
  audible_notifications: "enable_stream_audible_notifications",
  push_notifications: "enable_stream_push_notifications",
  email_notifications: "enable_stream_email_notifications",
  wildcard_mentions_notify: "wildcard_mentions_notify",
};

/** The channels /register's `streams` lists for a user: all for administrators, else public, web-public and subscribed. */
export async function streamsVisibleTo(ctx: AppContext, user: UserRow): Promise<StreamRow[]> {
  const subscribed = new Set((await subscriptionsOfUser(ctx.db, user.id)).filter((s) => s.active).map((s) => s.stream_id));
  const all = await activeStreamsOfRealm(ctx.db, user.realm_id);
  return all.filter((s) => isAdmin(user) || canAccessStream(user, s, subscribed.has(s.id))).sort(byName);
}

/**
 * subscriptions / unsubscribed / never_subscribed (Zulip's gather_subscriptions_helper) and
 * streams, with subscription and stream events applied to them.
 */
export const streamSection: StateSection = {
  types: ["subscription", "stream"],
  async fetch(ctx, user, want, opts, state) {
    if (want("subscription")) Object.assign(state, await subscriptionState(ctx, user, opts));
    if (want("stream")) state.streams = (await streamsVisibleTo(ctx, user)).map(apiStream);
  },
  apply(state, event, user, opts) {
    if (event.type === "subscription") applySubscription(state, event, user, opts);
    else if (event.type === "stream") applyStream(state, event, opts);
    else if (event.type === "realm_user" && event.op === "update" && event.person.is_active === false) {
      // A deactivated user leaves every subscriber list (Zulip 9 sends no peer_remove for it).
      for (const sub of subLists(state).flat()) {
        if (Array.isArray(sub.subscribers)) sub.subscribers = sub.subscribers.filter((id: number) => id !== event.person.user_id);
      }
    }
  },
};

async function subscriptionState(ctx: AppContext, user: UserRow, opts: StateOptions): Promise<Record<string, unknown>> {
  const rows = await subscriptionsOfUser(ctx.db, user.id);
  const all = await activeStreamsOfRealm(ctx.db, user.realm_id);
  const withSubscribers = opts.includeSubscribers !== false;
  const subscribers = withSubscribers ? await subscriberIds(ctx.db, all.map((s) => s.id)) : new Map<number, number[]>();
  const rowByStream = new Map(rows.map((r) => [r.stream_id, r]));
  const subscribersFor = (s: StreamRow, subscribed: boolean) =>
    withSubscribers ? (canSeeStream(user, s, subscribed) ? (subscribers.get(s.id) ?? []) : []) : undefined;
  const subscriptions: ApiStream[] = [];
  const unsubscribed: ApiStream[] = [];
  const neverSubscribed: ApiStream[] = [];
  for (const stream of [...all].sort(byName)) {
    const row = rowByStream.get(stream.id);
    if (row?.active) subscriptions.push(fillNotifications(apiSubscription(stream, row, subscribersFor(stream, true)), user, opts));
    else if (row && canSeeStream(user, stream, false)) unsubscribed.push(fillNotifications(apiSubscription(stream, row, subscribersFor(stream, false)), user, opts));
    else if (!row && neverSubscribedVisible(user, stream)) {
      const entry: ApiStream = apiStream(stream);
      const list = subscribersFor(stream, false);
      if (list !== undefined) entry.subscribers = list;
      neverSubscribed.push(entry);
    }
  }
  return { subscriptions, unsubscribed, never_subscribed: neverSubscribed };
}

/** Guests see only web-public channels they never joined; others public ones, administrators all. */
function neverSubscribedVisible(user: UserRow, stream: StreamRow): boolean {
  if (user.role === Role.GUEST) return stream.is_web_public === 1;
  return !stream.invite_only || isAdmin(user);
}

/** Without the notification_settings_null capability, null settings read as the user's own defaults. */
function fillNotifications(sub: ApiStream, user: UserRow, opts: StateOptions): ApiStream {
  if (opts.capabilities.notification_settings_null) return sub;
  for (const [field, setting] of Object.entries(NOTIFICATION_DEFAULTS)) {
    if (sub[field] === null) sub[field] = userSetting(user, setting) === true;
  }
  return sub;
}

function list(state: Record<string, unknown>, key: string): ApiStream[] | undefined {
  const value = state[key];
  return Array.isArray(value) ? (value as ApiStream[]) : undefined;
}

function subLists(state: Record<string, unknown>): ApiStream[][] {
  return ["subscriptions", "unsubscribed", "never_subscribed"].map((k) => list(state, k) ?? []);
}

function applySubscription(state: Record<string, unknown>, event: Extract<AppEvent, { type: "subscription" }>, user: UserRow, opts: StateOptions): void {
  const subscriptions = list(state, "subscriptions");
  if (!subscriptions) return;
  const withSubscribers = opts.includeSubscribers !== false;
  if (event.op === "add") {
    const added = new Set(event.subscriptions.map((s) => s.stream_id));
    for (const sub of event.subscriptions) {
      if (subscriptions.some((s) => s.stream_id === sub.stream_id)) continue;
      const copy = fillNotifications(structuredClone(sub), user, opts);
      if (!withSubscribers) delete copy.subscribers;
      subscriptions.push(copy);
    }
    subscriptions.sort(byName);
    state.unsubscribed = (list(state, "unsubscribed") ?? []).filter((s) => !added.has(s.stream_id));
    state.never_subscribed = (list(state, "never_subscribed") ?? []).filter((s) => !added.has(s.stream_id));
  } else if (event.op === "remove") {
    const removed = new Set(event.subscriptions.map((s) => s.stream_id));
    const unsubscribed = list(state, "unsubscribed") ?? [];
    for (const sub of subscriptions.filter((s) => removed.has(s.stream_id))) {
      if (Array.isArray(sub.subscribers)) sub.subscribers = sub.subscribers.filter((id: number) => id !== user.id);
      unsubscribed.push(sub);
    }
    state.subscriptions = subscriptions.filter((s) => !removed.has(s.stream_id));
    state.unsubscribed = unsubscribed.sort(byName);
  } else if (event.op === "update") {
    const sub = subscriptions.find((s) => s.stream_id === event.stream_id);
    if (!sub) return;
    sub[event.property] = event.value;
    if (event.property === "in_home_view") sub.is_muted = !event.value;
    if (event.property === "is_muted") sub.in_home_view = !event.value;
  } else {
    for (const sub of subLists(state).flat()) {
      if (!event.stream_ids.includes(sub.stream_id) || !Array.isArray(sub.subscribers)) continue;
      const ids = new Set<number>(sub.subscribers);
      for (const id of event.user_ids) {
        if (event.op === "peer_add") ids.add(id);
        else ids.delete(id);
      }
      sub.subscribers = [...ids].sort((a, b) => a - b);
    }
  }
}

function applyStream(state: Record<string, unknown>, event: Extract<AppEvent, { type: "stream" }>, opts: StateOptions): void {
  const streams = list(state, "streams");
  if (event.op === "create") {
    for (const stream of event.streams) {
      if (streams && !streams.some((s) => s.stream_id === stream.stream_id)) streams.push(structuredClone(stream));
      const known = subLists(state).slice(0, 2).flat().some((s) => s.stream_id === stream.stream_id);
      const never = list(state, "never_subscribed");
      if (never && !known && !never.some((s) => s.stream_id === stream.stream_id)) {
        const entry = structuredClone(stream);
        if (opts.includeSubscribers !== false) entry.subscribers = [];
        never.push(entry);
        never.sort(byName);
      }
    }
    streams?.sort(byName);
    return;
  }
  if (event.op !== "update") {
    const gone = new Set(event.streams.map((s) => s.stream_id));
    for (const key of ["streams", "subscriptions", "unsubscribed", "never_subscribed", "realm_default_streams"]) {
      const entries = list(state, key);
      if (entries) state[key] = entries.filter((s) => !gone.has(s.stream_id));
    }
    return;
  }
  const keys = ["streams", "subscriptions", "unsubscribed", "never_subscribed", "realm_default_streams"];
  for (const entry of keys.flatMap((k) => list(state, k) ?? [])) applyStreamUpdate(entry, event);
  for (const key of keys) list(state, key)?.sort(byName);
}

/** A stream update event applied to one channel object of the state (others are left alone). */
export function applyStreamUpdate(entry: ApiStream, event: Extract<AppEvent, { type: "stream"; op: "update" }>): void {
  if (entry.stream_id !== event.stream_id) return;
  entry[event.property] = event.value;
  if (event.property === "description") entry.rendered_description = event.rendered_description;
  if (event.property === "invite_only") {
    entry.history_public_to_subscribers = event.history_public_to_subscribers;
    entry.is_web_public = event.is_web_public;
  }
}

/** realm_default_streams (guests get []) and default_streams events. */
export const defaultStreamsSection: StateSection = {
  types: ["default_streams"],
  async fetch(ctx, user, want, _opts, state) {
    if (!want("default_streams")) return;
    if (user.role === Role.GUEST) {
      state.realm_default_streams = [];
      return;
    }
    const streams = await activeStreamsByIds(ctx.db, await defaultStreamIds(ctx.db, user.realm_id));
    state.realm_default_streams = streams.sort(byName).map(apiStream);
  },
  apply(state, event) {
    if (event.type !== "default_streams" || !Array.isArray(state.realm_default_streams)) return;
    state.realm_default_streams = structuredClone(event.default_streams);
  },
};
