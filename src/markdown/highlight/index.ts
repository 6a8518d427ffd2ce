/** Syntax highlighting with Pygments' short token classes, for the languages we lex. */
import { escapeHilite } from "../escape.js";
import type { Lexer, Token } from "./lexer.js";
import { pythonLexer } from "./python.js";
import { texLexer } from "./tex.js";
import { javascriptLexer, typescriptLexer } from "./javascript.js";

export type { Lexer } from "./lexer.js";

const lexers: Lexer[] = [pythonLexer, texLexer, javascriptLexer, typescriptLexer];

// Languages we do not lex still get Pygments' name in data-code-language.
const names: Record<string, string> = {
  bash: "Bash", sh: "Bash", shell: "Bash", zsh: "Bash", c: "C", "c++": "C++", cpp: "C++",
  "c#": "C#", csharp: "C#", css: "CSS", diff: "Diff", go: "Go", golang: "Go", html: "HTML",
  java: "Java", json: "JSON", kotlin: "Kotlin", markdown: "Markdown", md: "Markdown",
  php: "PHP", ruby: "Ruby", rb: "Ruby", rust: "Rust", rs: "Rust", scala: "Scala",
  sql: "SQL", swift: "Swift", text: "Text only", yaml: "YAML", yml: "YAML", xml: "XML",
  haskell: "Haskell", hs: "Haskell", perl: "Perl", lua: "Lua", r: "R", console: "Bash Session",
};

/** Pygments' display name for a language we recognise but do not lex. */
export function languageName(lang: string): string | undefined {
  return lexerFor(lang)?.name ?? names[lang.toLowerCase()];
}
const byAlias = new Map<string, Lexer>();
for (const lexer of lexers) for (const alias of lexer.aliases) byAlias.set(alias, lexer);

/** The lexer for a fence's language, matched case-insensitively on its aliases. */
export function lexerFor(lang: string): Lexer | undefined {
  return byAlias.get(lang.toLowerCase());
}

/** A lexer guessed from a `#!interpreter` first line, as codehilite does. */
export function lexerForShebang(firstLine: string): Lexer | undefined {
  const m = /^#!(?:\S*\/)?(?:env\s+)?([\w#.+-]+)/.exec(firstLine);
  if (!m) return undefined;
  return lexerFor((m[1] ?? "").replace(/[\d.]+$/, ""));
}

/** Highlights `code` into escaped HTML with `<span class="…">` tokens. */
export function highlight(lexer: Lexer, code: string): string {
  let out = "";
  let pending: Token | null = null;
  const flush = (): void => {
    if (pending === null) return;
    const text = escapeHilite(pending.text);
    out += pending.cls === "" ? text : `<span class="${pending.cls}">${text}</span>`;
    pending = null;
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
