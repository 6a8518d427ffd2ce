/** A narrow's first page merged into a state: before /register (the early state) and after it. */
import { applyFetched } from "./apply-messages.js";
import { anchorOf, narrowKey } from "./narrow.js";
import type { Message, MessageList, State, Term } from "./types.js";

/** What GET /messages answers (the parts used here). */
export type PageAnswer = { messages: Message[]; found_oldest: boolean; found_newest: boolean; found_anchor: boolean; anchor: number };

/**
 * A state to draw before /register answers, from the open narrow's first page alone: its messages
 * (each names its sender, avatar and channel) and their channels' names. Null when the page holds
 * direct messages, whose recipient bars need to know who the current user is.
 */
export function earlyState(s: State, terms: Term[], answer: PageAnswer): State | null {
  if (answer.messages.some((m) => m.type !== "stream")) return null;
  const streams = new Map(s.streams);
  for (const m of answer.messages) {
    const id = m.stream_id ?? 0;
    if (!streams.has(id) && typeof m.display_recipient === "string") streams.set(id, { stream_id: id, name: m.display_recipient, description: "", invite_only: false });
  }
  return withFirstPage({ ...s, streams }, terms, answer, false).next;
}

/** The state with a narrow's first page merged in; `missed` when a message may have been sent between that page and /register. */
export function withFirstPage(s: State, terms: Term[], answer: PageAnswer, early: boolean): { next: State; missed: boolean } {
  const key = narrowKey(terms);
  const near = anchorOf(terms);
  const list: MessageList = { key, terms, ids: [], foundOldest: false, foundNewest: false, anchor: near ?? (answer.found_anchor ? answer.anchor : null) };
  // A page fetched before the event queue existed may miss a message sent in between: the
  // register's max_message_id tells, and the newer side is fetched again.
  const newestSeen = Math.max(0, ...answer.messages.map((m) => m.id));
  const missed = early && Number(s.realm.max_message_id ?? 0) > newestSeen;
  return { next: applyFetched(s, s.lists.get(key) ?? list, answer.messages, { oldest: answer.found_oldest, newest: answer.found_newest && !missed }), missed: missed && answer.messages.length > 0 };
}
