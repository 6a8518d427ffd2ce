/**
 * What the compose box holds (recipient and text), kept in localStorage on every change so no typed
 * text is lost, and synced to the server's drafts (debounced). Not a copy of server state: the
 * drafts it syncs come back through events into state.drafts like everyone else's.
 */
import { signal } from "@preact/signals";
import { createDraft, deleteDraft, editDraft, sendTyping, type Destination, type DraftInput } from "../../api/compose.js";
import { dmKeyOf } from "../../state/conversation.js";
import { current } from "../../state/store.js";
import type { Route } from "../../state/narrow.js";
import type { Draft } from "../../state/types.js";

export type ComposeValue = {
  kind: "stream" | "private";
  streamId: number | null;
  topic: string;
  to: number[];
  content: string;
  /** The server draft this text is saved in, if any. */
  draftId: number | null;
};

const STORAGE_KEY = "rookery.compose";
const DRAFT_DELAY_MS = 800;

export const empty = (): ComposeValue => ({ kind: "stream", streamId: null, topic: "", to: [], content: "", draftId: null });

function stored(): ComposeValue | null {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    return raw ? ({ ...empty(), ...(JSON.parse(raw) as Partial<ComposeValue>) } as ComposeValue) : null;
  } catch {
    return null;
  }
}

/** The compose box's value; restored from localStorage at load. */
export const compose = signal<ComposeValue>(stored() ?? empty());
/** Whether the stored value was restored (the first narrow then does not replace it). */
export const restored = { value: compose.value.content !== "" };

let draftTimer: ReturnType<typeof setTimeout> | null = null;
let saving: Promise<void> = Promise.resolve();

/** Changes the compose value: stored at once, synced to the server's drafts soon. */
export function setCompose(patch: Partial<ComposeValue>): void {
  compose.value = { ...compose.value, ...patch };
  persist();
  if (draftTimer) clearTimeout(draftTimer);
  draftTimer = setTimeout(() => void flushDraft(), DRAFT_DELAY_MS);
}

function persist(): void {
  try {
    if (compose.value.content === "") localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, JSON.stringify(compose.value));
  } catch {
    // Storage full or disabled: the server draft still holds the text.
  }
}

export function destinationOf(v: ComposeValue): Destination | null {
  if (v.kind === "stream") return v.streamId === null ? null : { type: "stream", streamId: v.streamId, topic: v.topic };
  return v.to.length === 0 ? null : { type: "private", to: v.to };
}

function draftInput(v: ComposeValue): DraftInput {
  const dest = destinationOf(v);
  const base = { content: v.content, timestamp: Math.floor(Date.now() / 1000) };
  if (!dest) return { ...base, type: "", to: [], topic: "" };
  return dest.type === "stream" ? { ...base, type: "stream", to: [dest.streamId], topic: dest.topic } : { ...base, type: "private", to: dest.to, topic: "" };
}

/** The conversation a compose value writes to, as a key ("" with no recipient). */
const convKey = (v: ComposeValue) => JSON.stringify(destinationOf(v));
/** Draft ids created in this page, by conversation (a save queued before the create answered finds it here). */
const knownDrafts = new Map<string, number>();

/** Saves `v` (by default the box's text) as a server draft now: created, edited, or deleted when empty. */
export function flushDraft(v: ComposeValue = compose.value): Promise<void> {
  if (draftTimer) clearTimeout(draftTimer);
  draftTimer = null;
  const key = convKey(v);
  saving = saving.then(async () => {
    const isEmpty = v.content.trim() === "";
    // Text restored after a reload may not know the draft its create made (the page went before the
    // answer came): it saves into that conversation's draft rather than a second one. An empty box
    // deletes only a draft it knows, never one it was not showing.
    const id = v.draftId ?? knownDrafts.get(key) ?? (isEmpty || key === "null" ? null : (draftFor(v, [...current().drafts.values()])?.id ?? null));
    if (id !== null && !isEmpty) knownDrafts.set(key, id);
    try {
      if (isEmpty) {
        if (id !== null) {
          knownDrafts.delete(key);
          await deleteDraft(id);
        }
      } else if (id === null) {
        const newId = await createDraft(draftInput(v));
        knownDrafts.set(key, newId);
        const now = compose.value;
        if (now.draftId === null && convKey(now) === key && now.content !== "") {
          compose.value = { ...now, draftId: newId };
          persist();
        }
      } else await editDraft(id, draftInput(v));
    } catch {
      // Kept in localStorage; the next change tries again.
    }
  });
  return saving;
}

/** Puts the text away as a draft (saved now) and empties the box; the conversation brings it back. */
export function putAway(): Promise<void> {
  const v = compose.value;
  if (v.content.trim() === "") return Promise.resolve();
  const saved = flushDraft(v);
  compose.value = { ...v, content: "", draftId: null };
  persist();
  return saved;
}

/** Forgets the draft of a sent message (deleted on the server). */
export function dropDraft(v: ComposeValue): void {
  void flushDraft({ ...v, content: "" });
}

/** The compose value a narrow opens with: its recipient, and its draft's text if one exists. */
export function valueForRoute(r: Route): ComposeValue | null {
  if (r.view !== "feed") return null;
  const channel = r.terms.find((t) => (t.operator === "channel" || t.operator === "stream") && !t.negated);
  const topic = r.terms.find((t) => (t.operator === "topic" || t.operator === "subject") && !t.negated);
  const dm = r.terms.find((t) => (t.operator === "dm" || t.operator === "pm-with") && !t.negated && /^\d+(,\d+)*$/.test(t.operand));
  const s = current();
  let v: ComposeValue | null = null;
  if (channel && /^\d+$/.test(channel.operand)) v = { ...empty(), kind: "stream", streamId: Number(channel.operand), topic: topic?.operand ?? "" };
  else if (dm) v = { ...empty(), kind: "private", to: dm.operand.split(",").map(Number).filter((id) => id !== s.me || dm.operand === String(s.me)) };
  if (!v) return null;
  const d = draftFor(v, [...s.drafts.values()]);
  return d ? { ...v, content: d.content, draftId: d.id } : v;
}

function draftFor(v: ComposeValue, drafts: Draft[]): Draft | undefined {
  const me = current().me;
  const sorted = drafts.sort((a, b) => b.timestamp - a.timestamp);
  if (v.kind === "stream") return sorted.find((d) => d.type === "stream" && d.to[0] === v.streamId && d.topic.toLowerCase() === v.topic.toLowerCase());
  return sorted.find((d) => d.type === "private" && dmKeyOf(d.to, me) === dmKeyOf(v.to, me));
}

// Typing notifications, at Zulip's pace: "start" again every 10 s while typing, "stop" 5 s after the last key.
const TYPING_RESEND_MS = 10000;
const TYPING_IDLE_MS = 5000;
let typingTo: { key: string; dest: Destination; sentAt: number } | null = null;
let typingIdle: ReturnType<typeof setTimeout> | null = null;

/** Called on each edit of the text: sends "start" when due, and "stop" after a pause. */
export function noteTyping(v: ComposeValue): void {
  const dest = destinationOf(v);
  if (!dest || v.content.trim() === "" || (dest.type === "stream" && dest.topic === "")) {
    stopTyping();
    return;
  }
  const key = JSON.stringify(dest);
  if (typingTo && typingTo.key !== key) stopTyping();
  const now = Date.now();
  if (!typingTo || now - typingTo.sentAt >= TYPING_RESEND_MS) {
    typingTo = { key, dest, sentAt: now };
    void sendTyping(dest, "start").catch(() => undefined);
  }
  if (typingIdle) clearTimeout(typingIdle);
  typingIdle = setTimeout(stopTyping, TYPING_IDLE_MS);
}

/** Sends "stop" for the conversation we last said we were typing in. */
export function stopTyping(): void {
  if (typingIdle) clearTimeout(typingIdle);
  typingIdle = null;
  if (!typingTo) return;
  const dest = typingTo.dest;
  typingTo = null;
  void sendTyping(dest, "stop").catch(() => undefined);
}
