import { searchKey, wordsOf } from "./search.js";
import { htmlEscape } from "./rules.js";

const OPEN = '<span class="highlight">';
const CLOSE = "</span>";

/** Wraps the words of `text` whose search key is one of `keys`; `escape` applies to every piece. */
function wrap(text: string, keys: ReadonlySet<string>, escape: (s: string) => string): string {
  let out = "";
  let at = 0;
  for (const { word, index } of wordsOf(text)) {
    if (!keys.has(searchKey(word))) continue;
    out += escape(text.slice(at, index)) + OPEN + escape(word) + CLOSE;
    at = index + word.length;
  }
  return out + escape(text.slice(at));
}

function keysOf(words: readonly string[]): Set<string> {
  return new Set(words.map(searchKey));
}

/** match_subject: the topic HTML-escaped, words matching a search word (same stem) wrapped in highlight spans. */
export function highlightTopic(topic: string, words: readonly string[]): string {
  return wrap(topic, keysOf(words), htmlEscape);
}

/** match_content: rendered HTML with matching words highlighted in text, never inside tags or entities. */
export function highlightHtml(html: string, words: readonly string[]): string {
  const keys = keysOf(words);
  return html
    .split(/(<[^>]*>|&#?\w+;)/)
    .map((part) => (part.startsWith("<") || /^&#?\w+;$/.test(part) ? part : wrap(part, keys, (s) => s)))
    .join("");
}
