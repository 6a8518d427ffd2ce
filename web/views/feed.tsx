import type { ComponentChildren } from "preact";
import { useEffect, useLayoutEffect, useRef, useState } from "preact/hooks";
import { loadList, loadMore, markRead } from "../api/lists.js";
import { narrowKey } from "../state/narrow.js";
import type { MessageList, State, Term } from "../state/types.js";
import { dayOf } from "./format.js";
import { bounds, initialWin, noteScrollerHeight, OPEN_ROWS, openingScroll, padFor, planRows, WINDOW, type Win } from "./feed-window.js";
import { adoptFirstDraw, loadKatex } from "./first-draw.js";
import { NarrowHeader } from "./narrow-header.js";
import { TypingNotice } from "./compose/typing.js";
import { fillEmoji } from "./rendered-emoji.js";
import { MessageRow, RecipientBar } from "./message-row.js";
import { useStateOf } from "./select.js";
import { registered } from "../state/store.js";
import { pointer, select, selectedIn } from "./keyboard/pointer.js";

/** The window moves by STEP rows as you scroll, so that no frame draws more than a screenful. */
const STEP = 12;
/** Fetch the next page once fewer fetched rows than this lie beyond the window's edge. */
const FETCH_AHEAD_ROWS = 150;
/** Start moving the window (or fetching) this far from an edge. */
const EDGE_PX = 1200;

/** A narrow's messages: recipient bars, sender runs, a bounded window that follows the scroll. */
export function Feed({ terms }: { terms: Term[] }) {
  const key = narrowKey(terms);
  const s = useStateOf((st) => [st.lists.get(key), st.messages, st.users, st.streams, st.subs, st.realmEmoji, st.settings]);
  const scroller = useRef<HTMLDivElement>(null);
  const spacer = useRef<HTMLDivElement>(null);
  // The spacer's height (px): rows leaving or joining the window above change it, not the rows' places.
  const pad = useRef({ key: "", px: 0 });
  const [win, setWin] = useState<Win | null>(null);
  const pending = useRef<{ id: string; top: number } | "bottom" | "anchor" | null>(null);
  const committedLo = useRef<{ key: string; first: number | undefined; count: number }>({ key: "", first: undefined, count: 0 });
  const drawnFor = useRef("");
  const list = s?.lists.get(key);
  const hasList = list !== undefined;
  // Before /register answers (an early first page): no fetching further and no marking read.
  const ready = registered.value;

  useEffect(() => {
    if (!hasList) void loadList(terms).catch(() => undefined);
  }, [key, hasList]);

  // A newly opened list gets its window in the same render (no empty frame), kept by the effect below.
  const opening = list && s && win?.key !== key ? initialWin(list, s) : null;
  const current = list && win?.key === key ? win : opening;
  // A list boot.ts drew (first-draw.ts) is taken as it is, at the place it was scrolled to.
  const adopted = useRef<{ key: string; scrollTop: number } | null>(null);
  if (opening && list) {
    const taken = adoptFirstDraw(key);
    adopted.current = taken && { key, scrollTop: taken.scrollTop };
    pending.current = taken ? null : openingScroll(list);
  }
  useEffect(() => {
    if (opening) setWin(opening);
  });

  const [lo, hi] = list && current ? bounds(list, current) : [0, 0];
  // The selected message (keys move it; the list scrolls to it).
  const picked = pointer.value;
  const selectedId = list && s ? selectedIn(list, s) : 0;
  const scrolledTo = useRef(0);
  useLayoutEffect(() => {
    if (!list || !current || list.ids.length === 0) return;
    if (picked?.key !== key || !list.ids.includes(picked.id)) {
      select(key, selectedId, false);
      return;
    }
    if (!picked.scroll || scrolledTo.current === picked.n) return;
    const at = list.ids.indexOf(picked.id);
    if (at < lo || at >= hi) {
      // Off the window: the window moves around it first.
      const nLo = Math.max(0, Math.min(at - OPEN_ROWS / 2, list.ids.length - OPEN_ROWS));
      const nHi = Math.min(list.ids.length, nLo + OPEN_ROWS);
      pad.current = { key, px: 0 };
      setWin({ key, first: list.ids[nLo] ?? 0, last: list.ids[nHi - 1] ?? 0, atEnd: nHi === list.ids.length });
      return;
    }
    scrolledTo.current = picked.n;
    scroller.current?.querySelector<HTMLElement>(`.message[data-id="${picked.id}"]`)?.scrollIntoView({ block: "nearest" });
  });
  const el = scroller.current;
  if (el && list && current && !opening && committedLo.current.key === key && pending.current === null) {
    if (current.atEnd && committedLo.current.count !== list.ids.length && nearBottom(el)) pending.current = "bottom";
    else if (committedLo.current.first !== list.ids[lo]) pending.current = capture(el);
  }

  useLayoutEffect(() => {
    const box = scroller.current;
    const top = spacer.current;
    if (!box || !top || !list || !current) return;
    committedLo.current = { key, first: list.ids[lo], count: list.ids.length };
    const p = pending.current;
    pending.current = null;
    const took = adopted.current?.key === key ? adopted.current : null;
    adopted.current = null;
    // The first draw's spacer already has the height the feed gives it (padFor).
    if (pad.current.key !== key) pad.current = { key, px: took ? padFor(0, lo) : 0 };
    if (p && typeof p === "object") restore(box, p, pad.current);
    settlePad(box, top, pad.current, lo);
    if (p === "bottom") {
      box.scrollTop = box.scrollHeight;
      // Rows whose images or fonts arrive late grow after this: once more after the next frame.
      requestAnimationFrame(() => {
        if (box.scrollHeight - box.scrollTop - box.clientHeight < 400) box.scrollTop = box.scrollHeight;
      });
    }
    else if (p === "anchor") box.querySelector<HTMLElement>(`[data-id="${list.anchor}"]`)?.scrollIntoView({ block: "center" });
    loadKatexIfNeeded(box);
    fillEmoji(box);
    if (ready) observeUnread(box);
    if (took) {
      // The same place on screen, whatever Preact's adoption changed on the way.
      if (box.scrollTop !== took.scrollTop) box.scrollTop = took.scrollTop;
      // Marked painted by the first draw already; this is when the app has taken it over.
      drawnFor.current = key;
      performance.mark("rookery:list-adopted", { detail: key });
    }
    if (drawnFor.current !== key && list.ids.length > 0) {
      drawnFor.current = key;
      // For the benchmarks: when a narrow's list is first in the DOM, and the frame after (painted).
      performance.mark("rookery:list-drawn", { detail: key });
      requestAnimationFrame(() => performance.mark("rookery:list-painted", { detail: key }));
    }
  });

  const check = () => {
    const box = scroller.current;
    if (!box || !list || !current) return;
    const len = list.ids.length;
    // Distance scrolled past the spacer, into the rows.
    const intoRows = box.scrollTop - pad.current.px;
    if (intoRows < EDGE_PX && lo > 0) {
      const nLo = Math.max(0, lo - STEP);
      const nHi = Math.min(hi, nLo + WINDOW);
      pending.current = capture(box);
      setWin({ key, first: list.ids[nLo] ?? 0, last: list.ids[nHi - 1] ?? 0, atEnd: nHi === len });
    } else if (box.scrollHeight - box.scrollTop - box.clientHeight < EDGE_PX && hi < len) {
      const nHi = Math.min(len, hi + STEP);
      const nLo = Math.max(lo, nHi - WINDOW);
      pending.current = capture(box);
      setWin({ key, first: list.ids[nLo] ?? 0, last: list.ids[nHi - 1] ?? 0, atEnd: nHi === len });
    }
    // Pages are fetched ahead, while the window still has rows to move through.
    if (!registered.value) return;
    if (lo < FETCH_AHEAD_ROWS && intoRows < EDGE_PX * 4 && !list.foundOldest) void loadMore(key, "older").catch(() => undefined);
    if (len - hi < FETCH_AHEAD_ROWS && box.scrollHeight - box.scrollTop - box.clientHeight < EDGE_PX * 4 && !list.foundNewest) void loadMore(key, "newer").catch(() => undefined);
  };
  const ticking = useRef(false);
  const onScroll = () => {
    if (ticking.current) return;
    ticking.current = true;
    requestAnimationFrame(() => {
      ticking.current = false;
      check();
    });
  };
  // A fetched page may be needed straight away (short lists, or an anchor near an edge).
  useEffect(() => {
    if (current) check();
  }, [list?.ids.length, list?.foundOldest, list?.foundNewest, current?.first, ready]);

  const observer = useRef<IntersectionObserver | null>(null);
  const observeUnread = (box: HTMLElement) => {
    observer.current ??= new IntersectionObserver(
      (entries) => {
        if (document.visibilityState !== "visible") return;
        for (const e of entries) {
          const root = e.rootBounds;
          const seen = e.intersectionRatio >= 0.5 || (root !== null && e.intersectionRect.height >= root.height * 0.5);
          if (!seen) continue;
          markRead(Number((e.target as HTMLElement).dataset.id));
          observer.current?.unobserve(e.target);
        }
      },
      { root: box, threshold: [0, 0.5, 1] },
    );
    for (const row of box.querySelectorAll<HTMLElement>(".message.unread:not([data-observed])")) {
      row.dataset.observed = "1";
      observer.current.observe(row);
    }
  };
  useEffect(() => () => observer.current?.disconnect(), []);

  // A list scrolled to its end stays there when its box gets shorter (compose arriving or growing,
  // the window resized), as chat lists do; otherwise the newest rows would slip below the fold.
  const drawn = s !== undefined;
  useEffect(() => {
    const box = scroller.current;
    if (!box) return;
    let height = box.clientHeight;
    const watch = new ResizeObserver(() => {
      const before = height;
      height = box.clientHeight;
      noteScrollerHeight(height);
      if (height < before && box.scrollHeight - box.scrollTop - before < 40) box.scrollTop = box.scrollHeight;
    });
    watch.observe(box);
    return () => watch.disconnect();
  }, [drawn]);

  if (!s) return null;
  let body: ComponentChildren;
  if (!list) body = <p class="empty" role="status">Loading…</p>;
  else if (list.ids.length === 0) body = <p class="empty">No messages here yet.</p>;
  else body = rows(s, list, lo, hi, selectedId);
  return (
    <section class="feed" aria-label="Messages">
      <NarrowHeader terms={terms} />
      <div class="scroller" ref={scroller} onScroll={onScroll}>
        <div class="spacer" ref={spacer} aria-hidden="true" />
        {list && !list.foundOldest && lo === 0 && <p class="edge">Loading older messages…</p>}
        {list && list.foundOldest && lo === 0 && list.ids.length > 0 && <p class="edge">This is the start of the conversation.</p>}
        <div class="rows" onClick={onContentClick}>
          {body}
        </div>
        {list && list.foundNewest && hi === list.ids.length && <TypingNotice />}
      </div>
    </section>
  );
}

function rows(s: State, list: MessageList, lo: number, hi: number, selectedId: number): ComponentChildren[] {
  const out: ComponentChildren[] = [];
  for (const { m, bar, showSender } of planRows(s, list, lo, hi)) {
    if (bar) {
      out.push(
        <div class={m.type === "stream" ? "group-head" : "group-head dm"} key={`bar-${m.id}`} style={m.type === "stream" ? { "--channel-color": s.subs.get(m.stream_id ?? 0)?.color ?? "#c2c2c2" } : undefined}>
          <RecipientBar s={s} m={m} />
          <span class="day">{dayOf(s, m.timestamp)}</span>
        </div>,
      );
    }
    out.push(<MessageRow key={m.id} s={s} m={m} showSender={showSender} selected={m.id === selectedId} />);
  }
  return out;
}

/** Clicks inside server-rendered content: links to elsewhere open in a new tab; spoilers open and close. */
function onContentClick(e: MouseEvent): void {
  const target = e.target as HTMLElement | null;
  const spoiler = target?.closest(".spoiler-header");
  if (spoiler) {
    spoiler.parentElement?.classList.toggle("open");
    e.preventDefault();
    return;
  }
  const link = target?.closest<HTMLAnchorElement>(".rendered a[href]");
  if (!link) return;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || (!url.pathname.startsWith("/") && url.hash === "")) {
    link.target = "_blank";
    link.rel = "noopener noreferrer";
  } else if (url.pathname === "/" && url.hash.startsWith("#narrow")) {
    e.preventDefault();
    location.hash = url.hash;
  } else if (url.pathname.startsWith("/user_uploads/") || url.pathname.startsWith("/help/")) {
    link.target = "_blank";
    link.rel = "noopener";
  }
}

function nearBottom(box: HTMLElement): boolean {
  return box.scrollHeight - box.scrollTop - box.clientHeight < 40;
}

/** The first row visible at the top of the scroller, and its distance from the top. */
function capture(box: HTMLElement): { id: string; top: number } | null {
  const top = box.getBoundingClientRect().top;
  const rows = box.querySelectorAll<HTMLElement>(".message");
  // Rows are in document order, so a binary search measures a handful of them, not all 300.
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const row = rows[mid];
    if (row && row.getBoundingClientRect().bottom > top) hi = mid;
    else lo = mid + 1;
  }
  const row = rows[lo];
  return row ? { id: row.dataset.id ?? "", top: row.getBoundingClientRect().top - top } : null;
}

/**
 * Puts the captured row back where it was on screen by changing the spacer's height, so the rows
 * that stayed in the window keep their places in the scroller and need no repaint.
 */
function restore(box: HTMLElement, at: { id: string; top: number }, pad: { px: number }): void {
  const row = box.querySelector<HTMLElement>(`.message[data-id="${at.id}"]`);
  if (!row) return;
  const delta = row.getBoundingClientRect().top - box.getBoundingClientRect().top - at.top;
  pad.px -= delta;
}

/**
 * Sets the spacer's height (padFor). A change other than restore()'s moves every row, so the
 * scroll position moves with it: the view stays put, at the price of one repaint.
 */
function settlePad(box: HTMLElement, spacer: HTMLElement, pad: { px: number }, above: number): void {
  const wanted = padFor(pad.px, above);
  // Moved by whole pixels (the spacer's new height within half a pixel of padFor's): the scroll
  // position is whole pixels, so a fractional shift would move the rows on screen by up to one.
  const shift = wanted === 0 ? -pad.px : Math.round(wanted - pad.px);
  const px = pad.px + shift;
  pad.px = px;
  // The position to keep is read before the spacer changes: a shorter spacer can leave the box
  // scrolled past its new end, and the browser would clamp it there before the shift applied.
  const target = box.scrollTop + shift;
  if (spacer.style.height !== `${px}px`) spacer.style.height = `${px}px`;
  if (shift !== 0) box.scrollTop = target;
}

/** KaTeX's stylesheet is fetched the first time a message with math is drawn. */
function loadKatexIfNeeded(box: HTMLElement): void {
  if (box.querySelector(".katex")) loadKatex();
}
