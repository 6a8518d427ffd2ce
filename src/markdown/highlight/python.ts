/** Python, tokenized into Pygments' classes. */
import { runRules, type Lexer, type Rule, type Token } from "./lexer.js";

const keywords = "assert async await break continue del elif else except finally for global if lambda match case nonlocal pass raise return try while yield with as";
const builtins = "abs all any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile complex delattr dict dir divmod enumerate eval exec filter float format frozenset getattr globals hasattr hash help hex id input int isinstance issubclass iter len list locals map max memoryview min next object oct open ord pow print property range repr reversed round set setattr slice sorted staticmethod str sum super tuple type vars zip __import__";
const exceptions = "ArithmeticError AssertionError AttributeError BaseException Exception EOFError ImportError IndexError KeyError KeyboardInterrupt LookupError NameError NotImplementedError OSError OverflowError RuntimeError StopIteration SyntaxError SystemExit TypeError ValueError ZeroDivisionError";

const words = (list: string): RegExp => new RegExp(`(?:${list.split(" ").join("|")})(?![\\p{L}\\p{N}_])`, "yu");

function declaration(cls: string): (m: RegExpExecArray) => Token[] {
  return (m) => [
    { cls: "k", text: m[1] ?? "" },
    { cls: "", text: m[2] ?? "" },
    { cls, text: m[3] ?? "" },
  ];
}

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

// A string literal: its prefix (r, b, f…) is an affix, and escapes are split out unless raw.
function stringLiteral(cls: string): (m: RegExpExecArray) => Token[] {
  return (m) => {
    const prefix = m[1] ?? "";
    const body = m[2] ?? "";
    const tokens: Token[] = prefix === "" ? [] : [{ cls: "sa", text: prefix }];
    if (/r/i.test(prefix)) return [...tokens, { cls, text: body }];
    let last = 0;
    for (const e of body.matchAll(escapeRe)) {
      const at = e.index ?? 0;
      if (at > last) tokens.push({ cls, text: body.slice(last, at) });
      tokens.push({ cls: "se", text: e[0] });
      last = at + e[0].length;
    }
    if (last < body.length) tokens.push({ cls, text: body.slice(last) });
    return tokens;
  };
}

const rules: Rule[] = [
  [/\n/y, ""],
  [/[^\S\n]+/y, ""],
  [/#.*/y, "c1"],
  [/@[\p{L}_][\p{L}\p{N}_.]*/uy, "nd"],
  [/(def)(\s+)([\p{L}_][\p{L}\p{N}_]*)/uy, declaration("nf")],
  [/(class)(\s+)([\p{L}_][\p{L}\p{N}_]*)/uy, declaration("nc")],
  [/(from)(\s+)([\p{L}_.][\p{L}\p{N}_.]*)(\s+)(import)(?![\p{L}\p{N}_])/uy, importLine],
  [/(from|import)(\s+)([\p{L}_][\p{L}\p{N}_.]*)/uy, importLine],
  [/(?<=^[^\S\n]*)([rRuUbB]{0,2})("""[\s\S]*?(?:"""|$)|'''[\s\S]*?(?:'''|$))/my, stringLiteral("sd")],
  [/([rRuUbBfF]{0,2})("""[\s\S]*?(?:"""|$))/y, stringLiteral("s2")],
  [/([rRuUbBfF]{0,2})('''[\s\S]*?(?:'''|$))/y, stringLiteral("s1")],
  [/([rRuUbBfF]{0,2})("(?:\\.|[^"\\\n])*"?)/y, stringLiteral("s2")],
  [/([rRuUbBfF]{0,2})('(?:\\.|[^'\\\n])*'?)/y, stringLiteral("s1")],
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
];

/** Pygments' "Python" lexer, for the common subset of the language. */
export const pythonLexer: Lexer = {
  name: "Python",
  aliases: ["python", "py", "sage", "python3", "py3", "bazel", "starlark"],
  tokenize(code) {
    // A first-line `#!` is a hashbang comment of its own class.
    const shebang = /^#!.*/.exec(code);
    if (shebang === null) return runRules(code, rules);
    return [{ cls: "ch", text: shebang[0] }, ...runRules(code.slice(shebang[0].length), rules)];
  },
};
