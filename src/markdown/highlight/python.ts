/** Python, tokenized into Pygments' classes. */
import { runRules, type Lexer, type Rule, type Token } from "./lexer.js";

const keywords = "assert async await break continue del elif else except finally for global if lambda match case nonlocal pass raise return try while yield with as";
const builtins = "abs all any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex delattr dict dir divmod enumerate eval exec filter float format frozenset getattr globals hasattr hash help hex id input int isinstance issubclass iter len list locals map max memoryview min next object oct open ord pow print property range repr reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip __import__";
const exceptions = "ArithmeticError AssertionError AttributeError BaseException Exception EOFError ImportError IndexError KeyError KeyboardInterrupt LookupError NameError NotImplementedError OSError OverflowError RuntimeError StopIteration SyntaxError SystemExit TypeError ValueError ZeroDivisionError";

/** A sticky regex of whole words from a space-separated list. */
export const words = (list: string): RegExp => new RegExp(`(?:${list.split(" ").join("|")})(?![\\p{L}\\p{N}_])`, "yu");

/** `def name` / `class name`: keyword, space, the name in `cls`. */
function declaration(cls: string): (m: RegExpExecArray) => Token[] {
  return (m) => [
    { cls: "k", text: m[1] ?? "" },
    { cls: "", text: m[2] ?? "" },
    { cls, text: m[3] ?? "" },
  ];
}

/** `import x`, `from x import`: keywords "kn", the module "nn". */
function importLine(m: RegExpExecArray): Token[] {
  const tokens = [
    { cls: "kn", text: m[1] ?? "" },
    { cls: "", text: m[2] ?? "" },
    { cls: "nn", text: m[3] ?? "" },
  ];
  // "from x import y": the second keyword belongs to the same statement.
  if (m[5] !== undefined) tokens.push({ cls: "", text: m[4] ?? "" }, { cls: "kn", text: m[5] });
  return tokens;
}

const escapeRe = /\\(?:[\\abfnrtv"'\n]|N\{[^}]*\}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2}|[0-7]{1,3})/g;

// Escapes: of strings, of bytes (no \N, \u, \U), and the ones single-line strings have even when raw.
const stringEscape = /\\(?:N\{[^\n]*?\}|u[a-fA-F0-9]{4}|U[a-fA-F0-9]{8})/y;
const bytesEscape = /\\(?:[\\abfnrtv"']|\n|x[a-fA-F0-9]{2}|[0-7]{1,3})/y;
const lineEscapes: Record<string, RegExp> = { '"': /\\\\|\\"|\\\n/y, "'": /\\\\|\\'|\\\n/y };
// %-formatting and str.format fields, which Pygments marks in every plain string.
const percentField = /%(?:\([\p{L}\p{N}_]+\))?[-#0 +]*(?:[0-9]+|[*])?(?:\.(?:[0-9]+|[*]))?[hlL]?[E-GXc-giorsaux%]/uy;
const formatField =
  /\{(?:[\p{L}\p{N}_]+(?:\.[\p{L}\p{N}_]+|\[[^\]]+\])*)?(?:![sra])?(?::(?:[^\n]?[<>=^])?[-+ ]?#?0?(?:\d+)?,?(?:\.\d+)?[E-GXb-gnosx%]?)?\}/uy;
const stringText = /[^\\'"%{\n]+|\{\{?|[\s\S]/y;

/**
 * A string literal (not an f-string): its prefix (r, b, u…) is an affix; its escapes (not in raw
 * strings, but for a quote, a backslash or a line break after one in a one-line string) and
 * formatting fields (% fields, and str.format fields unless `formatFields` is false) are split out.
 */
export function stringLiteral(cls: string, formatFields = true): (m: RegExpExecArray) => Token[] {
  return (m) => {
    const prefix = m[1] ?? "";
    const body = m[2] ?? "";
    const tokens: Token[] = prefix === "" ? [] : [{ cls: "sa", text: prefix }];
    const quote = body.startsWith('"""') || body.startsWith("'''") ? body.slice(0, 3) : body.slice(0, 1);
    const end = body.length >= 2 * quote.length && body.endsWith(quote) ? body.length - quote.length : body.length;
    const escapes: RegExp[] = [];
    if (!/r/i.test(prefix)) escapes.push(...(/b/i.test(prefix) ? [bytesEscape] : [stringEscape, bytesEscape]));
    const lineEscape = lineEscapes[quote];
    if (lineEscape !== undefined) escapes.push(lineEscape);
    tokens.push({ cls, text: quote });
    let pos = quote.length;
    outer: while (pos < end) {
      for (const re of escapes) {
        const e = matchAt(re, body, pos, end);
        if (e === null) continue;
        tokens.push({ cls: "se", text: e });
        pos += e.length;
        continue outer;
      }
      const f = matchAt(percentField, body, pos, end) ?? (formatFields ? matchAt(formatField, body, pos, end) : null);
      const text = f ?? matchAt(stringText, body, pos, end) ?? body.slice(pos, pos + 1);
      tokens.push({ cls: f === null ? cls : "si", text });
      pos += text.length;
    }
    if (end < body.length) tokens.push({ cls, text: quote });
    return tokens;
  };
}

/**
 * A docstring: a closed triple-quoted string first on its line, the indentation before it
 * whitespace. Pygments leaves its escapes in it.
 */
function docstring(m: RegExpExecArray): Token[] {
  const tokens: Token[] = [];
  if (m[1] !== undefined && m[1] !== "") tokens.push({ cls: "w", text: m[1] });
  if (m[2] !== undefined && m[2] !== "") tokens.push({ cls: "sa", text: m[2] });
  tokens.push({ cls: "sd", text: m[3] ?? "" });
  return tokens;
}

// An f-string (prefix f, fr or rf): its text and escapes, and its `{…}` fields, whose expressions
// are Python and whose marks (`{`, `}`, a conversion `!r`, a `:` before a format spec) are "si".
function fString(cls: string): (m: RegExpExecArray) => Token[] {
  return (m) => {
    const prefix = m[1] ?? "";
    const body = m[2] ?? "";
    const quote = body.startsWith('"""') || body.startsWith("'''") ? body.slice(0, 3) : body.slice(0, 1);
    const end = body.length >= 2 * quote.length && body.endsWith(quote) ? body.length - quote.length : body.length;
    const escape = /r/i.test(prefix) ? (quote.length === 3 ? null : new RegExp(String.raw`\\\\|\\${quote}|\\\n`, "y")) : escapeSticky;
    const tokens: Token[] = [{ cls: "sa", text: prefix }, { cls, text: quote }];
    let pos = quote.length;
    while (pos < end) {
      const c = body[pos] ?? "";
      const e = escape === null ? null : matchAt(escape, body, pos, end);
      if (e !== null) {
        tokens.push({ cls: "se", text: e });
        pos += e.length;
      } else if ((c === "{" || c === "}") && body[pos + 1] === c && pos + 1 < end) {
        tokens.push({ cls: "se", text: c + c });
        pos += 2;
      } else if (c === "}") {
        tokens.push({ cls: "si", text: c });
        pos++;
      } else if (c === "{") {
        tokens.push({ cls: "si", text: c });
        pos = field(body.slice(0, end), pos + 1, tokens);
      } else {
        const text = matchAt(/[^\\'"{}\n]+|[\s\S]/y, body, pos, end) ?? c;
        tokens.push({ cls, text });
        pos += text.length;
      }
    }
    if (end < body.length) tokens.push({ cls, text: quote });
    return tokens;
  };
}

const escapeSticky = new RegExp(escapeRe.source, "y");
const fieldEnd = /(?:=\s*)?(?:![sraf])?[:}]/y;

// The match of a sticky regex at `pos` if it ends by `end`, else null.
function matchAt(re: RegExp, text: string, pos: number, end: number): string | null {
  re.lastIndex = pos;
  const m = re.exec(text);
  return m === null || m[0] === "" || pos + m[0].length > end ? null : m[0];
}

// The expression of an f-string field from `pos` (after its `{`), up to and with the mark that ends
// it; brackets inside it nest. Returns where the string's text goes on.
function field(text: string, pos: number, tokens: Token[]): number {
  let depth = 0;
  while (pos < text.length) {
    const c = text[pos] ?? "";
    const mark = depth === 0 ? matchAt(fieldEnd, text, pos, text.length) : null;
    if (mark !== null) {
      tokens.push({ cls: "si", text: mark });
      return pos + mark.length;
    }
    if ("{([".includes(c) || (depth > 0 && ")]}".includes(c))) {
      depth += "{([".includes(c) ? 1 : -1;
      tokens.push({ cls: "p", text: c });
      pos++;
      continue;
    }
    const space = matchAt(/\s+/y, text, pos, text.length);
    if (space !== null) {
      tokens.push({ cls: "w", text: space });
      pos += space.length;
      continue;
    }
    const token = step(text, pos);
    for (const t of token.tokens) tokens.push(t);
    pos += token.length;
  }
  return pos;
}

// One token of Python code at `pos`.
function step(text: string, pos: number): { tokens: Token[]; length: number } {
  for (const [re, action] of rules) {
    re.lastIndex = pos;
    const m = re.exec(text);
    if (m === null || m[0] === "") continue;
    return { tokens: typeof action === "string" ? [{ cls: action, text: m[0] }] : action(m), length: m[0].length };
  }
  return { tokens: [{ cls: "err", text: text[pos] ?? "" }], length: 1 };
}

/** The rules Python 2 and 3 share, tried first: lines, docstrings, comments, decorators, def, class and imports. */
export const statementRules: Rule[] = [
  [/\n/y, ""],
  [/^(\s*)([rRuUbB]{0,2})("""[\s\S]*?"""|'''[\s\S]*?''')/my, docstring],
  [/[^\S\n]+/y, ""],
  [/#.*/y, "c1"],
  [/@[\p{L}_][\p{L}\p{N}_.]*/uy, "nd"],
  [/(def)(\s+)([\p{L}_][\p{L}\p{N}_]*)/uy, declaration("nf")],
  [/(class)(\s+)([\p{L}_][\p{L}\p{N}_]*)/uy, declaration("nc")],
  [/(from)(\s+)([\p{L}_.][\p{L}\p{N}_.]*)(\s+)(import)(?![\p{L}\p{N}_])/uy, importLine],
  [/(from|import)(\s+)([\p{L}_][\p{L}\p{N}_.]*)/uy, importLine],
];

const rules: Rule[] = [
  ...statementRules,
  [/([fF][rR]?|[rR][fF])("""[\s\S]*?(?:"""|$))/y, fString("s2")],
  [/([fF][rR]?|[rR][fF])('''[\s\S]*?(?:'''|$))/y, fString("s1")],
  [/([fF][rR]?|[rR][fF])("(?:\\[\s\S]|[^"\\\n])*"?)/y, fString("s2")],
  [/([fF][rR]?|[rR][fF])('(?:\\[\s\S]|[^'\\\n])*'?)/y, fString("s1")],
  [/([rR][bB]|[bB][rR]|[rRuUbB]|)("""[\s\S]*?(?:"""|$))/y, stringLiteral("s2")],
  [/([rR][bB]|[bB][rR]|[rRuUbB]|)('''[\s\S]*?(?:'''|$))/y, stringLiteral("s1")],
  [/([rR][bB]|[bB][rR]|[rRuUbB]|)("(?:\\[\s\S]|[^"\\\n])*"?)/y, stringLiteral("s2")],
  [/([rR][bB]|[bB][rR]|[rRuUbB]|)('(?:\\[\s\S]|[^'\\\n])*'?)/y, stringLiteral("s1")],
  [words("True False None"), "kc"],
  [words("and in is not or"), "ow"],
  [words(keywords), "k"],
  [words("self cls"), "bp"],
  [words(builtins), "nb"],
  [words(exceptions), "ne"],
  [/0[xX][0-9a-fA-F_]+/y, "mh"],
  [/0[oO][0-7_]+/y, "mo"],
  [/0[bB][01_]+/y, "mb"],
  [/(?:\d[\d_]*\.\d*|\.\d+)(?:[eE][+-]?\d+)?j?|\d[\d_]*[eE][+-]?\d+j?/y, "mf"],
  [/\d[\d_]*j?/y, "mi"],
  [/[\p{L}_][\p{L}\p{N}_]*/uy, "n"],
  [/!=|==|<<|>>|:=|[-~+/*%=<>&^|.@]/y, "o"],
  [/[\]{}:(),;[]/y, "p"],
  [/\\\n/y, ""],
  [/\\/y, ""],
];

/** Pygments' "Python" lexer, for the common subset of the language. */
export const pythonLexer: Lexer = {
  name: "Python",
  aliases: ["python", "py", "sage", "python3", "py3", "bazel", "starlark"],
  tokenize: (code) => runAfterShebang(code, rules),
};

/** Tokens of `code` by `rules`, a first-line `#!` being a hashbang comment of its own class. */
export function runAfterShebang(code: string, rules: Rule[]): Token[] {
  const shebang = /^#!.*/.exec(code);
  if (shebang === null) return runRules(code, rules);
  return [{ cls: "ch", text: shebang[0] }, ...runRules(code.slice(shebang[0].length), rules)];
}
