/**
 * What the key bindings of shortcuts.tsx act with: the open list and its selected message, moves
 * through messages, conversations, channels and lists, and the compose box's Markdown marks.
 */
import { loadMore, markRead } from "../../api/lists.js";
import { refOf, topicKey } from "../../state/conversation.js";
import { narrowKey, parseHash, type Route, termsToHash } from "../../state/narrow.js";
import { current, state } from "../../state/store.js";
import type { Message, MessageList, State, Term, UnreadRef } from "../../state/types.js";
import type { ComposeValue } from "../compose/compose-state.js";
import { closeDialog, dialog } from "../overlay.js";
import { select, selectedIn } from "./pointer.js";

/** What a binding answers: false when the key did nothing here (the browser then keeps its own use of it). */
export type Binding = (e: KeyboardEvent) => boolean | void;

export const HELP_TITLE = "Keyboard shortcuts";
export const go = (hash: string) => {
  if (location.hash === hash) return false;
  location.hash = hash;
  return true;
};

/** The route of the address bar now (the route signal follows it a moment later, on hashchange). */
export function routeNow(): Route {
  return parseHash(location.hash, current());
}

export function openList(s: State): MessageList | undefined {
  const r = routeNow();
  return r.view === "feed" ? s.lists.get(narrowKey(r.terms)) : undefined;
}

/** The selected message of the open list, with the list. */
export function selected(): { s: State; list: MessageList; m: Message } | null {
  const s = state.value;
  const list = s && openList(s);
  if (!s || !list) return null;
  const m = s.messages.get(selectedIn(list, s));
  return m ? { s, list, m } : null;
}

/** Runs `fn` on the selected message, if there is one. */
export const onSelected = (fn: (m: Message, s: State, list: MessageList) => boolean | void): Binding => () => {
  const sel = selected();
  if (!sel) return false;
  return fn(sel.m, sel.s, sel.list);
};

export const destination = (m: Message, s: State): Partial<ComposeValue> => {
  const ref = refOf(m, s.me);
  return ref.kind === "stream" ? { kind: "stream", streamId: ref.streamId, topic: ref.topic } : { kind: "private", to: ref.key.split(",").map(Number) };
};

export const conversationTerms = (ref: UnreadRef): Term[] =>
  ref.kind === "stream" ? [{ operator: "channel", operand: String(ref.streamId) }, { operator: "topic", operand: ref.topic }] : [{ operator: "dm", operand: ref.key }];

/** Moves the selection `by` messages (or to an end) in the open list. */
export function move(to: (ids: readonly number[], at: number) => number): Binding {
  return () => {
    const sel = selected();
    if (!sel) return false;
    const ids = sel.list.ids;
    const at = Math.max(0, Math.min(ids.length - 1, to(ids, ids.indexOf(sel.m.id))));
    const id = ids[at];
    if (id !== undefined) select(sel.list.key, id);
    return true;
  };
}

/**
 * Selects the first or last message of the open list, fetching pages until the list's end is
 * reached; the last also marks every message of the list read (as Zulip's End does).
 */
export function toEnd(direction: "older" | "newer"): boolean {
  const sel = selected();
  if (!sel) return false;
  const key = sel.list.key;
  void (async () => {
    for (let i = 0; i < 100; i++) {
      const list = current().lists.get(key);
      if (!list || (direction === "older" ? list.foundOldest : list.foundNewest)) break;
      await loadMore(key, direction);
      if (current().lists.get(key) === list) await new Promise((done) => setTimeout(done, 100));
    }
    const s = current();
    const list = s.lists.get(key);
    const id = direction === "older" ? list?.ids[0] : list?.ids[list.ids.length - 1];
    if (!list || id === undefined) return;
    if (direction === "newer") for (const m of list.ids) if (!s.messages.get(m)?.flags.includes("read")) markRead(m);
    select(key, id);
  })().catch(() => undefined);
  return true;
}

/** Scrolls the message list by most of a screen and selects the first message then at the top. */
export function page(direction: 1 | -1): Binding {
  return () => {
    const sel = selected();
    const box = document.querySelector<HTMLElement>(".feed .scroller");
    if (!sel || !box) return false;
    box.scrollBy({ top: direction * box.clientHeight * 0.8 });
    const top = box.getBoundingClientRect().top;
    const row = [...box.querySelectorAll<HTMLElement>(".message")].find((el) => el.getBoundingClientRect().top >= top);
    if (row) select(sel.list.key, Number(row.dataset.id), false);
    return true;
  };
}

/** The next conversation with unread messages after the open one (by oldest unread message). */
export function nextUnread(want: (ref: UnreadRef, s: State) => boolean): Binding {
  return () => {
    const s = current();
    const r = routeNow();
    const here = r.view === "feed" ? narrowKey(r.terms) : "";
    const seen = new Set<string>();
    for (const id of [...s.unread.keys()].sort((a, b) => a - b)) {
      const ref = s.unread.get(id);
      if (!ref || !want(ref, s)) continue;
      const key = narrowKey(conversationTerms(ref));
      if (key === here || seen.has(key)) continue;
      seen.add(key);
      return go(termsToHash(conversationTerms(ref), s));
    }
    return false;
  };
}
export const topicMuted = (s: State, streamId: number, topic: string) => s.userTopics.get(topicKey(streamId, topic)) === 1 || (s.subs.get(streamId)?.is_muted === true && s.userTopics.get(topicKey(streamId, topic)) === undefined);

/** The open channel (from the route's terms), if any. */
export function openChannel(): number | null {
  const r = routeNow();
  const t = r.view === "feed" ? r.terms.find((x) => (x.operator === "channel" || x.operator === "stream") && !x.negated) : undefined;
  return t && /^\d+$/.test(t.operand) ? Number(t.operand) : null;
}

/** The channels in the left sidebar's order (pinned first, then by name). */
export function channelOrder(s: State): number[] {
  const lower = (x: string) => x.toLowerCase();
  return [...s.subs.values()].sort((a, b) => Number(b.pin_to_top) - Number(a.pin_to_top) || (lower(a.name) < lower(b.name) ? -1 : lower(a.name) > lower(b.name) ? 1 : 0)).map((x) => x.stream_id);
}
export function cycleChannel(by: 1 | -1): Binding {
  return () => {
    const s = current();
    const order = channelOrder(s);
    if (order.length === 0) return false;
    const at = order.indexOf(openChannel() ?? -1);
    const next = order[at < 0 ? (by === 1 ? 0 : order.length - 1) : (at + by + order.length) % order.length] ?? 0;
    return go(termsToHash([{ operator: "channel", operand: String(next) }], s));
  };
}

/** Focuses the first element matching `selector` once it is drawn (a view may be about to open). */
export function focusSoon(selector: string, tries = 20): void {
  const el = document.querySelector<HTMLElement>(selector);
  if (el) {
    el.focus();
    if (el instanceof HTMLInputElement) el.select();
  } else if (tries > 0) requestAnimationFrame(() => focusSoon(selector, tries - 1));
}

/** Wraps the compose text's selection (a Markdown mark), as if typed: the box's own input handler saves it. */
export function wrap(before: string, after: string, placeholder: string): Binding {
  return (e) => {
    const el = e.target as HTMLTextAreaElement;
    const start = el.selectionStart;
    const end = el.selectionEnd;
    const inner = el.value.slice(start, end);
    el.setRangeText(`${before}${inner}${after}`, start, end, "end");
    if (inner === "" && placeholder === "") el.setSelectionRange(start + before.length, start + before.length);
    else if (placeholder !== "") {
      const at = start + before.length + inner.length + after.length - placeholder.length - 1;
      el.setSelectionRange(at, at + placeholder.length);
    }
    el.dispatchEvent(new Event("input", { bubbles: true }));
  };
}

/** The hash of the view Esc leads to (the user's home view setting). */
export function homeHash(s: State): string {
  const home = String(s.settings.web_home_view ?? "inbox");
  return home === "recent_topics" ? "#recent" : home === "all_messages" ? "#feed" : "#inbox";
}

/** The last hash outside the drafts and settings views (where D and G lead back to). */
let before = "#inbox";
export const hashBefore = () => before;
export function noteHash(): void {
  if (!/^#(drafts|settings|organization)/.test(location.hash)) before = location.hash || "#inbox";
}

export function toggleDialog(title: string, open: () => void): void {
  if (dialog.value?.title === title) closeDialog();
  else open();
}

/** Moves focus to the next or previous conversation link of Recent conversations. */
export function stepRecent(by: 1 | -1): boolean {
  const links = [...document.querySelectorAll<HTMLAnchorElement>(".recent-table a[href]")];
  if (links.length === 0) return false;
  const at = links.indexOf(document.activeElement as HTMLAnchorElement);
  const next = links[at < 0 ? (by === 1 ? 0 : links.length - 1) : Math.max(0, Math.min(links.length - 1, at + by))];
  next?.focus();
  next?.scrollIntoView({ block: "nearest" });
  return true;
}

/** The channel browser's row holding focus. */
export const focusedChannel = (e: KeyboardEvent) => (e.target as HTMLElement).closest<HTMLElement>(".channel-list li");

/** Moves focus along the channel browser's list (its links); up from the first reaches the filter. */
export function stepChannel(by: 1 | -1): boolean {
  const links = [...document.querySelectorAll<HTMLAnchorElement>(".channel-list li > a[href]")];
  const active = document.activeElement as HTMLElement | null;
  const at = links.findIndex((a) => a.parentElement?.contains(active) === true);
  if (by === -1 && at <= 0) {
    focusSoon("input.filter");
    return at === 0;
  }
  const next = links[Math.min(links.length - 1, at + by)];
  next?.focus();
  next?.scrollIntoView({ block: "nearest" });
  return next !== undefined;
}

/** The draft whose row has focus. */
export function focusedDraft(e: KeyboardEvent) {
  const id = Number((e.target as HTMLElement).closest<HTMLElement>(".draft")?.dataset.draftId);
  return current().drafts.get(id);
}
