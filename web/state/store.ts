/** The app's one source of truth, in signals: the state, the route, the connection. Views read these. */
import { computed, signal } from "@preact/signals";
import { applyEvents } from "./apply.js";
import { unreadByConversation } from "./apply-messages.js";
import type { Route } from "./narrow.js";
import type { ServerEvent, State } from "./types.js";

/** The /register snapshot with every event since applied (null until the first register answers). */
export const state = signal<State | null>(null);

/**
 * False until the first /register has answered. Before, `state` may hold an early state drawn from
 * the open narrow's first page alone (no people, settings or event queue): views that act on the
 * server, or need the whole organisation, wait for this.
 */
export const registered = signal(false);

/** What the middle shows, from location.hash. */
export const route = signal<Route>({ view: "inbox" });

/** "connected", or "reconnecting" with the seconds until the next try. */
export const connection = signal<{ status: "connected" | "reconnecting"; retryIn: number }>({ status: "connected", retryIn: 0 });

/** The current user's state, for code that runs only after the first register. */
export function current(): State {
  const s = state.value;
  if (!s) throw new Error("state read before register");
  return s;
}

/** Replaces the state with `fn(state)`. */
export function update(fn: (s: State) => State): void {
  const s = state.value;
  if (s) state.value = fn(s);
}

/** Applies events from /events. */
export function dispatch(events: readonly ServerEvent[]): void {
  update((s) => applyEvents(s, events, Date.now()));
}

/** A derived value recomputed only when the part of the state it reads changes (by identity). */
function derived<P, T>(part: (s: State) => P, fn: (p: P, s: State) => T, empty: T) {
  let last: { p: P; value: T } | null = null;
  return computed(() => {
    const s = state.value;
    if (!s) return empty;
    const p = part(s);
    if (last?.p !== p) last = { p, value: fn(p, s) };
    return last.value;
  });
}

/** Unread ids per conversation key (derived). */
export const unreadCounts = derived((s) => s.unread, (_u, s) => unreadByConversation(s), new Map<string, number[]>());

/** Unread count per channel (derived). */
export const unreadByStream = derived(
  (s) => s.unread,
  (unread) => {
    const out = new Map<number, number>();
    for (const ref of unread.values()) if (ref.kind === "stream") out.set(ref.streamId, (out.get(ref.streamId) ?? 0) + 1);
    return out;
  },
  new Map<number, number>(),
);
