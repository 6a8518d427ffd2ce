/** A small regex-driven lexer in the style of Pygments' RegexLexer. */
import { rulesByFirstChar } from "./first-chars.js";

/** A piece of code and its Pygments short class ("" for plain text). */
export interface Token {
  cls: string;
  text: string;
}

/** A language: its Pygments name, aliases, and tokenizer. */
export interface Lexer {
  name: string;
  aliases: string[];
  tokenize(code: string): Token[];
}

/** One rule: a sticky regex and the class (or a function choosing it from the match). */
export type Rule = [RegExp, string | ((m: RegExpExecArray) => Token[])];

const tables = new WeakMap<readonly Rule[], Rule[][]>();

/** Tokenizes with the first matching rule at each position; unmatched characters are errors ("err"). */
export function runRules(code: string, rules: readonly Rule[]): Token[] {
  const tokens: Token[] = [];
  // Only the rules that can match the character at a position are tried there.
  const byChar = rulesByFirstChar(rules, tables);
  let pos = 0;
  outer: while (pos < code.length) {
    for (const [re, action] of byChar[Math.min(code.charCodeAt(pos), 128)] ?? rules) {
      re.lastIndex = pos;
      const m = re.exec(code);
      if (m === null || m[0] === "") continue;
      if (typeof action === "string") tokens.push({ cls: action, text: m[0] });
      else for (const token of action(m)) tokens.push(token);
      pos += m[0].length;
      continue outer;
    }
    tokens.push({ cls: "err", text: code[pos] ?? "" });
    pos++;
  }
  return tokens;
}
