/**
 * Ruby's comments, strings, commands, regexes and symbols, found as one greedy Prism token and then
 * given back the token Prism's own grammar makes of them (type, alias and inside tokens).
 *
 * Prism matches each of these greedy tokens over the whole text and, when one overlaps another,
 * takes it apart and matches again: on a line of mixed unclosed quotes that cascades into seconds
 * of work. As one token (grammars.ts, mergedGrammar) the leftmost literal is found in one pass; which
 * of Prism's patterns found it is then told by trying them, in Prism's order, where it starts. Code
 * interpolated into a string (`#{…}`) is tokenized with the same merged grammar.
 */
import { Prism, grammar, literalSource, mergedGrammar } from "./grammars.js";

const literalKeys = ["comment", "string-literal", "command-literal", "regex-literal", "symbol"];

const ruby = grammar("ruby");

// Prism's comment pattern reads `^=begin … ^=end` with the m flag; the same without flags, so that
// it merges with the others (`^` is a line start: no character before, or a line break).
const lineStart = String.raw`(?<![^\n\r\u2028\u2029])`;
const comment = { pattern: new RegExp(String.raw`#.*|${lineStart}=begin\s[\s\S]*?${lineStart}=end`), greedy: true };

// Its heredoc patterns are case-insensitive, for their `[a-z_]`, and so their closing word too:
// here the closing word is the opening one as written, as in Ruby (and Pygments).
function caseSensitive(part: unknown): unknown {
  if (!isGrammar(part) || !("pattern" in part) || !(part.pattern instanceof RegExp) || part.pattern.flags !== "i") return part;
  return { ...part, pattern: new RegExp(part.pattern.source.replaceAll("[a-z_]", "[a-zA-Z_]")) };
}

const base: Prism.Grammar = {};
for (const key of Object.keys(ruby)) {
  const value: unknown = Reflect.get(ruby, key);
  Reflect.set(base, key, key === "comment" ? comment : Array.isArray(value) ? value.map(caseSensitive) : value);
}

/** Ruby's grammar with its literals as one greedy token, "literal". */
export const mergedRuby = mergedGrammar(base, literalKeys);

function isGrammar(value: unknown): value is Prism.Grammar {
  return typeof value === "object" && value !== null && !(value instanceof RegExp) && !Array.isArray(value);
}

// A copy of an inside grammar whose interpolated code is tokenized with the merged grammar.
function rewire(inside: Prism.Grammar): Prism.Grammar {
  if (inside === ruby) return mergedRuby;
  const copy: Prism.Grammar = {};
  for (const key of Object.keys(inside)) {
    const value: unknown = Reflect.get(inside, key);
    Reflect.set(copy, key, Array.isArray(value) ? value.map(rewireToken) : rewireToken(value));
  }
  return copy;
}

function rewireToken(value: unknown): unknown {
  if (!isGrammar(value) || !("inside" in value) || !isGrammar(value.inside)) return value;
  return { ...value, inside: rewire(value.inside) };
}

/** One of Prism's literal patterns: where it matches (sticky), and the token it makes. */
interface Kind {
  type: string;
  alias: string | undefined;
  at: RegExp;
  inside: Prism.Grammar | undefined;
}

const kinds: Kind[] = [];
for (const key of literalKeys) {
  const value: unknown = Reflect.get(base, key);
  for (const part of Array.isArray(value) ? value : [value]) {
    const source = literalSource(part);
    if (source === undefined || !isGrammar(part)) throw new Error(`Ruby's ${key} pattern cannot be merged`);
    const alias = "alias" in part && typeof part.alias === "string" ? part.alias : undefined;
    const inside = "inside" in part && isGrammar(part.inside) ? rewire(part.inside) : undefined;
    kinds.push({ type: key, alias, at: new RegExp(source, "y"), inside });
  }
}

/** Ruby code tokenized as Prism's Ruby grammar would, with its literals found in one pass. */
export function tokenizeRuby(code: string): Prism.TokenStream {
  return expand(Prism.tokenize(code, mergedRuby), code);
}

// The stream with each "literal" token made the token Prism's grammar would: `context` is the text
// the stream was tokenized from.
function expand(stream: Array<string | Prism.Token>, context: string): Array<string | Prism.Token> {
  let offset = 0;
  const out: Array<string | Prism.Token> = [];
  for (const part of stream) {
    const start = offset;
    if (typeof part === "string") {
      offset += part.length;
      out.push(part);
      continue;
    }
    offset += part.length;
    const text = context.slice(start, offset);
    if (part.type === "literal") out.push(literal(text, context, start));
    else {
      if (Array.isArray(part.content)) part.content = expand(part.content, text);
      out.push(part);
    }
  }
  return out;
}

function literal(text: string, context: string, start: number): string | Prism.Token {
  for (const kind of kinds) {
    kind.at.lastIndex = start;
    if (!kind.at.test(context)) continue;
    const content = kind.inside === undefined ? text : expand(Prism.tokenize(text, kind.inside), text);
    return new Prism.Token(kind.type, content, kind.alias, text);
  }
  return text;
}
