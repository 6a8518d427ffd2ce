/**
 * Binds the rows of table.ts: one function per row id (the type demands one for every row with
 * keys), and the one keydown listener that finds the row a key belongs to. Keys are left alone
 * while typing in a text field, except the compose rows in the compose box; Enter and Space are
 * left to a focused link or button; while a dialog or menu is open only the rows that close it act.
 */
import { markUnreadFrom, fetchRaw } from "../../api/actions.js";
import { deleteDraft } from "../../api/compose.js";
import { loadMore, markRead } from "../../api/lists.js";
import { setReaction, setTopicVisibility, updateFlags } from "../../api/messages.js";
import { refOf, topicKey, userName } from "../../state/conversation.js";
import { apiNarrow, narrowKey, parseHash, termsToHash, type Route } from "../../state/narrow.js";
import { current, state } from "../../state/store.js";
import type { Message, MessageList, State, Term, UnreadRef } from "../../state/types.js";
import { permissions, quoteOf } from "../actions/message-actions.js";
import { requestCompose, restoreDraft } from "../compose/compose.js";
import { compose, destinationOf, putAway, setCompose, type ComposeValue } from "../compose/compose-state.js";
import { closeDialog, dialog, openDialog } from "../overlay.js";
import { ProfileCard } from "../right-sidebar/profile-card.js";
import { pointer, select, selectedIn } from "./pointer.js";
import { matches, rows, splitKey, type BoundId, type KeySpec, type Row, type Scope } from "./table.js";

const dialogs = () => import("../actions/dialogs.js");
const picker = () => import("../actions/emoji-picker.js");
const help = () => import("./help.js");

/** What a binding answers: false when the key did nothing here (the browser then keeps its own use of it). */
type Binding = (e: KeyboardEvent) => boolean | void;

const HELP_TITLE = "Keyboard shortcuts";
const go = (hash: string) => {
  if (location.hash === hash) return false;
  location.hash = hash;
  return true;
};

/** The route of the address bar now (the route signal follows it a moment later, on hashchange). */
function routeNow(): Route {
  return parseHash(location.hash, current());
}

function openList(s: State): MessageList | undefined {
  const r = routeNow();
  return r.view === "feed" ? s.lists.get(narrowKey(r.terms)) : undefined;
}

/** The selected message of the open list, with the list. */
function selected(): { s: State; list: MessageList; m: Message } | null {
  const s = state.value;
  const list = s && openList(s);
  if (!s || !list) return null;
  const m = s.messages.get(selectedIn(list, s));
  return m ? { s, list, m } : null;
}

/** Runs `fn` on the selected message, if there is one. */
const onSelected = (fn: (m: Message, s: State, list: MessageList) => boolean | void): Binding => () => {
  const sel = selected();
  if (!sel) return false;
  return fn(sel.m, sel.s, sel.list);
};

const destination = (m: Message, s: State): Partial<ComposeValue> => {
  const ref = refOf(m, s.me);
  return ref.kind === "stream" ? { kind: "stream", streamId: ref.streamId, topic: ref.topic } : { kind: "private", to: ref.key.split(",").map(Number) };
};

const conversationTerms = (ref: UnreadRef): Term[] =>
  ref.kind === "stream" ? [{ operator: "channel", operand: String(ref.streamId) }, { operator: "topic", operand: ref.topic }] : [{ operator: "dm", operand: ref.key }];

/** Moves the selection `by` messages (or to an end) in the open list. */
function move(to: (ids: readonly number[], at: number) => number): Binding {
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
function toEnd(direction: "older" | "newer"): boolean {
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
function page(direction: 1 | -1): Binding {
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
function nextUnread(want: (ref: UnreadRef, s: State) => boolean): Binding {
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
const topicMuted = (s: State, streamId: number, topic: string) => s.userTopics.get(topicKey(streamId, topic)) === 1 || (s.subs.get(streamId)?.is_muted === true && s.userTopics.get(topicKey(streamId, topic)) === undefined);

/** The open channel (from the route's terms), if any. */
function openChannel(): number | null {
  const r = routeNow();
  const t = r.view === "feed" ? r.terms.find((x) => (x.operator === "channel" || x.operator === "stream") && !x.negated) : undefined;
  return t && /^\d+$/.test(t.operand) ? Number(t.operand) : null;
}

/** The channels in the left sidebar's order (pinned first, then by name). */
function channelOrder(s: State): number[] {
  const lower = (x: string) => x.toLowerCase();
  return [...s.subs.values()].sort((a, b) => Number(b.pin_to_top) - Number(a.pin_to_top) || (lower(a.name) < lower(b.name) ? -1 : lower(a.name) > lower(b.name) ? 1 : 0)).map((x) => x.stream_id);
}
function cycleChannel(by: 1 | -1): Binding {
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
function focusSoon(selector: string, tries = 20): void {
  const el = document.querySelector<HTMLElement>(selector);
  if (el) {
    el.focus();
    if (el instanceof HTMLInputElement) el.select();
  } else if (tries > 0) requestAnimationFrame(() => focusSoon(selector, tries - 1));
}

/** Wraps the compose text's selection (a Markdown mark), as if typed: the box's own input handler saves it. */
function wrap(before: string, after: string, placeholder: string): Binding {
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
function homeHash(s: State): string {
  const home = String(s.settings.web_home_view ?? "inbox");
  return home === "recent_topics" ? "#recent" : home === "all_messages" ? "#feed" : "#inbox";
}

/** The last hash outside the drafts and settings views (where D and G lead back to). */
let before = "#inbox";
function noteHash(): void {
  if (!/^#(drafts|settings|organization)/.test(location.hash)) before = location.hash || "#inbox";
}

function toggleDialog(title: string, open: () => void): void {
  if (dialog.value?.title === title) closeDialog();
  else open();
}

/** Moves focus to the next or previous conversation link of Recent conversations. */
function stepRecent(by: 1 | -1): boolean {
  const links = [...document.querySelectorAll<HTMLAnchorElement>(".recent-table a[href]")];
  if (links.length === 0) return false;
  const at = links.indexOf(document.activeElement as HTMLAnchorElement);
  const next = links[at < 0 ? (by === 1 ? 0 : links.length - 1) : Math.max(0, Math.min(links.length - 1, at + by))];
  next?.focus();
  next?.scrollIntoView({ block: "nearest" });
  return true;
}

/** The channel browser's row holding focus. */
const focusedChannel = (e: KeyboardEvent) => (e.target as HTMLElement).closest<HTMLElement>(".channel-list li");

/** Moves focus along the channel browser's list (its links); up from the first reaches the filter. */
function stepChannel(by: 1 | -1): boolean {
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
function focusedDraft(e: KeyboardEvent) {
  const id = Number((e.target as HTMLElement).closest<HTMLElement>(".draft")?.dataset.draftId);
  return current().drafts.get(id);
}

export const bindings: Record<BoundId, Binding> = {
  help: () => toggleDialog(HELP_TITLE, () => void help().then((h) => h.openHelp(HELP_TITLE))),
  home: (e) => {
    const s = current();
    if (e.key === "Escape" && s.settings.web_escape_navigates_to_home_view === false) return false;
    return go(homeHash(s));
  },
  search: () => focusSoon('header.top input[aria-label="Search"]'),
  "filter-channels": () => {
    go("#channels");
    focusSoon('input[aria-label="Filter channels"]');
  },
  "filter-people": () => focusSoon('input[aria-label="Filter people"]'),
  next: move((_ids, at) => at + 1),
  previous: move((_ids, at) => at - 1),
  last: () => toEnd("newer"),
  first: () => toEnd("older"),
  "page-up": page(-1),
  "page-down": page(1),
  back: () => history.back(),
  forward: () => history.forward(),
  "next-unread-topic": nextUnread((ref, s) => ref.kind === "stream" && !topicMuted(s, ref.streamId, ref.topic)),
  "next-unread-followed": nextUnread((ref, s) => ref.kind === "stream" && s.userTopics.get(topicKey(ref.streamId, ref.topic)) === 3),
  "next-unread-dm": nextUnread((ref) => ref.kind === "dm"),
  conversation: onSelected((m, s) => {
    const ref = refOf(m, s.me);
    const terms = conversationTerms(ref);
    const r = routeNow();
    const inTopic = r.view === "feed" && narrowKey(r.terms) === narrowKey(terms);
    return go(termsToHash(inTopic && ref.kind === "stream" ? [{ operator: "channel", operand: String(ref.streamId) }] : terms, s));
  }),
  "dm-feed": () => go("#narrow/is/dm"),
  zoom: onSelected((m, s) => go(termsToHash([...conversationTerms(refOf(m, s.me)), { operator: "near", operand: String(m.id) }], s))),
  "previous-channel": cycleChannel(-1),
  "next-channel": cycleChannel(1),
  inbox: () => go("#inbox"),
  recent: () => go("#recent"),
  "combined-feed": () => go("#feed"),
  starred: () => go("#narrow/is/starred"),
  "composing-to": () => {
    const dest = destinationOf(compose.value);
    if (!dest) return false;
    const s = current();
    const ref: UnreadRef = dest.type === "stream" ? { kind: "stream", streamId: dest.streamId, topic: dest.topic } : { kind: "dm", key: [...dest.to].sort((a, b) => a - b).join(",") };
    return go(termsToHash(ref.kind === "stream" && ref.topic === "" ? [{ operator: "channel", operand: String(ref.streamId) }] : conversationTerms(ref), s));
  },
  "new-channel-message": () => {
    const sel = selected();
    const streamId = openChannel() ?? (sel?.m.type === "stream" ? (sel.m.stream_id ?? null) : null) ?? (compose.value.kind === "stream" ? compose.value.streamId : null);
    setCompose({ kind: "stream", streamId, topic: "" });
    focusSoon(streamId === null ? '.compose-recipient input[aria-label="Channel"]' : '.compose-recipient input[aria-label="Topic"]');
  },
  "new-dm": () => {
    setCompose({ kind: "private", to: [] });
    focusSoon('.compose-recipient input[aria-label="To"]');
  },
  reply: onSelected((m, s) => requestCompose(destination(m, s))),
  quote: onSelected((m, s) => {
    void fetchRaw(m.id).then((raw) => requestCompose(destination(m, s), quoteOf(current(), m, raw)));
  }),
  "reply-sender": onSelected((m, s) => requestCompose({ kind: "private", to: m.sender_id === s.me ? [s.me] : [m.sender_id] })),
  "reply-mention": onSelected((m, s) => requestCompose(destination(m, s), `@**${userName(s, m.sender_id)}** `)),
  // Enter and Ctrl+Enter are the compose box's (its Enter setting decides which sends).
  send: () => false,
  "send-button": (e) => {
    if (e.defaultPrevented) return false;
    focusSoon(".compose button.send");
  },
  "new-line": () => false,
  italic: wrap("*", "*", ""),
  bold: wrap("**", "**", ""),
  link: wrap("[", "](url)", "url"),
  preview: () => {
    const button = document.querySelector<HTMLButtonElement>(".compose-tools button[aria-pressed]");
    if (!button) return false;
    const wasOn = button.getAttribute("aria-pressed") === "true";
    button.click();
    // The button stays where it is (Alt+P again comes back); back to writing, the text has the caret.
    if (wasOn) requestAnimationFrame(() => focusSoon(".compose-box textarea"));
    else button.focus();
  },
  "cancel-compose": (e) => {
    if (e.defaultPrevented) return false;
    void putAway();
    (e.target as HTMLElement).blur();
  },
  "edit-last": () => {
    const s = state.value;
    const list = s && openList(s);
    if (!s || !list) return false;
    for (let i = list.ids.length - 1; i >= 0; i--) {
      const m = s.messages.get(list.ids[i] ?? 0);
      if (!m || m.sender_id !== s.me) continue;
      const can = permissions(s, m);
      if (!can.editContent) continue;
      select(list.key, m.id);
      void dialogs().then((d) => d.openEdit(m, can.editContent, can.editTopic));
      return true;
    }
    return false;
  },
  edit: onSelected((m, s) => {
    const can = permissions(s, m);
    void dialogs().then((d) => d.openEdit(m, can.editContent, can.editTopic));
  }),
  "user-card": onSelected((m, s) => openDialog(userName(s, m.sender_id), () => <ProfileCard userId={m.sender_id} />)),
  "read-receipts": onSelected((m, s) => {
    if (s.realm.realm_enable_read_receipts === false) return false;
    toggleDialog("Read receipts", () => void dialogs().then((d) => d.openReceipts(m)));
  }),
  move: onSelected((m, s) => {
    const can = permissions(s, m);
    if (!can.editTopic && !can.moveChannel) return false;
    void dialogs().then((d) => d.openMove(m, can.moveChannel));
  }),
  "edit-history": onSelected((m) => {
    if (m.last_edit_timestamp === undefined) return false;
    void dialogs().then((d) => d.openHistory(m));
  }),
  star: onSelected((m) => void updateFlags([m.id], m.flags.includes("starred") ? "remove" : "add", "starred").catch(() => undefined)),
  "thumbs-up": onSelected((m, s) => {
    const mine = m.reactions.some((r) => r.reaction_type === "unicode_emoji" && r.emoji_code === "1f44d" && r.user_id === s.me);
    void setReaction(m.id, { emoji_name: "+1", emoji_code: "1f44d", reaction_type: "unicode_emoji" }, !mine).catch(() => undefined);
  }),
  "first-reaction": onSelected((m, s) => {
    const first = m.reactions[0];
    if (!first) return false;
    const mine = m.reactions.some((r) => r.reaction_type === first.reaction_type && r.emoji_code === first.emoji_code && r.user_id === s.me);
    void setReaction(m.id, first, !mine).catch(() => undefined);
  }),
  collapse: onSelected((m) => void updateFlags([m.id], m.flags.includes("collapsed") ? "remove" : "add", "collapsed").catch(() => undefined)),
  "mark-unread": onSelected((m) => {
    const r = routeNow();
    void markUnreadFrom(apiNarrow(r.view === "feed" ? r.terms : []), m.id).catch(() => undefined);
  }),
  "mute-topic": (e) => {
    const s = current();
    let topic: { streamId: number; topic: string } | null = null;
    // In Inbox and Recent: the topic whose link has focus.
    const link = (e.target as HTMLElement).closest<HTMLAnchorElement>(".list-view a[href^='#narrow']");
    if (link) {
      const r = parseHash(link.getAttribute("href") ?? "", s);
      const channel = r.view === "feed" ? r.terms.find((t) => t.operator === "channel") : undefined;
      const name = r.view === "feed" ? r.terms.find((t) => t.operator === "topic") : undefined;
      if (channel && name) topic = { streamId: Number(channel.operand), topic: name.operand };
    } else {
      const sel = selected();
      if (sel?.m.type === "stream") topic = { streamId: sel.m.stream_id ?? 0, topic: sel.m.subject };
    }
    if (!topic) return false;
    const muted = s.userTopics.get(topicKey(topic.streamId, topic.topic)) === 1;
    void setTopicVisibility(topic.streamId, topic.topic, muted ? 0 : 1).catch(() => undefined);
  },
  "recent-down": () => stepRecent(1),
  "recent-up": () => stepRecent(-1),
  drafts: () => (routeNow().view === "drafts" ? go(before) : go("#drafts")),
  "restore-draft": (e) => {
    const d = focusedDraft(e);
    if (!d || (e.target as HTMLElement).closest("button, a")) return false;
    restoreDraft(d);
  },
  "delete-draft": (e) => {
    const d = focusedDraft(e);
    if (!d) return false;
    void deleteDraft(d.id).catch(() => undefined);
  },
  gear: () => {
    const r = routeNow();
    return r.view === "settings" || r.view === "organization" ? go(before) : go("#settings/profile");
  },
  "emoji-menu": onSelected((m) =>
    toggleDialog("Add emoji reaction", () =>
      void picker().then((p) =>
        p.openPicker((e) => {
          closeDialog();
          void setReaction(m.id, e, true).catch(() => undefined);
        }),
      ),
    ),
  ),
  "actions-menu": onSelected((m) => {
    const button = document.querySelector<HTMLButtonElement>(`.message[data-id="${m.id}"] button[aria-label="Message actions"]`);
    if (!button) return false;
    button.click();
  }),
  "create-channel": () => focusSoon("form.create-channel input"),
  "channel-down": () => stepChannel(1),
  "channel-up": () => stepChannel(-1),
  "view-channel": (e) => {
    const link = focusedChannel(e)?.querySelector<HTMLAnchorElement>("a[href]");
    if (!link) return false;
    location.hash = link.getAttribute("href") ?? "";
  },
  "toggle-subscription": (e) => {
    const button = focusedChannel(e)?.querySelector<HTMLButtonElement>("button");
    if (!button) return false;
    button.click();
  },
};

/** Rows that act while a dialog is open (they close it). */
const inDialog = new Set<string>(["help", "read-receipts", "emoji-menu"]);

type Bound = { row: Row & { id: BoundId }; spec: KeySpec };
const bound: Bound[] = (rows as readonly Row[]).flatMap((row) => row.keys.map((key) => ({ row: row as Row & { id: BoundId }, spec: splitKey(key) })));

const typing = (t: HTMLElement) => t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT" || t.isContentEditable;
const pressable = (t: HTMLElement) => t.closest("a[href], button, summary, [role=button], [role=menuitem], [role=option], input, select, textarea") !== null;

/** Where the key was pressed, as a row's scope sees it (the most specific first). */
function scopesOf(t: HTMLElement): Scope[] {
  const out: Scope[] = [];
  if (t.closest(".compose-box, .compose-tools")) out.push("compose");
  const r = routeNow();
  if (r.view === "drafts") out.push("drafts");
  if (r.view === "channels") out.push("channels");
  if (r.view === "recent") out.push("recent");
  return out;
}

/** The row a keydown is for, if any. */
export function rowFor(e: KeyboardEvent): Bound | undefined {
  const t = (e.target instanceof HTMLElement ? e.target : document.body);
  const scopes = scopesOf(t);
  const candidates = bound.filter((b) => matches(b.spec, e));
  // In compose, the keys are the text's; only Alt+P also works on the Preview/Edit button beside it.
  const inText = t.tagName === "TEXTAREA";
  // Elsewhere typing keys stay the field's, but ↓ leaves the channel filter for the list.
  const fieldOk = (b: Bound) => !typing(t) || (b.row.id === "channel-down" && t.matches("input.filter"));
  for (const scope of scopes) {
    const hit = candidates.find((b) => b.row.scope === scope && (scope === "compose" ? inText || b.row.id === "preview" : fieldOk(b)));
    if (hit) return hit;
  }
  const global = candidates.find((b) => (b.row.scope ?? "global") === "global");
  if (!global) return undefined;
  if (typing(t)) return undefined;
  const plain = !global.spec.ctrl && !global.spec.alt;
  if ((e.key === "Enter" || e.key === " ") && plain && pressable(t)) return undefined;
  if ((dialog.value || document.querySelector(".overlay")) && !inDialog.has(global.row.id)) return undefined;
  if (document.querySelector('[role="menu"]') && global.row.id !== "actions-menu") return undefined;
  return global;
}

/** Starts listening for the keys (once, at start-up, before other keydown listeners). */
export function installShortcuts(): void {
  noteHash();
  addEventListener("hashchange", () => {
    noteHash();
    // A narrow opens with its own selection (its anchor, else the first unread message).
    pointer.value = null;
  });
  addEventListener("keydown", (e) => {
    if (e.isComposing || !state.value) return;
    const hit = rowFor(e);
    if (!hit) return;
    const done = bindings[hit.row.id](e);
    if (done !== false) e.preventDefault();
  });
  // A click on a message selects it.
  addEventListener("click", (e) => {
    const row = (e.target as HTMLElement | null)?.closest?.<HTMLElement>(".feed .message[data-id]");
    const s = state.value;
    const list = s && openList(s);
    if (row && list) select(list.key, Number(row.dataset.id), false);
  });
}

export { pointer };
