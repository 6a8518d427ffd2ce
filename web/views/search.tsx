import { useState } from "preact/hooks";
import { route, state } from "../state/store.js";
import { termsToHash } from "../state/narrow.js";

/** The search box: Zulip's operators; Enter opens the narrow. (Suggestions: views/search-suggest.ts.) */
export function SearchBar() {
  const [text, setText] = useState("");
  const s = state.value;
  if (!s) return null;
  const submit = (e: Event) => {
    e.preventDefault();
    const terms = text.trim() === "" ? [] : [{ operator: "search", operand: text.trim() }];
    location.hash = termsToHash(terms, s);
  };
  void route.value;
  return (
    <form class="search" role="search" onSubmit={submit}>
      <input type="search" aria-label="Search" placeholder="Search" value={text} onInput={(e) => setText(e.currentTarget.value)} />
    </form>
  );
}
