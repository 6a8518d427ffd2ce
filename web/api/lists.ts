/** Loading a narrow's messages by anchor into the state, and marking messages read in batches. */
import { applyFetched, applyFlags } from "../state/apply-messages.js";
import { withFirstPage } from "../state/early.js";
import { apiNarrow, narrowKey } from "../state/narrow.js";
import { current, update } from "../state/store.js";
import type { State, Term } from "../state/types.js";
import { fetchFirstPage } from "./first-page.js";
import { fetchMessages, updateFlags, type FetchAnswer } from "./messages.js";

const inFlight = new Set<string>();
const BATCH = 100;
const prefetched = new Map<string, Promise<FetchAnswer>>();

const firstPage = (terms: Term[]): Promise<FetchAnswer> => fetchFirstPage(terms);

/** Starts fetching a narrow's first page before /register answers (the page's first narrow). */
export function prefetchList(terms: Term[]): void {
  const answer = firstPage(terms);
  answer.catch(() => undefined);
  prefetched.set(narrowKey(terms), answer);
}

/** The prefetched first page of a narrow (null when it failed), while /register has not yet taken it. */
export function prefetchedPage(terms: Term[]): Promise<FetchAnswer | null> | undefined {
  return prefetched.get(narrowKey(terms))?.catch(() => null);
}

/**
 * The first state after /register: with the open narrow's prefetched first page already in it
 * (waiting up to `waitMs` for that page), so the first render draws the shell and the list together.
 */
export async function withPrefetched(s: State, terms: Term[], waitMs: number): Promise<State> {
  const key = narrowKey(terms);
  const early = prefetched.get(key);
  if (!early) return s;
  const answer = await Promise.race([early.catch(() => null), new Promise<null>((resolve) => setTimeout(() => resolve(null), waitMs))]);
  if (!answer) return s;
  prefetched.delete(key);
  const { next, missed } = withFirstPage(s, terms, answer, true);
  if (missed) setTimeout(() => void loadMore(key, "newer").catch(() => undefined), 0);
  return next;
}

/** Fetches a narrow's first page around its anchor (near:/with: id, else the first unread). */
export async function loadList(terms: Term[]): Promise<void> {
  const key = narrowKey(terms);
  if (inFlight.has(`${key}:init`)) return;
  inFlight.add(`${key}:init`);
  try {
    const early = prefetched.get(key);
    prefetched.delete(key);
    const answer = await (early ?? firstPage(terms)).catch(() => firstPage(terms));
    let missed = false;
    update((s) => {
      const out = withFirstPage(s, terms, answer, early !== undefined);
      missed = out.missed;
      return out.next;
    });
    if (missed) await loadMore(key, "newer");
  } finally {
    inFlight.delete(`${key}:init`);
  }
}

/** Fetches the page before the oldest (older) or after the newest (newer) message of a list. */
export async function loadMore(key: string, direction: "older" | "newer"): Promise<void> {
  const list = current().lists.get(key);
  if (!list || inFlight.has(`${key}:${direction}`)) return;
  if (direction === "older" ? list.foundOldest : list.foundNewest) return;
  const edge = direction === "older" ? list.ids[0] : list.ids[list.ids.length - 1];
  if (edge === undefined) return;
  inFlight.add(`${key}:${direction}`);
  try {
    const answer = await fetchMessages(apiNarrow(list.terms), edge, direction === "older" ? BATCH : 0, direction === "newer" ? BATCH : 0);
    update((s) => applyFetched(s, s.lists.get(key) ?? list, answer.messages, direction === "older" ? { oldest: answer.found_oldest } : { newest: answer.found_newest }));
  } finally {
    inFlight.delete(`${key}:${direction}`);
  }
}

/** Loads the newest messages of the combined feed (Recent conversations and topic lists use them). */
export async function loadRecent(): Promise<void> {
  const answer = await fetchMessages([], "newest", 400, 0);
  update((s) => applyFetched(s, s.lists.get(narrowKey([])) ?? { key: narrowKey([]), terms: [], ids: [], foundOldest: false, foundNewest: false, anchor: null }, answer.messages, { oldest: answer.found_oldest, newest: true }));
}

let pendingRead = new Set<number>();
let readTimer: ReturnType<typeof setTimeout> | null = null;

/** Marks a message read soon: ids are batched into one POST /messages/flags, counts drop at once. */
export function markRead(id: number): void {
  if (pendingRead.has(id)) return;
  pendingRead.add(id);
  readTimer ??= setTimeout(flushRead, 300);
}

async function flushRead(): Promise<void> {
  readTimer = null;
  const ids = [...pendingRead];
  pendingRead = new Set();
  if (ids.length === 0) return;
  update((s) => applyFlags(s, { id: -1, type: "update_message_flags", op: "add", flag: "read", messages: ids, all: false }));
  try {
    await updateFlags(ids, "add", "read");
  } catch {
    // The server's state wins: its event (or the next register) sets the counts right.
  }
}
