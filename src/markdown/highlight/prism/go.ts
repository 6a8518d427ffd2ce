/** Go: Prism finds comments, strings and runes; the code between follows Pygments' Go lexer. */
import type { Rule } from "../lexer.js";
import { groups } from "./common.js";
import { classifyCStyleLiteral, mergedGrammar } from "./grammars.js";
import { prismLexer } from "./lexer.js";

const typeNames = "uint uint8 uint16 uint32 uint64 int int8 int16 int32 int64 float float32 float64 complex64 complex128 byte rune string bool error uintptr any comparable";
const builtinFunctions = "print println panic recover close complex real imag len cap append copy delete new make min max clear";
const words = (list: string): string => `(?:${list.split(" ").join("|")})`;

const code: Rule[] = [
  [/\s+/y, "w"],
  [/(\\)(\n)/y, groups("", "w")],
  [/(?:import|package)\b/y, "kn"],
  [/(?:var|func|struct|map|chan|type|interface|const)\b/y, "kd"],
  [/(?:break|default|select|case|defer|go|else|goto|switch|fallthrough|if|range|continue|for|return)\b/y, "k"],
  [/(?:true|false|iota|nil)\b/y, "kc"],
  [new RegExp(`(${words(`${typeNames} ${builtinFunctions}`)}\\b)(\\()`, "y"), groups("nb", "p")],
  [new RegExp(`${words(typeNames)}\\b`, "y"), "kt"],
  [/\d+i|\d+\.\d*(?:[Ee][-+]\d+)?i|\.\d+(?:[Ee][-+]\d+)?i|\d+[Ee][-+]\d+i/y, "m"],
  [/\d+(?:\.\d+[eE][+-]?\d+|\.\d*|[eE][+-]?\d+)|\.\d+(?:[eE][+-]?\d+)?/y, "mf"],
  [/0[0-7]+/y, "mo"],
  [/0[xX][0-9a-fA-F]+/y, "mh"],
  [/0|[1-9][0-9]*/y, "mi"],
  [/<<=|>>=|<<|>>|<=|>=|&\^=|&\^|\+=|-=|\*=|\/=|%=|&=|\|=|&&|\|\||<-|\+\+|--|==|!=|:=|\.\.\.|[+\-*/%&~|]/y, "o"],
  [/[|^<>=!()[\]{}.,;:]/y, "p"],
  [/[\p{L}_][\p{L}\p{N}_]*/uy, "nx"],
];

export const goLexer = prismLexer({
  name: "Go",
  aliases: ["go", "golang"],
  grammar: mergedGrammar("go", ["comment", "char", "string"], { literalsOnly: true }),
  code,
  classify: ({ text, kinds }) => classifyCStyleLiteral(text, kinds[0]),
});
