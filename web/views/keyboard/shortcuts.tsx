/**
 * Binds the rows of table.ts: one function per row id (the type demands one for every row with
 * keys), and the one keydown listener that finds the row a key belongs to. Keys are left alone
 * while typing in a text field, except the compose rows in the compose box; Enter and Space are
 * left to a focused link or button; while a dialog or menu is open only the rows that close it act.
 */
import { fetchRaw, markUnreadFrom } from "../../api/actions.js";
import { deleteDraft } from "../../api/compose.js";
import { setReaction, setTopicVisibility, updateFlags } from "../../api/messages.js";
import { refOf, topicKey, userName } from "../../state/conversation.js";
import { apiNarrow, narrowKey, parseHash, termsToHash } from "../../state/narrow.js";
import { current, state } from "../../state/store.js";
import type { UnreadRef } from "../../state/types.js";
import { permissions, quoteOf } from "../actions/message-actions.js";
import { requestCompose, restoreDraft } from "../compose/compose.js";
import { compose, destinationOf, putAway, setCompose } from "../compose/compose-state.js";
import { closeDialog, dialog, openDialog } from "../overlay.js";
import { ProfileCard } from "../right-sidebar/profile-card.js";
import { pointer, select } from "./pointer.js";
import { type BoundId, type KeySpec, matches, type Row, rows, type Scope, splitKey } from "./table.js";
import { type Binding, conversationTerms, cycleChannel, destination, focusedChannel, focusedDraft, focusSoon, go, hashBefore, HELP_TITLE, homeHash, move, nextUnread, noteHash, onSelected, openChannel, openList, page, routeNow, selected, stepChannel, stepRecent, toEnd, toggleDialog, topicMuted, wrap } from "./moves.js";

const dialogs = () => import("../actions/dialogs.js");
const picker = () => import("../actions/emoji-picker.js");
const help = () => import("./help.js");

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
  drafts: () => (routeNow().view === "drafts" ? go(hashBefore()) : go("#drafts")),
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
    return r.view === "settings" || r.view === "organization" ? go(hashBefore()) : go("#settings/profile");
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
