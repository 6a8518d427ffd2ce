/** Java: Prism finds comments, strings and characters; the code between follows Pygments' Java lexer. */
import { runRules, type Rule, type Token } from "../lexer.js";
import { groups } from "./common.js";
import { classifyCStyleLiteral, mergedGrammar } from "./grammars.js";
import { prismLexer } from "./lexer.js";

const ident = String.raw`(?:[\p{L}_$][\p{L}\p{N}_$]*)`;
const re = (source: string, flags = ""): RegExp => new RegExp(source, `yu${flags}`);

// The return type and modifiers before a method name are lexed as code themselves.
const method = (m: RegExpExecArray): Token[] => [
  ...runRules(m[1] ?? "", code),
  { cls: "nf", text: m[2] ?? "" },
  { cls: "w", text: m[3] ?? "" },
  { cls: "p", text: m[4] ?? "" },
];

const code: Rule[] = [
  [/[^\S\n]+/y, "w"],
  [re(String.raw`(?:assert|break|case|catch|continue|default|do|else|finally|for|if|goto|instanceof|new|return|switch|this|throw|try|while)\b`), "k"],
  // Pygments' repetitions are unbounded; sixteen words keep a long run of words linear to scan, and
  // the words further back are names either way. A word is at most 256 characters: otherwise a line
  // like `a<b<a<b…` is scanned to its end from each of its words.
  [re(String.raw`((?:[\p{L}_$][\p{L}\p{N}_.\[\]$<>]{0,255}\s+){1,16}?)(${ident})(\s*)(\()`), method],
  [re(String.raw`@${ident}[\p{L}\p{N}_.]*`), "nd"],
  [
    re(
      String.raw`(?:abstract|const|enum|extends|final|implements|native|private|protected|public|sealed|static|strictfp|super|synchronized|throws|transient|volatile|yield)\b`,
    ),
    "kd",
  ],
  [/(?:boolean|byte|char|double|float|int|long|short|void)\b/y, "kt"],
  [re(String.raw`(package|import(?:\s+static)?)(\s+)([\p{L}\p{N}_.]+\*?)?`), groups("kn", "w", "nn")],
  [/(?:true|false|null)\b/y, "kc"],
  [re(String.raw`(class|interface)\b(\s*)(${ident})?`), groups("kd", "", "nc")],
  [re(String.raw`(var)(\s+)(${ident})?`), groups("kd", "w", "n")],
  [re(String.raw`(\.)(${ident})`), groups("p", "na")],
  [re(String.raw`^(\s*)(default)(:)`, "m"), groups("w", "k", "p")],
  [re(String.raw`^(\s*)(${ident})(:)`, "m"), groups("w", "nl", "p")],
  [re(ident), "n"],
  [
    /(?:[0-9][0-9_]*\.(?:[0-9][0-9_]*)?|\.[0-9][0-9_]*)(?:[eE][+-]?[0-9][0-9_]*)?[fFdD]?|[0-9][eE][+-]?[0-9][0-9_]*[fFdD]?|[0-9](?:[eE][+-]?[0-9][0-9_]*)?[fFdD]|0[xX](?:[0-9a-fA-F][0-9a-fA-F_]*\.?|(?:[0-9a-fA-F][0-9a-fA-F_]*)?\.[0-9a-fA-F][0-9a-fA-F_]*)[pP][+-]?[0-9][0-9_]*[fFdD]?/y,
    "mf",
  ],
  [/0[xX][0-9a-fA-F][0-9a-fA-F_]*[lL]?/y, "mh"],
  [/0[bB][01][01_]*[lL]?/y, "mb"],
  [/0[0-7_]+[lL]?/y, "mo"],
  [/0|[1-9][0-9_]*[lL]?/y, "mi"],
  [/[~^*!%&[\]<>|+=/?-]/y, "o"],
  [/[{}();:.,]/y, "p"],
  [/\n/y, "w"],
];

export const javaLexer = prismLexer({
  name: "Java",
  aliases: ["java"],
  grammar: mergedGrammar("java", ["comment", "triple-quoted-string", "char", "string"], { literalsOnly: true }),
  code,
  classify: ({ text, kinds }) => classifyCStyleLiteral(text, kinds[0], ["string", "triple-quoted-string"]),
});
