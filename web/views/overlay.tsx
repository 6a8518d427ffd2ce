/** One dialog at a time over the app (edit, move, history, receipts, profile cards, the emoji picker). */
import { signal } from "@preact/signals";
import type { ComponentChildren } from "preact";
import { useLayoutEffect, useRef } from "preact/hooks";

type Dialog = { title: string; body: () => ComponentChildren; wide?: boolean };

export const dialog = signal<Dialog | null>(null);

export function openDialog(title: string, body: () => ComponentChildren, wide = false): void {
  dialog.value = { title, body, wide };
}

export function closeDialog(): void {
  dialog.value = null;
}

/** The open dialog, if any: Escape or a click outside closes it; focus moves into it, Tab stays in it, and focus goes back where it was on closing. */
export function Overlay() {
  const d = dialog.value;
  const box = useRef<HTMLDivElement>(null);
  // At once on drawing (not after the next paint): a key pressed straight away already reaches the dialog.
  useLayoutEffect(() => {
    if (!d) return;
    const back = document.activeElement as HTMLElement | null;
    const first = box.current?.querySelector<HTMLElement>("[autofocus], input, textarea, select, button:not(.close)");
    (first ?? box.current)?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") closeDialog();
      // Tab stays inside the dialog: from the last control to the first, and back.
      const el = box.current;
      if (e.key !== "Tab" || !el) return;
      const stops = [...el.querySelectorAll<HTMLElement>('a[href], button, input, textarea, select, [tabindex]:not([tabindex="-1"])')].filter((x) => !x.hasAttribute("disabled"));
      const first = stops[0];
      const last = stops[stops.length - 1];
      if (!first || !last) return;
      const at = document.activeElement;
      if (e.shiftKey && (at === first || at === el)) {
        e.preventDefault();
        last.focus();
      } else if (!e.shiftKey && (at === last || !el.contains(at))) {
        e.preventDefault();
        first.focus();
      }
    };
    addEventListener("keydown", onKey);
    return () => {
      removeEventListener("keydown", onKey);
      back?.focus?.();
    };
  }, [d]);
  if (!d) return null;
  return (
    <div class="overlay" onMouseDown={(e) => e.target === e.currentTarget && closeDialog()}>
      <div class={d.wide ? "dialog wide" : "dialog"} role="dialog" aria-modal="true" aria-label={d.title} ref={box} tabIndex={-1}>
        <header>
          <h2>{d.title}</h2>
          <button type="button" class="close" aria-label="Close" onClick={closeDialog}>
            ×
          </button>
        </header>
        <div class="dialog-body">{d.body()}</div>
      </div>
    </div>
  );
}
