/**
 * The selected message of the open message list (Zulip's blue outline): what the keyboard's message
 * actions act on. Until a key or a click picks one, it is the list's anchor (a /near/ link), else the
 * first unread message, else the newest.
 */
import { signal } from "@preact/signals";
import { defaultSelected } from "../feed-window.js";
import type { MessageList, State } from "../../state/types.js";

/** Set by a key or a click: the list it belongs to, the message, and whether the feed should scroll to it. */
export const pointer = signal<{ key: string; id: number; scroll: boolean; n: number } | null>(null);

let n = 0;
/** Selects `id` in list `key`; `scroll` brings it on screen. */
export function select(key: string, id: number, scroll = true): void {
  pointer.value = { key, id, scroll, n: ++n };
}

/** The id selected in `list` (0 for an empty list). */
export function selectedIn(list: MessageList, s: State): number {
  const p = pointer.value;
  if (p && p.key === list.key && list.ids.includes(p.id)) return p.id;
  return defaultSelected(list, s);
}
