/** Syntax highlighting with Pygments' short token classes, for the languages we lex. */
import { escapeHilite } from "../escape.js";
import type { Lexer } from "./lexer.js";
import { pythonLexer } from "./python.js";
import { python2Lexer } from "./python2.js";
import { texLexer } from "./tex.js";
import { javascriptLexer, typescriptLexer } from "./javascript.js";
import { pygmentsLanguages } from "./languages.js";
import { prismLexers } from "./prism/index.js";

export type { Lexer } from "./lexer.js";

const lexers: Lexer[] = [pythonLexer, python2Lexer, texLexer, javascriptLexer, typescriptLexer, ...prismLexers];

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

const spanOpen = new Map<string, string>();

function openTag(cls: string): string {
  let tag = spanOpen.get(cls);
  if (tag === undefined) spanOpen.set(cls, (tag = `<span class="${cls}">`));
  return tag;
}

/**
 * Lines longer than a whole message may be (Zulip's limit is 10,000 characters) are not real code;
 * some of Prism's grammars take quadratic time on long repetitive lines, so such a block is left
 * unhighlighted.
 */
const longestHighlightedLine = 10_000;

function hasLongLine(code: string): boolean {
  let start = 0;
  for (let nl = code.indexOf("\n"); nl !== -1; nl = code.indexOf("\n", start)) {
    if (nl - start > longestHighlightedLine) return true;
    start = nl + 1;
  }
  return code.length - start > longestHighlightedLine;
}

/** Highlights `code` into escaped HTML with `<span class="…">` tokens. */
export function highlight(lexer: Lexer, code: string): string {
  if (hasLongLine(code)) return escapeHilite(code);
  let out = "";
  // Pygments merges neighbouring tokens of the same kind into one span: the run being merged.
  let cls = "";
  let text = "";
  const flush = (): void => {
    if (text === "") return;
    if (cls === "") out += escapeHilite(text);
    else if (!text.includes("\n")) out += openTag(cls) + escapeHilite(text) + "</span>";
    else {
      // Pygments' HTML formatter closes a span at each line end and opens none for an empty line.
      const lines = text.split("\n");
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i] ?? "";
        if (i > 0) out += "\n";
        if (line !== "") out += openTag(cls) + escapeHilite(line) + "</span>";
      }
    }
    text = "";
  };
  for (const token of lexer.tokenize(code)) {
    if (token.cls !== cls) {
      flush();
      cls = token.cls;
    }
    text += token.text;
  }
  flush();
  return out;
}
