/**
 * The message feed's window and row plan, without Preact: the feed (feed.tsx) and the page's first
 * draw (first-draw.ts, run by boot.ts before the app has loaded) use the same functions, so both
 * draw the same rows, grouped the same way, at the same place.
 */
import { anchorOf } from "../state/narrow.js";
import { conversationKey, refOf } from "../state/conversation.js";
import type { Message, MessageList, State } from "../state/types.js";
import { dayOf } from "./format.js";

/**
 * At most this many message rows are in the DOM; the window moves by a few rows at a time as you
 * scroll (feed.tsx), so that no frame draws more than a screenful.
 */
export const WINDOW = 300;
/** At most this many rows a list opens with; the window grows from there as you scroll. */
export const OPEN_ROWS = 40;
/**
 * Lower bounds on the height (px) of a row, of a row that shows its sender (the avatar's height and
 * more), and of a recipient bar: a list opens with the rows that fill a screen on each side of its
 * anchor by these (at most half of OPEN_ROWS below it), so fewer rows when they are tall (fewer to
 * build and lay out before the first paint).
 */
const MIN_ROW_PX = 24;
const MIN_SENDER_ROW_PX = 48;
const MIN_BAR_PX = 34;
/** The spacer above the window stays within this many screens, sized by this guess of a row's height. */
export const PAD_SCREENS = 20;
export const ROW_ESTIMATE_PX = 48;
const SAME_SENDER_GAP_S = 10 * 60;

export type Win = { key: string; first: number; last: number; atEnd: boolean };

/** The feed's scroller height (px) as last laid out (noteScrollerHeight); 0 before the app has drawn one. */
let scrollerPx = 0;

/**
 * Called by the feed's ResizeObserver: a list opened later fills that height, not the window's
 * (header and compose take a third of it), so it starts with fewer rows to build and lay out.
 */
export function noteScrollerHeight(px: number): void {
  scrollerPx = px;
}

export const lowerBound = (ids: readonly number[], id: number) => {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((ids[mid] ?? 0) < id) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};

/** The rows [lo, hi) of the list the window shows, never more than WINDOW. */
export function bounds(list: MessageList, win: Win): [number, number] {
  const ids = list.ids;
  let lo = lowerBound(ids, win.first);
  let hi = win.atEnd ? ids.length : lowerBound(ids, win.last + 1);
  if (hi - lo > WINDOW) {
    if (win.atEnd) lo = hi - WINDOW;
    else hi = lo + WINDOW;
  }
  return [lo, Math.max(lo, hi)];
}

/** The window a freshly loaded list opens with: around its anchor (or first unread), else at the end. */
export function initialWin(list: MessageList, s: State): Win {
  const ids = list.ids;
  let at = list.anchor !== null ? lowerBound(ids, list.anchor) : ids.findIndex((id) => !s.messages.get(id)?.flags.includes("read"));
  if (at < 0 || at >= ids.length) at = ids.length - 1;
  const from = Math.max(0, at - OPEN_ROWS);
  const to = Math.min(ids.length, at + OPEN_ROWS);
  const least = new Map(planRows(s, list, from, to).map((r) => [r.m.id, (r.bar ? MIN_BAR_PX : 0) + (r.showSender ? MIN_SENDER_ROW_PX : MIN_ROW_PX)]));
  const px = (i: number) => least.get(ids[i] ?? 0) ?? MIN_ROW_PX;
  // Before any scroller has been laid out (boot.ts's first draw, and the app adopting it): the window's height.
  const screen = Math.max(scrollerPx || innerHeight, 200);
  // Down from the anchor until a screen is full (at most half the rows), then up from it (its row
  // included) as far, with the rest.
  let hi = at + 1;
  for (let below = 0; hi < to && below < screen && hi - at - 1 < OPEN_ROWS / 2; hi++) below += px(hi);
  let lo = at;
  for (let above = px(at); lo > from && above < screen && hi - lo < OPEN_ROWS; ) above += px(--lo);
  return { key: list.key, first: ids[lo] ?? 0, last: ids[hi - 1] ?? 0, atEnd: hi === ids.length };
}

/** How the feed scrolls a list it opens: to its anchor, else to its bottom. */
export const openingScroll = (list: MessageList): "anchor" | "bottom" => (list.anchor !== null ? "anchor" : "bottom");

/**
 * The spacer's height (px) for `above` rows above the window, given its height now: none when no
 * row lies above; else, when it runs short or grows past PAD_SCREENS screens, about the height of
 * the rows above, at most PAD_SCREENS screens (so a scrollbar dragged to the top finds rows soon).
 */
export function padFor(px: number, above: number): number {
  // The window's height, not the scroller's: reading that would force a layout.
  const screen = Math.max(innerHeight, 200);
  if (above === 0) return 0;
  if (px < screen * 2 || px > screen * PAD_SCREENS * 1.5) return Math.min(above * ROW_ESTIMATE_PX, screen * PAD_SCREENS);
  return px;
}

/** The message selected when nothing has been picked: the list's near/with anchor, else the first unread, else the newest. */
export function defaultSelected(list: MessageList, s: State): number {
  const anchor = anchorOf(list.terms);
  if (anchor !== null && list.ids.includes(anchor)) return anchor;
  const unread = list.ids.find((id) => !s.messages.get(id)?.flags.includes("read"));
  return unread ?? list.ids[list.ids.length - 1] ?? 0;
}

/** One row of the window: its message, whether a recipient bar (with the day) opens before it, whether it shows its sender. */
export type RowPlan = { m: Message; bar: boolean; showSender: boolean };

/** The rows [lo, hi) of a list: a bar where the conversation or the day changes, the sender at the start of each run. */
export function planRows(s: State, list: MessageList, lo: number, hi: number): RowPlan[] {
  const out: RowPlan[] = [];
  let prev: Message | undefined;
  let prevConv = "";
  for (let i = lo; i < hi; i++) {
    const m = s.messages.get(list.ids[i] ?? 0);
    if (!m) continue;
    const conv = conversationKey(refOf(m, s.me));
    const newDay = !prev || dayOf(s, prev.timestamp) !== dayOf(s, m.timestamp);
    const bar = conv !== prevConv || newDay;
    const showSender = bar || prev?.sender_id !== m.sender_id || m.timestamp - (prev?.timestamp ?? 0) > SAME_SENDER_GAP_S;
    out.push({ m, bar, showSender });
    prev = m;
    prevConv = conv;
  }
  return out;
}
