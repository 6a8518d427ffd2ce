/** Code blocks in Zulip's (Pygments codehilite) markup. */
import { escapeAttr, escapeHilite } from "./escape.js";
import { headerLanguage, highlight, languageName, lexerFor } from "./highlight/index.js";

/** Renders a code block; `lang` is what followed the fence, possibly empty. */
export function renderCodeBlock(lang: string, source: string): string {
  const lines = source.split("\n").map((l) => l.trimEnd());
  // Leading and trailing blank lines are dropped, as Pygments does.
  while (lines.length > 0 && lines[0] === "") lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  const code = lines.join("\n") + "\n";
  // Without a fence language, a `:::lang` or `#!` first line picks the lexer (but is no data-code-language).
  const lexerName = lang === "" ? headerLanguage(lines[0] ?? "") : lang;
  const lexer = lexerName === undefined ? undefined : lexerFor(lexerName);
  const body = lexer === undefined ? escapeHilite(code) : highlight(lexer, code);
  // An unknown language is still recorded, so clients can offer a playground for it.
  const language = lang === "" ? "" : ` data-code-language="${escapeAttr(languageName(lang) ?? lang)}"`;
  return `<div class="codehilite"${language}><pre><span></span><code>${body}</code></pre></div>`;
}
