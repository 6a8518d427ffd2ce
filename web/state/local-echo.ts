/**
 * Local echo: a message you send shows at once, before the server answers. It is a Message with a
 * fractional id (after the newest id known) and an `echo` field, placed in the open lists it belongs
 * to; the server's message event (carrying our local_message_id) or the send's answer replaces it.
 */
import { matches } from "./narrow.js";
import type { Message, ServerEvent, State } from "./types.js";

/** What a local echo carries besides a Message's fields. */
export type Echo = { localId: string; status: "sending" | "failed"; error?: string; raw: string; serverId?: number };

export const echoOf = (m: Message): Echo | undefined => m.echo as Echo | undefined;

/** Text or an attribute's value, escaped for HTML (also the page's first draw's: views/first-draw.ts). */
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The id a new local echo takes: just after every id known. */
export function nextLocalId(state: State): number {
  let max = 0;
  for (const id of state.messages.keys()) if (id > max) max = id;
  return Math.floor(max) + (Math.round((max % 1) * 1000) + 1) / 1000;
}

/** The message the local echo shows: your raw text (escaped, as text), marked read. */
export function echoMessage(state: State, fields: Pick<Message, "id" | "type" | "stream_id" | "subject" | "display_recipient">, raw: string, localId: string): Message {
  const me = state.users.get(state.me);
  const paragraphs = raw.split(/\n{2,}/).map((p) => `<p>${escapeHtml(p).replace(/\n/g, "<br>")}</p>`).join("");
  const echo: Echo = { localId, status: "sending", raw };
  return { ...fields, sender_id: state.me, sender_full_name: me?.full_name ?? "", sender_email: me?.email ?? "", avatar_url: me?.avatar_url ?? null, content: paragraphs, timestamp: Math.floor(Date.now() / 1000), reactions: [], flags: ["read"], submessages: [], echo };
}

/** Adds a local echo to the messages and to every open list that reaches the newest and holds it. */
export function addEcho(state: State, m: Message): State {
  const lists = new Map(state.lists);
  for (const [key, list] of state.lists) if (list.foundNewest && matches(list.terms, m, state.me) === true) lists.set(key, { ...list, ids: [...list.ids, m.id].sort((a, b) => a - b) });
  return { ...state, messages: new Map(state.messages).set(m.id, m), lists };
}

/** Removes a local echo (sent, or given up). */
export function removeEcho(state: State, id: number): State {
  if (!state.messages.has(id)) return state;
  const messages = new Map(state.messages);
  messages.delete(id);
  const lists = new Map(state.lists);
  for (const [key, list] of state.lists) if (list.ids.includes(id)) lists.set(key, { ...list, ids: list.ids.filter((x) => x !== id) });
  return { ...state, messages, lists };
}

/** Notes the id the server gave a sent local echo; drops the echo when that message is already here. */
export function echoSent(state: State, id: number, serverId: number): State {
  if (state.messages.has(serverId)) return removeEcho(state, id);
  const m = state.messages.get(id);
  const echo = m && echoOf(m);
  if (!m || !echo) return state;
  return { ...state, messages: new Map(state.messages).set(id, { ...m, echo: { ...echo, serverId } }) };
}

/** Marks a local echo failed (with the reason) or sending again. */
export function setEchoStatus(state: State, id: number, status: Echo["status"], error?: string): State {
  const m = state.messages.get(id);
  const echo = m && echoOf(m);
  if (!m || !echo) return state;
  return { ...state, messages: new Map(state.messages).set(id, { ...m, echo: { ...echo, status, error } }) };
}

/** The local echo with this local_id, if it is still shown. */
export function findEcho(state: State, localId: string): Message | undefined {
  for (const m of state.messages.values()) if (echoOf(m)?.localId === localId) return m;
  return undefined;
}

/** Drops the local echoes that the server's message events (with local_message_id) replace. */
export function settleEchoes(state: State, events: readonly ServerEvent[]): State {
  let next = state;
  for (const e of events) {
    if (e.type !== "message") continue;
    const id = Number((e.message as { id?: unknown } | undefined)?.id);
    const echo = typeof e.local_message_id === "string" ? findEcho(next, e.local_message_id) : [...next.messages.values()].find((m) => echoOf(m)?.serverId === id);
    if (echo) next = removeEcho(next, echo.id);
  }
  return next;
}
