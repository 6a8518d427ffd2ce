/**
 * The page's first message list, drawn with plain DOM by boot.ts as soon as the open narrow's first
 * page arrives, before the app's modules have run. It is the app's own markup, element for element
 * (the shell as App draws it before /register, the feed as Feed and MessageRow draw it), from the
 * same early state (state/early.ts) and the same row plan (feed-window.ts), at the same scroll
 * position. The app then renders into it (app-start.tsx): Preact adopts these elements in place (no row
 * drawn twice, no flash), and Feed keeps the scroll position and marks (adoptFirstDraw).
 *
 * The server's rendered message HTML is inserted as the feed inserts it; every other string
 * (names, channels, topics) is text.
 */
import { earlyState, type PageAnswer } from "../state/early.js";
import { narrowKey, termsToHash } from "../state/narrow.js";
import { fromRegister } from "../state/snapshot.js";
import type { Message, MessageList, State, Term } from "../state/types.js";
import { avatarUrl, initialsBackground, initialsOf } from "./avatar-look.js";
import { describeNarrow } from "./describe.js";
import { bounds, defaultSelected, initialWin, openingScroll, padFor, planRows } from "./feed-window.js";
import { dayOf, fullTimeOf, timeOf } from "./format.js";
import { fillEmoji } from "./rendered-emoji.js";

/** What boot.ts tells the app about its first draw. */
export type FirstDraw = {
  /** The narrow drawn (narrowKey). */
  key: string;
  /** Resolves once the list is painted (true), or when there is nothing drawn (false). */
  drawn: Promise<boolean>;
  /** The scroller drawn, until the feed adopts it. */
  scroller: HTMLElement | null;
};

const shared = globalThis as { rookeryFirstDraw?: FirstDraw };

/** The first draw boot.ts started, if any. */
export const firstDraw = (): FirstDraw | undefined => shared.rookeryFirstDraw;

/**
 * Called by Feed when it opens `key`: when boot.ts drew this list, the feed takes it as it is (no
 * scrolling to the anchor, which the first draw did and the person may have scrolled from since)
 * and gets the scroller's position to keep; else null.
 */
export function adoptFirstDraw(key: string): { scrollTop: number } | null {
  const fd = shared.rookeryFirstDraw;
  const box = fd?.scroller;
  if (!fd || !box || fd.key !== key || !box.isConnected) return null;
  fd.scroller = null;
  return { scrollTop: box.scrollTop };
}

/** Draws the open narrow's list from its first page when it arrives (boot.ts). */
export function startFirstDraw(answer: Promise<PageAnswer | null>, terms: Term[]): void {
  const hash = location.hash;
  let settle: (drew: boolean) => void = () => undefined;
  const record: FirstDraw = { key: narrowKey(terms), drawn: new Promise<boolean>((resolve) => (settle = resolve)), scroller: null };
  shared.rookeryFirstDraw = record;
  const give = (a: PageAnswer | null) => {
    const root = document.getElementById("app");
    // The app may have drawn already (when its modules ran first), or the person moved on.
    if (!a || !root || root.firstChild || location.hash !== hash) return settle(false);
    const s = earlyState(fromRegister({ realm_name: document.title }), terms, a);
    const box = s ? draw(root, s, terms) : null;
    if (!box) return settle(false);
    record.scroller = box;
    // For the benchmarks: the list is in the DOM; the frame it is painted in. The app renders into it after that frame.
    performance.mark("rookery:list-drawn", { detail: record.key });
    let done = false;
    const after = () => {
      if (done) return;
      done = true;
      settle(true);
    };
    requestAnimationFrame(() => {
      performance.mark("rookery:list-painted", { detail: record.key });
      setTimeout(after, 0);
    });
    // A tab in the background gets no frames: the app does not wait for one.
    setTimeout(after, 250);
  };
  answer.then(give, () => settle(false));
}

type Child = Node | string | null | false;

function el(tag: string, attrs: Record<string, string>, ...children: Child[]): HTMLElement {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  for (const c of children) if (c !== null && c !== false) e.append(c);
  return e;
}

/** Whether a message is drawn here; the rarer kinds (widgets, reactions, collapsed) leave the list to the app. */
const simple = (m: Message) => m.type === "stream" && m.submessages.length === 0 && m.reactions.length === 0 && !m.flags.includes("collapsed") && !m.echo;

/**
 * Draws the app's shell with the list's window into `root`, scrolled as Feed scrolls a list it
 * opens; returns the scroller, or null (nothing drawn) when the list is empty or holds a message
 * this draw leaves to the app.
 */
export function draw(root: HTMLElement, s: State, terms: Term[]): HTMLElement | null {
  const list = s.lists.get(narrowKey(terms));
  if (!list || list.ids.length === 0) return null;
  const [lo, hi] = bounds(list, initialWin(list, s));
  const plan = planRows(s, list, lo, hi);
  if (!plan.every((r) => simple(r.m))) return null;
  const selected = defaultSelected(list, s);

  const rows = el("div", { class: "rows" });
  const fragment = document.createDocumentFragment();
  for (const { m, bar, showSender } of plan) {
    if (bar) fragment.append(groupHead(s, m));
    fragment.append(row(s, m, showSender, m.id === selected));
  }
  rows.append(fragment);
  const spacer = el("div", { class: "spacer", "aria-hidden": "true" });
  spacer.style.height = `${padFor(0, lo)}px`;
  const scroller = el(
    "div",
    { class: "scroller" },
    spacer,
    lo === 0 && el("p", { class: "edge" }, list.foundOldest ? "This is the start of the conversation." : "Loading older messages…"),
    rows,
    list.foundNewest && hi === list.ids.length && el("div", { class: "typing", "aria-live": "polite" }),
  );
  const stream = terms.find((t) => t.operator === "channel" || t.operator === "stream");
  const description = stream ? s.streams.get(Number(stream.operand))?.rendered_description : undefined;
  const header = el("header", { class: "narrow-header" }, el("h1", {}, describeNarrow(terms, s)));
  if (description) {
    const d = el("div", { class: "description rendered" });
    d.innerHTML = description;
    header.append(d);
  }
  const shell = el(
    "div",
    { class: "app" },
    el("div", { class: "banners" }),
    el(
      "header",
      { class: "top" },
      el("button", { type: "button", class: "menu-toggle", "aria-label": "Views and conversations", "aria-expanded": "false", "aria-controls": "left-nav" }, "☰"),
      el("a", { class: "brand", href: "#inbox" }, String(s.realm.realm_name ?? "Rookery")),
    ),
    el("nav", { class: "left", id: "left-nav", "aria-label": "Views and conversations" }),
    el("main", { class: "middle" }, el("section", { class: "feed", "aria-label": "Messages" }, header, scroller)),
    el("aside", { class: "right", "aria-label": "People" }),
  );
  root.append(shell);
  fillEmoji(rows);
  if (rows.querySelector(".katex")) loadKatex();
  position(scroller, list);
  return scroller;
}

/** Scrolls a list just drawn as Feed does (feed.tsx, the opening layout effect). */
function position(box: HTMLElement, list: MessageList): void {
  if (openingScroll(list) === "anchor") {
    box.querySelector<HTMLElement>(`[data-id="${list.anchor}"]`)?.scrollIntoView({ block: "center" });
    return;
  }
  box.scrollTop = box.scrollHeight;
  requestAnimationFrame(() => {
    if (box.scrollHeight - box.scrollTop - box.clientHeight < 400) box.scrollTop = box.scrollHeight;
  });
}

/** KaTeX's stylesheet (feed.tsx loads it the same way, once). */
export function loadKatex(): void {
  const href = `/static/${KATEX_CSS}`;
  if (document.head.querySelector(`link[href="${href}"]`)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  document.head.append(link);
}

function groupHead(s: State, m: Message): HTMLElement {
  const streamId = m.stream_id ?? 0;
  const name = s.streams.get(streamId)?.name ?? (typeof m.display_recipient === "string" ? m.display_recipient : "unknown");
  const channel = [{ operator: "channel", operand: String(streamId) }];
  const head = el(
    "div",
    { class: "group-head" },
    el(
      "div",
      { class: "recipient-bar" },
      el("a", { class: "channel", href: termsToHash(channel, s) }, "# ", name),
      el("span", { class: "sep", "aria-hidden": "true" }, "›"),
      el("a", { class: "topic", href: termsToHash([...channel, { operator: "topic", operand: m.subject }], s) }, m.subject === "" ? "general chat" : m.subject),
    ),
    el("span", { class: "day" }, dayOf(s, m.timestamp)),
  );
  head.style.setProperty("--channel-color", s.subs.get(streamId)?.color ?? "#c2c2c2");
  return head;
}

function avatar(s: State, m: Message, name: string): HTMLElement {
  const url = avatarUrl(s, m.sender_id, m.avatar_url);
  if (url !== null) return el("img", { class: "avatar", src: url, alt: "", loading: "lazy", width: "36", height: "36" });
  const span = el("span", { class: "avatar initials", "aria-hidden": "true" }, initialsOf(name));
  span.style.width = "36px";
  span.style.height = "36px";
  span.style.background = initialsBackground(m.sender_id);
  return span;
}

function row(s: State, m: Message, showSender: boolean, selected: boolean): HTMLElement {
  const unread = !m.flags.includes("read");
  const starred = m.flags.includes("starred");
  const name = s.users.get(m.sender_id)?.full_name ?? m.sender_full_name;
  const time = timeOf(s, m.timestamp);
  const cls = `message${showSender ? " first" : ""}${selected ? " selected" : ""}${unread ? " unread" : ""}${m.flags.some((f) => f.includes("mentioned")) ? " mentioned" : ""}`;
  const content = el("div", { class: "content rendered" });
  content.innerHTML = m.content;
  const permalink = termsToHash([{ operator: "channel", operand: String(m.stream_id ?? 0) }, { operator: "topic", operand: m.subject }, { operator: "near", operand: String(m.id) }], s);
  return el(
    "article",
    { class: cls, "data-id": String(m.id), "aria-label": `${name}, ${time}` },
    el("div", { class: "gutter" }, showSender ? avatar(s, m, name) : el("time", { class: "hover-time" }, time)),
    el(
      "div",
      { class: "body" },
      showSender && el("div", { class: "sender-line" }, el("span", { class: "sender" }, name), el("a", { class: "time", href: permalink }, el("time", { datetime: new Date(m.timestamp * 1000).toISOString() }, time))),
      content,
      m.last_edit_timestamp ? el("span", { class: "edited", title: `Edited ${fullTimeOf(s, m.last_edit_timestamp)}` }, "EDITED") : null,
    ),
    el(
      "div",
      { class: "actions" },
      el("button", { type: "button", class: starred ? "star on" : "star", "aria-pressed": String(starred), "aria-label": starred ? "Unstar" : "Star", title: starred ? "Unstar this message" : "Star this message" }, starred ? "★" : "☆"),
      el(
        "div",
        { class: "message-actions" },
        el("button", { type: "button", class: "icon-button", "aria-label": "Add emoji reaction", title: "Add emoji reaction" }, "☺", el("span", { class: "plus" }, "+")),
        el("button", { type: "button", class: "icon-button", "aria-label": "Message actions", title: "Message actions", "aria-haspopup": "menu", "aria-expanded": "false" }, "⋮"),
      ),
    ),
  );
}
