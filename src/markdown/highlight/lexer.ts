/** A small regex-driven lexer in the style of Pygments' RegexLexer. */

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

/** Tokenizes with the first matching rule at each position; unmatched characters are errors ("err"). */
export function runRules(code: string, rules: readonly Rule[]): Token[] {
  const tokens: Token[] = [];
  let pos = 0;
  outer: while (pos < code.length) {
    for (const [re, action] of rules) {
      re.lastIndex = pos;
      const m = re.exec(code);
      if (m === null || m[0] === "") continue;
      if (typeof action === "string") tokens.push({ cls: action, text: m[0] });
      else tokens.push(...action(m));
      pos += m[0].length;
      continue outer;
    }
    tokens.push({ cls: "err", text: code[pos] ?? "" });
    pos++;
  }
  return tokens;
}
