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
import { escapeHtml as esc } from "../state/local-echo.js";
import { narrowKey, termsToHash } from "../state/narrow.js";
import { pageState } from "../api/first-page.js";
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
    const s = earlyState(pageState(), terms, a);
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

/** Whether a message is drawn here; the rarer kinds (widgets, reactions, collapsed) leave the list to the app. */
const simple = (m: Message) => m.type === "stream" && m.submessages.length === 0 && m.reactions.length === 0 && !m.flags.includes("collapsed") && !m.echo;

/**
 * Draws the app's shell with the list's window into `root`, scrolled as Feed scrolls a list it
 * opens; returns the scroller, or null (nothing drawn) when the list is empty or holds a message
 * this draw leaves to the app. The markup is written as one string and parsed once, but for each
 * message's rendered HTML, parsed into its own element as the feed does.
 */
export function draw(root: HTMLElement, s: State, terms: Term[]): HTMLElement | null {
  const list = s.lists.get(narrowKey(terms));
  if (!list || list.ids.length === 0) return null;
  const [lo, hi] = bounds(list, initialWin(list, s));
  const plan = planRows(s, list, lo, hi);
  if (!plan.every((r) => simple(r.m))) return null;
  const selected = defaultSelected(list, s);
  const hashes = new Map<string, string>();

  let rows = "";
  for (const { m, bar, showSender } of plan) {
    if (bar) rows += groupHead(s, m);
    rows += row(s, m, showSender, m.id === selected, hashes);
  }
  const stream = terms.find((t) => t.operator === "channel" || t.operator === "stream");
  const description = stream ? s.streams.get(Number(stream.operand))?.rendered_description : undefined;
  const edge = lo === 0 ? `<p class="edge">${list.foundOldest ? "This is the start of the conversation." : "Loading older messages…"}</p>` : "";
  const typing = list.foundNewest && hi === list.ids.length ? `<div class="typing" aria-live="polite"></div>` : "";
  // Written into an element outside the page, then moved in whole.
  const holder = document.createElement("div");
  holder.innerHTML =
    `<div class="app"><div class="banners"></div>` +
    `<header class="top"><button type="button" class="menu-toggle" aria-label="Views and conversations" aria-expanded="false" aria-controls="left-nav">☰</button><a class="brand" href="#inbox">${esc(String(s.realm.realm_name ?? "Rookery"))}</a></header>` +
    `<nav class="left" id="left-nav" aria-label="Views and conversations"></nav>` +
    `<main class="middle"><section class="feed" aria-label="Messages"><header class="narrow-header"><h1>${esc(describeNarrow(terms, s))}</h1>${description ? `<div class="description rendered"></div>` : ""}</header>` +
    `<div class="scroller"><div class="spacer" aria-hidden="true" style="height: ${padFor(0, lo)}px;"></div>${edge}<div class="rows">${rows}</div>${typing}</div></section></main>` +
    `<aside class="right" aria-label="People"></aside></div>`;
  const shell = holder.firstElementChild;
  const scroller = holder.querySelector<HTMLElement>(".scroller");
  const box = holder.querySelector<HTMLElement>(".rows");
  if (!shell || !scroller || !box) return null;
  if (description) {
    const d = holder.querySelector(".narrow-header .description");
    if (d) d.innerHTML = description;
  }
  // Each message's HTML in its own element, as the feed puts it: whatever it holds stays inside.
  const contents = box.getElementsByClassName("content");
  plan.forEach(({ m }, i) => {
    const content = contents[i];
    if (content) content.innerHTML = m.content;
  });
  fillEmoji(box);
  if (box.querySelector(".katex")) loadKatex();
  root.append(shell);
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

/** A permalink's hash, its channel-and-topic part computed once per conversation. */
function permalink(s: State, m: Message, hashes: Map<string, string>): string {
  const key = `${m.stream_id ?? 0}\u0000${m.subject}`;
  let base = hashes.get(key);
  if (base === undefined) {
    base = termsToHash([{ operator: "channel", operand: String(m.stream_id ?? 0) }, { operator: "topic", operand: m.subject }], s);
    hashes.set(key, base);
  }
  return `${base}/near/${m.id}`;
}

function groupHead(s: State, m: Message): string {
  const streamId = m.stream_id ?? 0;
  const name = s.streams.get(streamId)?.name ?? (typeof m.display_recipient === "string" ? m.display_recipient : "unknown");
  const channel = [{ operator: "channel", operand: String(streamId) }];
  const color = s.subs.get(streamId)?.color ?? "#c2c2c2";
  return (
    `<div class="group-head" style="--channel-color: ${esc(color)};"><div class="recipient-bar">` +
    `<a class="channel" href="${esc(termsToHash(channel, s))}"># ${esc(name)}</a><span class="sep" aria-hidden="true">›</span>` +
    `<a class="topic" href="${esc(termsToHash([...channel, { operator: "topic", operand: m.subject }], s))}">${esc(m.subject === "" ? "general chat" : m.subject)}</a>` +
    `</div><span class="day">${esc(dayOf(s, m.timestamp))}</span></div>`
  );
}

function avatar(s: State, m: Message, name: string): string {
  const url = avatarUrl(s, m.sender_id, m.avatar_url);
  if (url !== null) return `<img class="avatar" src="${esc(url)}" alt="" loading="lazy" width="36" height="36">`;
  return `<span class="avatar initials" aria-hidden="true" style="width: 36px; height: 36px; background: ${esc(initialsBackground(m.sender_id))};">${esc(initialsOf(name))}</span>`;
}

function row(s: State, m: Message, showSender: boolean, selected: boolean, hashes: Map<string, string>): string {
  const unread = !m.flags.includes("read");
  const starred = m.flags.includes("starred");
  const name = s.users.get(m.sender_id)?.full_name ?? m.sender_full_name;
  const time = esc(timeOf(s, m.timestamp));
  const cls = `message${showSender ? " first" : ""}${selected ? " selected" : ""}${unread ? " unread" : ""}${m.flags.some((f) => f.includes("mentioned")) ? " mentioned" : ""}`;
  const sender = showSender
    ? `<div class="sender-line"><span class="sender">${esc(name)}</span><a class="time" href="${esc(permalink(s, m, hashes))}"><time datetime="${new Date(m.timestamp * 1000).toISOString()}">${time}</time></a></div>`
    : "";
  const edited = m.last_edit_timestamp ? `<span class="edited" title="${esc(`Edited ${fullTimeOf(s, m.last_edit_timestamp)}`)}">EDITED</span>` : "";
  const star = starred
    ? `<button type="button" class="star on" aria-pressed="true" aria-label="Unstar" title="Unstar this message">★</button>`
    : `<button type="button" class="star" aria-pressed="false" aria-label="Star" title="Star this message">☆</button>`;
  return (
    `<article class="${cls}" data-id="${m.id}" aria-label="${esc(name)}, ${time}">` +
    `<div class="gutter">${showSender ? avatar(s, m, name) : `<time class="hover-time">${time}</time>`}</div>` +
    `<div class="body">${sender}<div class="content rendered"></div>${edited}</div>` +
    `<div class="actions">${star}<div class="message-actions">` +
    `<button type="button" class="icon-button" aria-label="Add emoji reaction" title="Add emoji reaction">☺<span class="plus">+</span></button>` +
    `<button type="button" class="icon-button" aria-label="Message actions" title="Message actions" aria-haspopup="menu" aria-expanded="false">⋮</button>` +
    `</div></div></article>`
  );
}
