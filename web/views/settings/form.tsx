/** The pieces every settings form is made of: a saved/failed note, a toggle, a choice, a text field with Save. */
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";

type Note = { ok: boolean; text: string } | null;

/** Runs a save and keeps its outcome: "Saved", or the server's message as it sent it. */
export function useSave(): { run: (p: Promise<unknown>, ok?: string) => Promise<boolean>; note: ComponentChildren; busy: boolean } {
  const [note, setNote] = useState<Note>(null);
  const [busy, setBusy] = useState(false);
  const run = async (p: Promise<unknown>, ok = "Saved") => {
    setNote(null);
    setBusy(true);
    try {
      await p;
      setNote({ ok: true, text: ok });
      return true;
    } catch (err) {
      setNote({ ok: false, text: err instanceof Error ? err.message : String(err) });
      return false;
    } finally {
      setBusy(false);
    }
  };
  const el = note ? (
    <p class={note.ok ? "note saved" : "note error"} role={note.ok ? "status" : "alert"}>
      {note.text}
    </p>
  ) : null;
  return { run, note: el, busy };
}

/**
 * The value shown while a save is on its way: the person's choice until the state (through its
 * event) agrees or the save fails, so a redraw in between does not flip the control back.
 */
export function usePending<T>(value: T): [T, (v: T | null) => void] {
  const [pending, setPending] = useState<T | null>(null);
  useEffect(() => {
    if (pending !== null && pending === value) setPending(null);
  }, [value, pending]);
  return [pending ?? value, setPending];
}

/** A checkbox saved as soon as it changes; on failure it shows the old value again. */
export function Toggle({ label, checked, save }: { label: string; checked: boolean; save: (v: boolean) => Promise<unknown> }) {
  const { run, note } = useSave();
  const [shown, setPending] = usePending(checked);
  return (
    <div class="field">
      <label class="check">
        <input
          type="checkbox"
          checked={shown}
          onChange={(e) => {
            const v = e.currentTarget.checked;
            setPending(v);
            void run(save(v)).then((ok) => !ok && setPending(null));
          }}
        />{" "}
        {label}
      </label>
      {note}
    </div>
  );
}

/** A dropdown saved as soon as it changes. */
export function Choice({ label, value, options, save }: { label: string; value: string; options: readonly (readonly [string, string])[]; save: (v: string) => Promise<unknown> }) {
  const { run, note } = useSave();
  const [shown, setPending] = usePending(value);
  return (
    <div class="field">
      <label>
        <span>{label}</span>
        <select
          value={shown}
          onChange={(e) => {
            const v = e.currentTarget.value;
            setPending(v);
            void run(save(v)).then((ok) => !ok && setPending(null));
          }}
        >
          {options.map(([v, text]) => (
            <option key={v} value={v}>
              {text}
            </option>
          ))}
        </select>
      </label>
      {note}
    </div>
  );
}

/** A colour picker saved when the choice is made. */
export function ColorField({ label, value, save }: { label: string; value: string; save: (v: string) => Promise<unknown> }) {
  const { run, note } = useSave();
  const [shown, setPending] = usePending(value);
  return (
    <div class="field">
      <label>
        <span>{label}</span>
        <input type="color" value={shown} onInput={(e) => setPending(e.currentTarget.value)} onChange={(e) => void run(save(e.currentTarget.value), "Color saved").then((ok) => !ok && setPending(null))} />
      </label>
      {note}
    </div>
  );
}

/** A text field with its own Save button; follows the state's value until the person edits it. */
export function TextField({ label, value, save, saved, type = "text", multiline = false, button = "Save", clearOnSave = false, autocomplete }: { label: string; value: string; save: (v: string) => Promise<unknown>; saved?: (v: string) => string; type?: "text" | "email" | "url"; multiline?: boolean; button?: string; clearOnSave?: boolean; autocomplete?: string }) {
  const [text, setText] = useState(value);
  // Refs, not state: an effect scheduled at mount must not see "not edited" after the person has
  // typed (it runs after the paint, and under load that is after the first keys), or it would put
  // the old value back over what they typed.
  const dirty = useRef(false);
  const shown = useRef(value);
  const { run, note, busy } = useSave();
  useEffect(() => {
    if (dirty.current || value === shown.current) return;
    shown.current = value;
    setText(value);
  }, [value]);
  const onInput = (e: Event) => {
    setText((e.currentTarget as HTMLInputElement).value);
    dirty.current = true;
  };
  return (
    <form
      class="field"
      onSubmit={(e) => {
        e.preventDefault();
        void run(save(text), saved?.(text)).then((ok) => {
          if (ok) {
            dirty.current = false;
            shown.current = text;
            if (clearOnSave) setText("");
          }
        });
      }}
    >
      <label>
        <span>{label}</span>
        {multiline ? (
          <textarea value={text} onInput={onInput} rows={3} />
        ) : type === "email" ? (
          <input type="email" value={text} onInput={onInput} autocomplete={autocomplete} />
        ) : type === "url" ? (
          <input type="url" value={text} onInput={onInput} autocomplete={autocomplete} />
        ) : (
          <input type="text" value={text} onInput={onInput} autocomplete={autocomplete} />
        )}
      </label>
      <button type="submit" class="button" disabled={busy}>
        {button}
      </button>
      {note}
    </form>
  );
}

/** A titled group of fields. */
export function Section({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <section class="settings-section" aria-label={title}>
      <h3>{title}</h3>
      {children}
    </section>
  );
}
