/** Lexers built on Prism's tokenizer: Prism's token tree is flattened and each piece given a Pygments class. */
import { runRules, type Lexer, type Rule, type Token } from "../lexer.js";
import { Prism } from "./grammars.js";

/** A piece of text as Prism left it: its innermost token's type and aliases, and the enclosing tokens' types. */
export interface Piece {
  text: string;
  /** The innermost token's type then its aliases; empty for text outside every token. */
  kinds: readonly string[];
  /** The types of the enclosing tokens, innermost first. */
  within: readonly string[];
}

/** A Pygments class for a piece, or rules to split it into several (text Prism leaves plain, mostly). */
export type Classify = (piece: Piece) => string | readonly Rule[];

/** How one language maps Prism's tokens onto Pygments' classes. */
export interface PrismLanguage {
  name: string;
  aliases: string[];
  grammar: Prism.Grammar;
  classify: Classify;
  /** A pass over the classified tokens for what depends on the neighbours (declarations, keys…). */
  refine?: (tokens: Token[]) => Token[];
}

const noKinds: readonly string[] = [];

function flatten(stream: Prism.TokenStream, within: string[], classify: Classify, out: Token[]): void {
  if (typeof stream === "string") {
    emit({ text: stream, kinds: noKinds, within }, classify, out);
  } else if (Array.isArray(stream)) {
    for (const part of stream) flatten(part, within, classify, out);
  } else if (typeof stream.content === "string") {
    emit({ text: stream.content, kinds: kindsOf(stream), within }, classify, out);
  } else {
    flatten(stream.content, [stream.type, ...within], classify, out);
  }
}

function kindsOf(token: Prism.Token): string[] {
  const alias = token.alias;
  if (alias === undefined) return [token.type];
  return typeof alias === "string" ? [token.type, alias] : [token.type, ...alias];
}

function emit(piece: Piece, classify: Classify, out: Token[]): void {
  if (piece.text === "") return;
  const cls = classify(piece);
  if (typeof cls === "string") out.push({ cls, text: piece.text });
  else for (const token of runRules(piece.text, cls)) out.push(token);
}

/** A Lexer that tokenizes with the language's Prism grammar and classifies the pieces. */
export function prismLexer(language: PrismLanguage): Lexer {
  return {
    name: language.name,
    aliases: language.aliases,
    tokenize(code) {
      const tokens: Token[] = [];
      flatten(Prism.tokenize(code, language.grammar), [], language.classify, tokens);
      return language.refine === undefined ? tokens : language.refine(tokens);
    },
  };
}

/** The first kind of a piece that the table names, else `fallback`: the common shape of a Classify. */
export function byKind(table: Readonly<Record<string, string | readonly Rule[]>>, fallback: string | readonly Rule[]): Classify {
  return (piece) => {
    for (const kind of piece.kinds) if (Object.hasOwn(table, kind)) return table[kind] ?? fallback;
    return fallback;
  };
}
