import { useEffect, useRef, useState } from "preact/hooks";
import { route } from "../state/store.js";
import { useStateOf } from "./select.js";
import { termsToHash } from "../state/narrow.js";
import { parseQuery, suggest, termsToQuery } from "../state/search.js";

/** The search box: Zulip's operators, suggestions as you type (arrows, Enter, Escape), "/" to focus (views/keyboard/). */
export function SearchBar() {
  const s = useStateOf((st) => [st.streams, st.users, st.subs, st.topics]);
  const r = route.value;
  const [text, setText] = useState("");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const input = useRef<HTMLInputElement>(null);
  // Tab completes a suggestion only after you typed or picked one; otherwise it moves focus on (keyboard-only use).
  const typed = useRef(false);

  // The box shows the open narrow's query (except while you type in it).
  const shown = r.view === "feed" && s ? termsToQuery(r.terms, s) : "";
  useEffect(() => {
    if (document.activeElement !== input.current) setText(shown);
  }, [shown]);
  if (!s) return null;

  const suggestions = open ? suggest(text, s) : [];
  const go = (query: string) => {
    const terms = parseQuery(query, s);
    setOpen(false);
    input.current?.blur();
    location.hash = termsToHash(terms, s);
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      setOpen(true);
      const n = suggestions.length;
      if (n > 0) setActive((i) => (e.key === "ArrowDown" ? (i + 1) % n : (i - 1 + n) % n));
      typed.current = true;
    } else if (e.key === "Escape") {
      setOpen(false);
      setText(shown);
      input.current?.blur();
    } else if (e.key === "Tab" && !e.shiftKey && open && (typed.current || active >= 0) && suggestions[Math.max(0, active)]) {
      e.preventDefault();
      setText(suggestions[Math.max(0, active)]?.query ?? text);
      setActive(-1);
    }
  };
  const submit = (e: Event) => {
    e.preventDefault();
    const picked = active >= 0 ? suggestions[active] : undefined;
    if (picked && picked.query.endsWith(":")) {
      setText(picked.query);
      setActive(-1);
      return;
    }
    go(picked ? picked.query : text);
  };
  return (
    <form class="search" role="search" onSubmit={submit}>
      <input
        ref={input}
        type="search"
        role="combobox"
        list={undefined}
        aria-label="Search"
        aria-expanded={suggestions.length > 0}
        aria-controls="search-suggestions"
        aria-activedescendant={active >= 0 ? `search-suggestion-${active}` : undefined}
        aria-autocomplete="list"
        autocomplete="off"
        spellcheck={false}
        placeholder="Search (try channel:, topic:, sender:, is:starred)"
        value={text}
        onInput={(e) => {
          typed.current = true;
          setText(e.currentTarget.value);
          setOpen(true);
          setActive(-1);
        }}
        onFocus={() => setOpen(true)}
        onBlur={() => {
          typed.current = false;
          setTimeout(() => setOpen(false), 150);
        }}
        onKeyDown={onKeyDown}
      />
      {suggestions.length > 0 && (
        <ul class="suggestions" id="search-suggestions" role="listbox" aria-label="Search suggestions">
          {suggestions.map((sg, i) => (
            <li
              key={sg.query}
              id={`search-suggestion-${i}`}
              role="option"
              aria-selected={i === active}
              class={i === active ? "active" : undefined}
              onMouseDown={(e) => {
                e.preventDefault();
                if (sg.query.endsWith(":")) {
                  setText(sg.query);
                  input.current?.focus();
                } else go(sg.query);
              }}
            >
              <span class="label">{sg.label}</span> <code>{sg.query.slice(sg.query.search(/\S*\s?$/)).trim() || sg.query.trim()}</code>
            </li>
          ))}
        </ul>
      )}
    </form>
  );
}
