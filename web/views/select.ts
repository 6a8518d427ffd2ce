import { useComputed } from "@preact/signals";
import { state } from "../state/store.js";
import type { State } from "../state/types.js";

/**
 * The state, re-read only when one of the parts `pick` names changes: a view that shows messages
 * need not redraw for a presence or typing event.
 */
export function useStateOf(pick: (s: State) => readonly unknown[]): State | null {
  let last: { s: State; parts: readonly unknown[] } | null = null;
  const selected = useComputed(() => {
    const s = state.value;
    if (!s) return null;
    const parts = pick(s);
    if (last && last.parts.length === parts.length && last.parts.every((p, i) => p === parts[i])) return last.s;
    last = { s, parts };
    return s;
  });
  return selected.value;
}
