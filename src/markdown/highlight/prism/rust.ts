/** Rust: Prism finds comments, strings, characters, lifetimes and attributes; the code between follows Pygments' Rust lexer. */
import { runRules, type Rule, type Token } from "../lexer.js";
import { groups, stringRules } from "./common.js";
import { grammar } from "./grammars.js";
import { prismLexer } from "./lexer.js";

const words = (list: string, suffix = "\\b"): RegExp => new RegExp(`(?:${list.trim().split(/\s+/).join("|")})${suffix}`, "y");

const keywordTypes = words("u8 u16 u32 u64 u128 i8 i16 i32 i64 i128 usize isize f32 f64 char str bool");
const builtins = words(
  "Copy Send Sized Sync Unpin Drop Fn FnMut FnOnce drop Box ToOwned Clone PartialEq PartialOrd Eq Ord AsRef AsMut Into From Default Iterator " +
    "Extend IntoIterator DoubleEndedIterator ExactSizeIterator Option Some None Result Ok Err String ToString Vec",
);
const macros = words(
  "asm assert assert_eq assert_ne cfg column compile_error concat concat_idents dbg debug_assert debug_assert_eq debug_assert_ne env eprint " +
    "eprintln file format format_args format_args_nl global_asm include include_bytes include_str is_aarch64_feature_detected " +
    "is_arm_feature_detected is_mips64_feature_detected is_mips_feature_detected is_powerpc64_feature_detected is_powerpc_feature_detected " +
    "is_x86_feature_detected line llvm_asm log_syntax macro_rules matches module_path option_env panic print println stringify thread_local " +
    "todo trace_macros unimplemented unreachable vec write writeln",
  "!",
);

// After a `'`: lifetime names, until anything else.
const lifetime: Rule[] = [
  [/'/y, "o"],
  [/static|_/y, "nb"],
  [/[a-zA-Z_]\w*/y, "na"],
];

// After `:`, `->`, `struct` and the like Pygments expects a type: spaces, `&`, lifetimes, builtin
// and primitive types, then the first other name, a class, ends the state.
const typeState: Rule[] = [
  [/\s+/y, "w"],
  [/&/y, "kp"],
  [/'(?:static|_|[a-zA-Z_]\w*)*/y, (m) => runRules(m[0], lifetime)],
  [builtins, "nb"],
  [keywordTypes, "kt"],
  [/[a-zA-Z_]\w*/y, "nc"],
];
const typeStateSource = String.raw`((?:\s+|&|'(?:static|_|[a-zA-Z_]\w*)*|(?:${builtins.source}|${keywordTypes.source}))*(?:[a-zA-Z_]\w*)?)`;

/** The punctuation or keyword at m[1], then what the type state took (m[2]). */
function thenType(cls: string): (m: RegExpExecArray) => Token[] {
  return (m) => [{ cls, text: m[1] ?? "" }, ...runRules(m[2] ?? "", typeState)];
}

const numberSuffix = (cls: string) => groups(cls, "k");
const suffix = "((?:[ui](?:8|16|32|64|size)|f(?:32|64))(?![\\w]))?";

const code: Rule[] = [
  [/#![^[\r\n].*$/my, "cp"],
  [/\s+/y, "w"],
  [/\$(?:[a-zA-Z_]\w*|\(,?|\),?|,?)/y, "cp"],
  [words("as async await box const crate dyn else extern for if impl in loop match move mut pub ref return static super trait unsafe use where while"), "k"],
  [words("abstract become do final macro override priv typeof try unsized virtual yield"), "kr"],
  [/(?:true|false)\b/y, "kc"],
  [/self\b/y, "bp"],
  [/(mod\b)(\s*)([a-zA-Z_]\w*)?/y, groups("k", "w", "nn")],
  [/let\b/y, "kd"],
  [/(fn\b)(\s*)([a-zA-Z_]\w*)?/y, groups("k", "w", "nf")],
  [new RegExp(`((?:struct|enum|type|union)\\b)${typeStateSource}`, "y"), thenType("k")],
  [/(default)(\s+)(type|fn)\b/y, groups("k", "w", "k")],
  [keywordTypes, "kt"],
  [/[sS]elf\b/y, "bp"],
  [builtins, "nb"],
  [macros, "fm"],
  [/::\b/y, "p"],
  [new RegExp(`(:|->)${typeStateSource}`, "y"), thenType("p")],
  [/(break|continue)(\b\s*)('[A-Za-z_]\w*)?/y, groups("k", "w", "nl")],
  [new RegExp(`(0b[01_]+)${suffix}`, "y"), numberSuffix("mb")],
  [new RegExp(`(0o[0-7_]+)${suffix}`, "y"), numberSuffix("mo")],
  [new RegExp(`(0[xX][0-9a-fA-F_]+)${suffix}`, "y"), numberSuffix("mh")],
  [new RegExp(`([0-9][0-9_]*(?:\\.[0-9_]+[eE][+\\-]?[0-9_]+|\\.[0-9_]*(?!\\.)|[eE][+\\-]?[0-9_]+))${suffix}`, "y"), numberSuffix("mf")],
  [new RegExp(`([0-9][0-9_]*)${suffix}`, "y"), numberSuffix("mi")],
  [/'(?:static|_|[a-zA-Z_]\w*)*/y, (m) => runRules(m[0], lifetime)],
  [/\.\.=?/y, "o"],
  [/[{}()[\],.;]/y, "p"],
  [/[+\-*/%&|<>^!~@=:?]/y, "o"],
  [/r#[a-zA-Z_]\w*|[a-zA-Z_]\w*/y, "n"],
  [/#/y, "p"],
];

const escapes = /\\['"\\nrt]|\\x[0-7][0-9a-fA-F]|\\0|\\u\{[0-9a-fA-F]{1,6}\}/y;
const stringParts = stringRules("s", escapes);

export const rustLexer = prismLexer({
  name: "Rust",
  aliases: ["rust", "rs"],
  grammar: grammar("rust"),
  code,
  classify({ text, kinds, within }) {
    if (within.includes("attribute") || kinds[0] === "attribute") return kinds[0] === "string" ? stringParts : "cp";
    switch (kinds[0]) {
      case "comment":
        if (/^(?:\/\/!|\/\/\/(?!\/)|\/\*\*(?![*/])|\/\*!)/.test(text)) return "sd";
        return text.startsWith("//") ? "c1" : "cm";
      case "string":
        return /^b?r/.test(text) ? "s" : stringParts;
      case "char":
        return "sc";
      default:
        return null;
    }
  },
});
