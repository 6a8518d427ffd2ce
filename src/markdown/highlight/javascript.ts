/**
 * JavaScript and TypeScript, tokenized into Pygments' classes by Pygments 2.18's rules: a stack of
 * states, as its lexer has, for what depends on what came before — a `/` that starts a regex after
 * an operator, a bracket or a keyword; the code inside a template literal's `${…}`.
 */
import { rulesByFirstChar } from "./first-chars.js";
import type { Lexer, Token } from "./lexer.js";

/** What a rule does with the state stack once it matches. */
type Next = "regex" | "badregex" | "interp" | "inside" | "pop" | "pop-badregex" | null;

/** A sticky regex, the classes of its groups (or of the whole match), and the state change. */
type StateRule = [RegExp, string | readonly string[], Next];

const u = (source: string, flags = ""): RegExp => new RegExp(source, `yu${flags}`);
const end = String.raw`(?![\p{L}\p{N}_])`; // Python's \b after a word
const start = String.raw`(?<![\p{L}\p{N}_])`; // and before one
const words = (list: string): string => `(?:${list.split(" ").join("|")})${end}`;
const ident = String.raw`(?:[\p{L}\p{Nl}_$]|\\u[0-9a-fA-F]{4})(?:[\p{L}\p{Nl}\p{N}\p{Mn}\p{Mc}\p{Pc}_$\u200c\u200d]|\\u[0-9a-fA-F]{4})*`;

const commentsAndWhitespace: StateRule[] = [
  [/\s+/y, "w", null],
  [/<!--/y, "c", null],
  [/\/\/[^\n]*/y, "c1", null],
  [/\/\*[\s\S]*?\*\//y, "cm", null],
];

const builtins =
  "Array Boolean Date BigInt Function Math ArrayBuffer Number Object RegExp String Promise Proxy decodeURI decodeURIComponent encodeURI " +
  "encodeURIComponent eval isFinite isNaN parseFloat parseInt DataView document window globalThis global Symbol Intl WeakSet WeakMap Set Map " +
  "Reflect JSON Atomics Int(?:8|16|32)Array BigInt64Array Float32Array Float64Array Uint8ClampedArray Uint(?:8|16|32)Array BigUint64Array";

const jsRoot: StateRule[] = [
  [/(?<![\s\S])#! ?\/[^\n]*/y, "ch", null],
  [/^(?=\s|\/|<!--)/my, [], "regex"],
  ...commentsAndWhitespace,
  [/0[bB][01]+n?/y, "mb", null],
  [/0[oO]?[0-7]+n?/y, "mo", null],
  [/0[xX][0-9a-fA-F]+n?/y, "mh", null],
  [/[0-9]+n/y, "mi", null],
  [/(?:\.[0-9]+|[0-9]+\.[0-9]*|[0-9]+)(?:[eE][-+]?[0-9]+)?/y, "mf", null],
  [/\.\.\.|=>/y, "p", null],
  [/\+\+|--|~|\?\?=?|\?|:|\\(?=\n)|(?:<<|>>>?|==?|!=?|\*\*|\|\||&&|[-<>+*%&|^/])=?/y, "o", "regex"],
  [/[{([;,]/y, "p", "regex"],
  [/[})\].]/y, "p", null],
  [u(words("typeof instanceof in void delete new")), "ow", "regex"],
  [u(start + words("constructor from as")), "kr", null],
  [
    u(words("for in while do break return continue switch case default if else throw try catch finally yield await async this of static export import debugger extends super")),
    "k",
    "regex",
  ],
  [u(words("var let const with function class")), "kd", "regex"],
  [
    u(words("abstract boolean byte char double enum final float goto implements int interface long native package private protected public short synchronized throws transient volatile")),
    "kr",
    null,
  ],
  [u(words("true false null NaN Infinity undefined")), "kc", null],
  [u(words(builtins)), "nb", null],
  [u(`(?:Eval|Internal|Range|Reference|Syntax|Type|URI)?Error${end}`), "ne", null],
  // Pygments' repetitions here and in TypeScript's `name: type` are unbounded, which scans a long
  // run of dotted names to its end from each of its names; names are at most 256 characters.
  [/[a-zA-Z_?.$][\w?.$]{0,255}(?=\(\) \{)/y, "nx", "regex"],
  [u(ident), "nx", null],
  [/"(?:\\[\s\S]|[^"\\])*"/y, "s2", null],
  [/'(?:\\[\s\S]|[^'\\])*'/y, "s1", null],
  [/`/y, "sb", "interp"],
];

// TypeScript's rules come before JavaScript's.
const wordChars = String.raw`[\p{L}\p{N}_?.$]`;
const tsRoot: StateRule[] = [
  [u(words("abstract implements private protected public readonly")), "k", "regex"],
  [u(words("enum interface override")), "kd", "regex"],
  [u(start + words("declare type")), "kr", null],
  [u(start + words("string boolean number")), "kt", null],
  [u(`${start}(module)(\\s*)(${wordChars}+)(\\s*)`), ["kr", "w", "nx", "w"], "regex"],
  [u(`(${wordChars}{1,256})(\\s*)(:)(\\s*)(${wordChars}+)`), ["nx", "w", "o", "w", "kt"], null],
  [u(`@${ident}`), "kd", null],
  ...jsRoot,
];

const regexStart: StateRule[] = [
  ...commentsAndWhitespace,
  [/\/(?:\\[\s\S]|[^[/\\\n]|\[(?:\\[\s\S]|[^\]\\\n])*\])+\/(?:[gimuysd]+)?(?![\p{L}\p{N}_])/uy, "sr", "pop"],
  [/(?=\/)/y, [], "pop-badregex"],
  [/(?:)/y, [], "pop"],
];

const badRegex: StateRule[] = [[/\n/y, "w", "pop"]];

const interp: StateRule[] = [
  [/`/y, "sb", "pop"],
  [/\\[\s\S]/y, "sb", null],
  [/\$\{/y, "si", "inside"],
  [/\$/y, "sb", null],
  [/[^`\\$]+/y, "sb", null],
];

type StateName = "root" | "regex" | "badregex" | "interp" | "inside";

function tables(root: StateRule[]): Record<StateName, StateRule[]> {
  return { root, regex: regexStart, badregex: badRegex, interp, inside: [[/\}/y, "si", "pop"], ...root] };
}

const dispatch = new WeakMap<readonly StateRule[], StateRule[][]>();

function tokenize(code: string, states: Record<StateName, StateRule[]>): Token[] {
  const tokens: Token[] = [];
  const push = (cls: string, text: string): void => {
    if (text !== "") tokens.push({ cls, text });
  };
  const stack: StateName[] = ["root"];
  let pos = 0;
  // Rules that match nothing only change the state; a few in a row at one place are a loop.
  let emptyAt = -1;
  let empties = 0;
  outer: while (pos < code.length) {
    const rules = states[stack[stack.length - 1] ?? "root"];
    // Only the rules that can match the character here are tried.
    for (const [re, cls, next] of rulesByFirstChar(rules, dispatch)[Math.min(code.charCodeAt(pos), 128)] ?? rules) {
      re.lastIndex = pos;
      const m = re.exec(code);
      if (m === null || (m[0] === "" && (next === null || (emptyAt === pos && empties >= 4)))) continue;
      if (typeof cls === "string") push(cls, m[0]);
      else cls.forEach((c, i) => push(c, m[i + 1] ?? ""));
      empties = m[0] !== "" ? 0 : emptyAt === pos ? empties + 1 : 1;
      emptyAt = m[0] === "" ? pos : -1;
      pos += m[0].length;
      if (next === "pop" || next === "pop-badregex") {
        if (stack.length > 1) stack.pop();
        if (next === "pop-badregex") stack.push("badregex");
      } else if (next === "regex" || next === "interp" || next === "inside" || next === "badregex") stack.push(next);
      continue outer;
    }
    // No rule: a line break goes back to the root state, anything else is an error.
    if (code[pos] === "\n") {
      stack.length = 1;
      push("w", "\n");
    } else push("err", code[pos] ?? "");
    emptyAt = -1;
    empties = 0;
    pos++;
  }
  return tokens;
}

const jsStates = tables(jsRoot);
const tsStates = tables(tsRoot);

/** Pygments' "JavaScript" lexer. */
export const javascriptLexer: Lexer = {
  name: "JavaScript",
  aliases: ["javascript", "js", "jsx", "mjs", "cjs"],
  tokenize: (code) => tokenize(code, jsStates),
};

/** Pygments' "TypeScript" lexer. */
export const typescriptLexer: Lexer = {
  name: "TypeScript",
  aliases: ["typescript", "ts", "tsx"],
  tokenize: (code) => tokenize(code, tsStates),
};
