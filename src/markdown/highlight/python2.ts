/**
 * Python 2, tokenized into Pygments' classes as its Python 2.x lexer does (`py2`, `python2`): the
 * Python lexer's rules where the languages agree, with Python 2's keywords (print and exec among
 * them), builtins, literals (True, False and None are pseudo-builtins; octal 0777, long 10L,
 * `backticks`) and strings without f-strings or str.format fields.
 */
import type { Lexer, Rule } from "./lexer.js";
import { runAfterShebang, statementRules, stringLiteral, words } from "./python.js";

const keywords = "assert break continue del elif else except exec finally for global if lambda pass print raise return try while yield as with";
const builtins =
  "__import__ abs all any apply basestring bin bool buffer bytearray bytes callable chr classmethod cmp coerce compile complex delattr dict dir divmod enumerate eval execfile exit file filter float frozenset getattr globals hasattr hash hex id input int intern isinstance issubclass iter len list locals long map max min next object oct open ord pow property range raw_input reduce reload repr reversed round set setattr slice sorted staticmethod str sum super tuple type unichr unicode vars xrange zip";
const exceptions =
  "ArithmeticError AssertionError AttributeError BaseException DeprecationWarning EOFError EnvironmentError Exception FloatingPointError FutureWarning GeneratorExit IOError ImportError ImportWarning IndentationError IndexError KeyError KeyboardInterrupt LookupError MemoryError NameError NotImplementedError OSError OverflowError OverflowWarning PendingDeprecationWarning ReferenceError RuntimeError RuntimeWarning StandardError StopIteration SyntaxError SyntaxWarning SystemError SystemExit TabError TypeError UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError UnicodeTranslateError UnicodeWarning UserWarning ValueError VMSError Warning WindowsError ZeroDivisionError";

const prefix = "([uUbB][rR]|[rR][uUbB]|[rRuUbB]|)";

const rules: Rule[] = [
  ...statementRules,
  [new RegExp(`${prefix}("""[\\s\\S]*?(?:"""|$))`, "y"), stringLiteral("s2", false)],
  [new RegExp(`${prefix}('''[\\s\\S]*?(?:'''|$))`, "y"), stringLiteral("s1", false)],
  [new RegExp(`${prefix}("(?:\\\\[\\s\\S]|[^"\\\\\\n])*"?)`, "y"), stringLiteral("s2", false)],
  [new RegExp(`${prefix}('(?:\\\\[\\s\\S]|[^'\\\\\\n])*'?)`, "y"), stringLiteral("s1", false)],
  [/`.*?`/y, "sb"],
  [words("and in is not or"), "ow"],
  [words(keywords), "k"],
  [words("self None Ellipsis NotImplemented False True cls"), "bp"],
  [words(builtins), "nb"],
  [words(exceptions), "ne"],
  [/(?:\d+\.\d*|\d*\.\d+)(?:[eE][+-]?\d+)?j?|\d+[eE][+-]?\d+j?/y, "mf"],
  [/0[0-7]+j?/y, "mo"],
  [/0[bB][01]+/y, "mb"],
  [/0[xX][a-fA-F0-9]+/y, "mh"],
  [/\d+L/y, "il"],
  [/\d+j?/y, "mi"],
  [/[\p{L}_][\p{L}\p{N}_]*/uy, "n"],
  [/!=|==|<<|>>|[-~+/*%=<>&^|.]/y, "o"],
  [/[\]{}:(),;[]/y, "p"],
  [/\\\n/y, ""],
  [/\\/y, ""],
];

/** Pygments' "Python 2.x" lexer, for the common subset of the language. */
export const python2Lexer: Lexer = {
  name: "Python 2.x",
  aliases: ["python2", "py2"],
  tokenize: (code) => runAfterShebang(code, rules),
};
