/** JavaScript and TypeScript, tokenized into Pygments' classes. */
import { runRules, type Lexer, type Rule } from "./lexer.js";

const words = (list: string): RegExp => new RegExp(`(?:${list.split(" ").join("|")})(?![\\p{L}\\p{N}_$])`, "yu");

function rulesFor(extraKeywords: string): Rule[] {
  return [
    [/\n/y, ""],
    [/[^\S\n]+/y, ""],
    [/\/\/.*/y, "c1"],
    [/\/\*[\s\S]*?(?:\*\/|$)/y, "cm"],
    [/"(?:\\.|[^"\\\n])*"?/y, "s2"],
    [/'(?:\\.|[^'\\\n])*'?/y, "s1"],
    [/`(?:\\.|[^`\\])*`?/y, "sb"],
    [words("var let const function class with" + extraKeywords), "kd"],
    [words("typeof instanceof in void delete new"), "ow"],
    [words("for of while do break return continue switch case default if else throw try catch finally yield await async this super import export from as static extends debugger"), "k"],
    [words("abstract boolean byte char double enum final float goto implements int interface long native package private protected public short synchronized throws transient volatile"), "kr"],
    [words("true false null NaN Infinity undefined"), "kc"],
    [words("Array Boolean Date BigInt Error Function Math Number Object Promise RegExp String Symbol JSON Map Set WeakMap WeakSet Proxy Reflect Intl parseInt parseFloat isNaN isFinite eval decodeURI encodeURI decodeURIComponent encodeURIComponent window document globalThis"), "nb"],
    [/0[xX][0-9a-fA-F_]+n?/y, "mh"],
    [/(?:\d[\d_]*\.\d*|\.\d+)(?:[eE][+-]?\d+)?|\d[\d_]*[eE][+-]?\d+/y, "mf"],
    [/\d[\d_]*n?/y, "mi"],
    [/[\p{L}_$][\p{L}\p{N}_$]*/uy, "nx"],
    [/=>|\+\+|--|~|&&|\?\?|\?|:|\|\||\\(?=\n)|(?:<<|>>>?|==?|!=?|[-<>+*%&|^/])=?/y, "o"],
    [/[{([;,]/y, "p"],
    [/[})\].]/y, "p"],
  ];
}

const jsRules = rulesFor("");
const tsRules = rulesFor(" type interface enum declare namespace module readonly");

/** Pygments' "JavaScript" lexer, for the common subset of the language. */
export const javascriptLexer: Lexer = {
  name: "JavaScript",
  aliases: ["javascript", "js", "jsx", "mjs", "cjs"],
  tokenize: (code) => runRules(code, jsRules),
};

/** Pygments' "TypeScript" lexer, for the common subset of the language. */
export const typescriptLexer: Lexer = {
  name: "TypeScript",
  aliases: ["typescript", "ts", "tsx"],
  tokenize: (code) => runRules(code, tsRules),
};
