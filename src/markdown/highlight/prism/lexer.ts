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

/** Neighbouring pieces classified with the same Join are joined and tokenized as one text. */
export interface Join {
  tokenize(text: string): Token[];
}

/**
 * A Pygments class for a piece, or rules to split it into several, or a Join, or null for code:
 * neighbouring code pieces are joined and lexed together with the language's `code` rules, so that
 * rules which look at several words (declarations, imports) see them all.
 */
export type Classify = (piece: Piece) => string | readonly Rule[] | Join | null;

/** How one language maps Prism's tokens onto Pygments' classes. */
export interface PrismLanguage {
  name: string;
  aliases: string[];
  grammar: Prism.Grammar;
  classify: Classify;
  /** The rules for code (pieces classified null), in Pygments' order. */
  code?: readonly Rule[];
  /** How the code is tokenized, if not by Prism with `grammar` alone. */
  tokenize?: (code: string) => Prism.TokenStream;
  /** A pass over the classified tokens for what depends on the neighbours (declarations, keys…). */
  refine?: (tokens: Token[]) => Token[];
}

const noKinds: readonly string[] = [];

/** Collects the classified tokens, holding joined pieces until a piece of another kind ends them. */
class Collector {
  readonly tokens: Token[] = [];
  private held = "";
  private join: Join | null = null;

  constructor(
    private readonly classify: Classify,
    private readonly code: Join,
  ) {}

  // One piece object, refilled for each piece: classifiers read it and keep nothing.
  private readonly piece: { text: string; kinds: readonly string[]; within: readonly string[] } = { text: "", kinds: noKinds, within: noKinds };

  add(text: string, kinds: readonly string[], within: readonly string[]): void {
    if (text === "") return;
    const piece = this.piece;
    piece.text = text;
    piece.kinds = kinds;
    piece.within = within;
    const cls = this.classify(piece);
    if (cls === null || isJoin(cls)) {
      const join = cls ?? this.code;
      if (join !== this.join) this.flush();
      this.join = join;
      this.held += text;
      return;
    }
    this.flush();
    if (typeof cls === "string") this.tokens.push({ cls, text });
    else for (const token of runRules(text, cls)) this.tokens.push(token);
  }

  flush(): void {
    if (this.join !== null && this.held !== "") for (const token of this.join.tokenize(this.held)) this.tokens.push(token);
    this.held = "";
    this.join = null;
  }
}

function isJoin(cls: string | readonly Rule[] | Join): cls is Join {
  return typeof cls === "object" && "tokenize" in cls;
}

function flatten(stream: Prism.TokenStream, within: readonly string[], out: Collector): void {
  if (typeof stream === "string") {
    out.add(stream, noKinds, within);
  } else if (Array.isArray(stream)) {
    for (const part of stream) flatten(part, within, out);
  } else if (typeof stream.content === "string") {
    out.add(stream.content, kindsOf(stream), within);
  } else {
    flatten(stream.content, nest(within, stream.type), out);
  }
}

// The kinds and enclosing-type lists are shared between pieces, not built for each.
const kindLists = new Map<string, readonly string[]>();
const aliasedKindLists = new Map<string, Map<string, readonly string[]>>();
const nested = new WeakMap<readonly string[], Map<string, readonly string[]>>();

function kindsOf(token: Prism.Token): readonly string[] {
  const { type, alias } = token;
  if (Array.isArray(alias)) return [type, ...alias];
  if (alias === undefined) {
    let kinds = kindLists.get(type);
    if (kinds === undefined) kindLists.set(type, (kinds = [type]));
    return kinds;
  }
  let byAlias = aliasedKindLists.get(type);
  if (byAlias === undefined) aliasedKindLists.set(type, (byAlias = new Map()));
  let kinds = byAlias.get(alias);
  if (kinds === undefined) byAlias.set(alias, (kinds = [type, alias]));
  return kinds;
}

function nest(within: readonly string[], type: string): readonly string[] {
  let byType = nested.get(within);
  if (byType === undefined) nested.set(within, (byType = new Map()));
  let list = byType.get(type);
  if (list === undefined) byType.set(type, (list = [type, ...within]));
  return list;
}

/** A Join that tokenizes with regex rules. */
export function joinRules(rules: readonly Rule[]): Join {
  return { tokenize: (text) => runRules(text, rules) };
}

const plainText = joinRules([[/[\s\S]+/y, ""]]);

/** A Lexer that tokenizes with the language's Prism grammar and classifies the pieces. */
export function prismLexer(language: PrismLanguage): Lexer {
  const codeJoin = language.code === undefined ? plainText : joinRules(language.code);
  return {
    name: language.name,
    aliases: language.aliases,
    tokenize(code) {
      const out = new Collector(language.classify, codeJoin);
      flatten(language.tokenize === undefined ? Prism.tokenize(code, language.grammar) : language.tokenize(code), [], out);
      out.flush();
      return language.refine === undefined ? out.tokens : language.refine(out.tokens);
    },
  };
}
