/**
 * Ruby: Prism finds comments, strings (and their interpolations), symbols, regexes and heredocs
 * (as one token, then told apart: ruby-literals.ts); the code between, interpolated code included,
 * follows Pygments' Ruby lexer.
 */
import type { Lexer, Rule } from "../lexer.js";
import { escapeRe, groups, wordsRe } from "./common.js";
import { prismLexer } from "./lexer.js";
import { mergedRuby, tokenizeRuby } from "./ruby-literals.js";

const operators = "* ** - + -@ +@ / % & | ^ ` ~ [] []= << >> < <> <=> > >= == ===";
const operatorRe = operators
  .split(" ")
  .sort((a, b) => b.length - a.length)
  .map(escapeRe)
  .join("|");
const builtins =
  "Array Float Integer String __id__ __send__ abort ancestors at_exit autoload binding callcc caller catch chomp chop class_eval class_variables " +
  "clone const_defined? const_get const_missing const_set constants display dup eval exec exit extend fail fork format freeze getc gets " +
  "global_variables gsub hash id included_modules inspect instance_eval instance_method instance_methods instance_variable_get " +
  "instance_variable_set instance_variables lambda load local_variables loop method method_missing methods module_eval name object_id open p " +
  "print printf private_class_method private_instance_methods private_methods proc protected_instance_methods protected_methods " +
  "public_class_method public_instance_methods public_methods putc puts raise rand readline readlines require scan select self send " +
  "set_trace_func singleton_methods sleep split sprintf srand sub syscall system taint test throw to_a to_s trace_var trap untaint untrace_var warn";
const methodName = String.raw`[a-zA-Z\u0080-\uffff][a-zA-Z0-9_\u0080-\uffff]*[!?=]?|!=|!~|=~|\*\*?|[-+!~]@?|[/%&|^]|<=>|<[<=]?|>[>=]?|===?|\[\]=?|` + "`";

const code: Rule[] = [
  [wordsRe("BEGIN END alias begin break case defined? do else elsif end ensure for if in next redo rescue raise retry return super then undef unless until when while yield", "(?![\\w])"), "k"],
  [/(module)(\s+)([a-zA-Z_]\w*(?:::[a-zA-Z_]\w*)*)/y, groups("k", "w", "nn")],
  [new RegExp(`(def)(\\s+)(?:([a-zA-Z_]\\w*)(\\.))?(${methodName})?`, "y"), groups("k", "w", "nc", "o", "nf")],
  [new RegExp(`(def)(?=[*%&^\`~+-/\\[<>=])(?:([a-zA-Z_]\\w*)(\\.))?(${methodName})?`, "y"), groups("k", "nc", "o", "nf")],
  [/(class)(\s+)(?:(<<)|([A-Z_]\w*))?/y, groups("k", "w", "o", "nc")],
  [
    wordsRe(
      "initialize new loop include extend raise attr_reader attr_writer attr_accessor attr catch throw private module_function public protected true false nil",
    ),
    "kp",
  ],
  [/(?:not|and|or)\b/y, "ow"],
  [
    wordsRe(
      "autoload block_given const_defined eql equal frozen include instance_of is_a iterator kind_of method_defined nil private_method_defined " +
        "protected_method_defined public_method_defined respond_to tainted",
      "\\?",
    ),
    "nb",
  ],
  [/(?:chomp|chop|exit|gsub|sub)!/y, "nb"],
  [new RegExp(`(?<!\\.)${wordsRe(builtins).source}`, "y"), "nb"],
  [/__(?:FILE|LINE)__\b/y, "bp"],
  [/__END__/y, "cp"],
  [/(0_?[0-7]+(?:_[0-7]+)*)(\s*)([/?])?/y, groups("mo", "w", "o")],
  [/(0x[0-9A-Fa-f]+(?:_[0-9A-Fa-f]+)*)(\s*)([/?])?/y, groups("mh", "w", "o")],
  [/(0b[01]+(?:_[01]+)*)(\s*)([/?])?/y, groups("mb", "w", "o")],
  [/(\d+(?:_\d+)*)(\s*)([/?])?/y, groups("mi", "w", "o")],
  [/@@[a-zA-Z_]\w*/y, "vc"],
  [/@[a-zA-Z_]\w*/y, "vi"],
  [/\$\w+|\$[!@&`'+~=/\\,;.<>_*$?:"^-]|\$-[0adFiIlpvw]/y, "vg"],
  [/::/y, "o"],
  [/:@{0,2}[a-zA-Z_]\w*[!?]?/y, "ss"],
  [new RegExp(`:@{0,2}(?:${operatorRe})`, "y"), "ss"],
  [/([a-zA-Z_]\w*)(:)(?!:)/y, groups("ss", "p")],
  [/\?(?:\\[MC]-)*(?:\\(?:[\\abefnrstv#"']|x[a-fA-F0-9]{1,2}|[0-7]{1,3})|\S)(?!\w)/y, "sc"],
  [/[A-Z]\w+/y, "no"],
  [new RegExp(`(\\.|::)(${operatorRe})`, "y"), groups("o", "n")],
  [/(\.|::)([a-zA-Z_]\w*[!?]?|[*%&^`~+\-/[<>=])/y, groups("o", "n")],
  [/[a-zA-Z_]\w*[!?]?/y, "n"],
  [/\[|\]|\*\*|<=>|<<?|>>?|>=|<=|=~|={3}|!~|&&?|\|\||\.{1,3}/y, "o"],
  [/[-+/*%=<>&!^|~]=?/y, "o"],
  [/[(){};,/?:\\]/y, "p"],
  [/\s+/y, "w"],
];

function stringRules(cls: string): Rule[] {
  return [
    [/\\(?:[\\abefnrstv#"']|x[a-fA-F0-9]{1,2}|[0-7]{1,3})/y, "se"],
    [/#@@?[a-zA-Z_]\w*|#\$[a-zA-Z_]\w*/y, "si"],
    [/[^\\#]+|[\\#]/y, cls],
  ];
}
const doubleQuoted = stringRules("s2");
const quoteClasses: Record<string, Rule[]> = { '"': doubleQuoted, "'": stringRules("s1"), "`": stringRules("sb"), "%": stringRules("sx") };

// The class of the string being read: its opening quote comes with its first piece.
let current = doubleQuoted;

const lexer = prismLexer({
  name: "Ruby",
  aliases: ["ruby", "rb", "duby"],
  grammar: mergedRuby,
  tokenize: tokenizeRuby,
  code,
  classify({ text, kinds, within }) {
    // `#{` and `}` are interpolation marks; the code inside them is code.
    if (within.includes("interpolation")) return kinds[0] === "delimiter" && within[0] === "interpolation" ? "si" : null;
    switch (kinds[0]) {
      case "comment":
        return text.startsWith("=begin") ? "cm" : "c1";
      case "string":
      case "heredoc-string":
        current = quoteClasses[text[0] ?? ""] ?? current;
        return within.includes("regex-literal") ? "sr" : current;
      case "symbol":
        // A hash key (`name:`, its colon apart) is read by the code rules: Pygments takes builtin names first.
        return text.startsWith(":") ? "ss" : null;
      case "regex":
        return "sr";
      default:
        return null;
    }
  },
});

export const rubyLexer: Lexer = {
  ...lexer,
  tokenize(code) {
    current = doubleQuoted;
    return lexer.tokenize(code);
  },
};
