/**
 * YAML: Prism finds comments, keys, quoted strings, anchors, tags, directives and block scalars;
 * the plain text between is read as Pygments reads it, block or flow (inside [ ] and { }).
 */
import type { Lexer, Rule, Token } from "../lexer.js";
import { grammar } from "./grammars.js";
import { prismLexer, type Join } from "./lexer.js";

const indicator = "p p-Indicator";
const plainScalar = "l l-Scalar l-Scalar-Plain";

// A plain scalar runs to the end of its line, less trailing blanks.
function scalar(cls: string): (m: RegExpExecArray) => Token[] {
  return (m) => {
    const text = m[0];
    const trimmed = text.trimEnd();
    return trimmed === text ? [{ cls, text }] : [{ cls, text: trimmed }, { cls: "w", text: text.slice(trimmed.length) }];
  };
}

const block: Rule[] = [
  [/\s+/y, "w"],
  [/-(?=\s|$)/y, indicator],
  [/[|>][-+0-9]*(?=\s|$)/y, indicator],
  [/[[{]/y, indicator],
  [/[^\s][^\n]*/y, scalar(plainScalar)],
];
const flow: Rule[] = [
  [/\s+/y, "w"],
  [/[[\]{},]/y, indicator],
  [/[^\s,[\]{}][^\n,[\]{}]*/y, scalar("nv")],
];

/** Plain text, block or flow; the depth of [ and { carries over from one piece to the next. */
class PlainText implements Join {
  depth = 0;

  tokenize(text: string): Token[] {
    const tokens: Token[] = [];
    let pos = 0;
    outer: while (pos < text.length) {
      for (const [re, action] of this.depth > 0 ? flow : block) {
        re.lastIndex = pos;
        const m = re.exec(text);
        if (m === null || m[0] === "") continue;
        if (typeof action === "string") tokens.push({ cls: action, text: m[0] });
        else tokens.push(...action(m));
        if (m[0] === "[" || m[0] === "{") this.depth++;
        else if ((m[0] === "]" || m[0] === "}") && this.depth > 0) this.depth--;
        pos += m[0].length;
        continue outer;
      }
      tokens.push({ cls: "err", text: text[pos] ?? "" });
      pos++;
    }
    return tokens;
  }
}

const blockScalar: Rule[] = [
  [/\s+/y, "w"],
  [/.+/y, "no"],
];

const plain = new PlainText();

const lexer = prismLexer({
  name: "YAML",
  aliases: ["yaml"],
  grammar: grammar("yaml"),
  classify({ text, kinds }) {
    switch (kinds[0]) {
      case "comment":
        return "c1";
      case "key":
        return "nt";
      case "string":
        return "s";
      case "scalar":
        return blockScalar;
      case "important":
        return text.startsWith("&") ? "nl" : "nv";
      case "tag":
        return "kt";
      case "directive":
        return "cp";
      case "punctuation":
        if (text === "---" || text === "...") return "nn";
        if (text === ":") return "p";
        return plain;
      default:
        return plain;
    }
  },
});

export const yamlLexer: Lexer = {
  ...lexer,
  tokenize(code) {
    plain.depth = 0;
    return lexer.tokenize(code);
  },
};
