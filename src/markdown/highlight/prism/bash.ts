/**
 * Bash, by Pygments' Bash rules on a stack of states. Not Prism: its bash grammar does not nest
 * quotes inside command substitutions (`"$(dirname "$0")"`) the way Pygments reads them.
 */
import type { Lexer } from "../lexer.js";
import { groups } from "./common.js";
import { include, runStates, type StateRule } from "./states.js";

const builtins =
  "alias bg bind builtin caller cd command compgen complete declare dirs disown echo enable eval exec exit export false fc fg getopts hash help " +
  "history jobs kill let local logout popd printf pushd pwd read readonly set shift shopt source suspend test time times trap true type typeset " +
  "ulimit umask unalias unset wait";

const states: Record<string, StateRule[]> = {
  basic: [
    [/\b(if|fi|else|while|in|do|done|for|then|return|function|case|select|break|continue|until|esac|elif)(\s*)\b/y, groups("k", "w")],
    [new RegExp(`\\b(?:${builtins.split(" ").join("|")})(?=[\\s)\`])`, "y"), "nb"],
    [/(?<![\s\S])#!.+\n/y, "ch"],
    [/#.*\n/y, "c1"],
    [/\\[\s\S]/y, "se"],
    [/(\b\w+)(\s*)(\+?=)/y, groups("nv", "w", "o")],
    [/[[\]{}()=]/y, "o"],
    [/<<</y, "o"],
    [/<<-?\s*('?)\\?(\w+)[\s\S]+?\2/y, "s"],
    [/&&|\|\|/y, "o"],
  ],
  data: [
    [/\$?"(?:\\[\s\S]|[^"\\$])*"/y, "s2"],
    [/"/y, "s2", "string"],
    [/\$'(?:\\\\|\\[0-7]+|\\[\s\S]|[^'\\])*'/y, "s1"],
    [/'[\s\S]*?'/y, "s1"],
    [/[;&|]/y, "p"],
    [/\s+/y, "w"],
    [/\d+\b/y, "m"],
    [/[^=\s[\]{}()$"'`\\<&|;]+/y, ""],
    [/</y, ""],
  ],
  interp: [
    [/\$\(\(/y, "k", "math"],
    [/\$\(/y, "k", "paren"],
    [/\$\{#?/y, "si", "curly"],
    [/\$[a-zA-Z_]\w*/y, "nv"],
    [/\$(?:\d+|[#$?!_*@-])/y, "nv"],
    [/\$/y, ""],
  ],
  string: [
    [/"/y, "s2", "#pop"],
    [/(?:\\\\|\\[0-7]+|\\[\s\S]|[^"\\$])+/y, "s2"],
  ],
  curly: [
    [/\}/y, "si", "#pop"],
    [/:-/y, "k"],
    [/\w+/y, "nv"],
    [/[^}:"'`$\\]+/y, "p"],
    [/:/y, "p"],
  ],
  paren: [[/\)/y, "k", "#pop"]],
  math: [
    [/\)\)/y, "k", "#pop"],
    [/\*\*|\|\||<<|>>|[-+*/%^|&<>]/y, "o"],
    [/\d+#[\da-zA-Z]+|\d+#(?! )|0[xX][\da-fA-F]+|\d+/y, "m"],
    [/[a-zA-Z_]\w*/y, "nv"],
  ],
  backticks: [[/`/y, "sb", "#pop"]],
};
states.root = [...include(states, "basic"), [/`/y, "sb", "backticks"], ...include(states, "data", "interp")];
for (const name of ["curly", "paren", "math", "backticks"]) states[name]?.push(...include(states, "root"));
states.string?.push(...include(states, "interp"));

export const bashLexer: Lexer = {
  name: "Bash",
  aliases: ["bash", "sh", "ksh", "zsh", "shell", "openrc"],
  tokenize: (code) => runStates(code, states, "root"),
};
