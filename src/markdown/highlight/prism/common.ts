/** Pieces shared by the Prism-based languages: word tables, escapes in strings, neighbour look-ups. */
import type { Rule, Token } from "../lexer.js";

/** A table from word to class, built from space-separated lists. */
export function wordTable(lists: Record<string, string>): Map<string, string> {
  const table = new Map<string, string>();
  for (const [cls, words] of Object.entries(lists)) for (const word of words.split(/\s+/)) if (word !== "") table.set(word, cls);
  return table;
}

/** Rules that split a string literal into its text (`cls`) and its escapes (`se`). */
export function stringRules(cls: string, escape: RegExp): Rule[] {
  return [
    [escape, "se"],
    [new RegExp(`(?:(?!${escape.source})[\\s\\S])+`, "y"), cls],
  ];
}

/** Whether a token is only whitespace (or empty). */
export function isBlank(token: Token | undefined): boolean {
  return token !== undefined && (token.cls === "w" || token.text.trim() === "");
}

/** The index of the nearest token before `i` that is not whitespace, or -1. */
export function previousSignificant(tokens: readonly Token[], i: number): number {
  for (let j = i - 1; j >= 0; j--) if (!isBlank(tokens[j])) return j;
  return -1;
}

/** The index of the nearest token after `i` that is not whitespace, or -1. */
export function nextSignificant(tokens: readonly Token[], i: number): number {
  for (let j = i + 1; j < tokens.length; j++) if (!isBlank(tokens[j])) return j;
  return -1;
}

/** A rule action giving each capture group of the match its class, leaving out empty groups. */
export function groups(...classes: string[]): (m: RegExpExecArray) => Token[] {
  return (m) => classes.map((cls, i) => ({ cls, text: m[i + 1] ?? "" })).filter((t) => t.text !== "");
}

/** A sticky regex for any of the space-separated words, longest first as Pygments' words() matches. */
export function wordsRe(list: string, suffix = "\\b", flags = "y"): RegExp {
  const words = list.split(/\s+/).filter((w) => w !== "");
  words.sort((a, b) => b.length - a.length);
  return new RegExp(`(?:${words.map(escapeRe).join("|")})${suffix}`, flags);
}

/** `text` escaped for use inside a regex. */
export function escapeRe(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, "\\$&");
}
