/** Syntax highlighting with Pygments' short token classes, for the languages we lex. */
import { escapeHilite } from "../escape.js";
import type { Lexer, Token } from "./lexer.js";
import { pythonLexer } from "./python.js";
import { texLexer } from "./tex.js";
import { javascriptLexer, typescriptLexer } from "./javascript.js";
import { pygmentsLanguages } from "./languages.js";
import { prismLexers } from "./prism/index.js";

export type { Lexer } from "./lexer.js";

const lexers: Lexer[] = [pythonLexer, texLexer, javascriptLexer, typescriptLexer, ...prismLexers];

const languageNames = new Map<string, string>();
for (const line of pygmentsLanguages.split("\n")) {
  const bar = line.indexOf("|");
  if (bar === -1) continue;
  const name = line.slice(0, bar);
  for (const alias of line.slice(bar + 1).split(" ")) languageNames.set(alias, name);
}

/** Pygments' display name for a language name or alias (case-insensitive), if Pygments knows it. */
export function languageName(lang: string): string | undefined {
  return languageNames.get(lang.toLowerCase());
}
const byAlias = new Map<string, Lexer>();
for (const lexer of lexers) for (const alias of lexer.aliases) byAlias.set(alias, lexer);

/** The lexer for a fence's language, matched case-insensitively on its aliases. */
export function lexerFor(lang: string): Lexer | undefined {
  const lexer = byAlias.get(lang.toLowerCase());
  // Only where Pygments 2.18 would pick that same lexer (it knows no "tsx", for one).
  return lexer !== undefined && languageName(lang) === lexer.name ? lexer : undefined;
}

// codehilite's header line: two or more colons or "#!", an optional path, then the language.
const headerRe = /^(?:::+|#!)(?:(?:\/\w+)*[/ ])?([\w#.+-]*)/;

/**
 * The language a code block without one names on its first line (`:::python`, `#!/usr/bin/python3`),
 * as Zulip's codehilite reads it; the line itself stays in the code.
 */
export function headerLanguage(firstLine: string): string | undefined {
  const lang = headerRe.exec(firstLine)?.[1]?.toLowerCase();
  return lang === "" ? undefined : lang;
}

/** Highlights `code` into escaped HTML with `<span class="…">` tokens. */
export function highlight(lexer: Lexer, code: string): string {
  let out = "";
  let pending: Token | null = null;
  const flush = (): void => {
    if (pending === null) return;
    const { cls, text } = pending;
    pending = null;
    if (cls === "") {
      out += escapeHilite(text);
      return;
    }
    // Pygments' HTML formatter closes a span at each line end and opens none for an empty line.
    const lines = text.split("\n");
    lines.forEach((line, i) => {
      if (i > 0) out += "\n";
      if (line !== "") out += `<span class="${cls}">${escapeHilite(line)}</span>`;
    });
  };
  for (const token of lexer.tokenize(code)) {
    // Pygments merges neighbouring tokens of the same kind into one span.
    if (pending !== null && pending.cls === token.cls) {
      pending = { cls: pending.cls, text: pending.text + token.text };
      continue;
    }
    flush();
    pending = token;
  }
  flush();
  return out;
}
