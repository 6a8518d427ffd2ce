/**
 * CSS, by Pygments' CSS rules on a stack of states (selectors, declarations, values, functions).
 * Not Prism: Pygments' classes depend on the state (a word is a tag in a selector, a property
 * before a colon, a constant in a value), which Prism's flat token list does not carry.
 */
import type { Lexer } from "../lexer.js";
import { groups, wordsRe } from "./common.js";
import { colorKeywords, functionalNotations, keywordValues, otherKeywordValues, properties, units, vendorPrefixes } from "./css-words.js";
import { include, runStates, type StateRule } from "./states.js";

const vendor = wordsRe(vendorPrefixes, "");
const constants: StateRule[] = [
  [wordsRe(keywordValues), "kc"],
  [wordsRe(otherKeywordValues), "kc"],
  [wordsRe(colorKeywords), "kc"],
];
const functional = new RegExp(`(${wordsRe(functionalNotations, "").source})(\\()`, "y");
const property = new RegExp(`(${wordsRe(properties, "").source})(\\s*)(:)`, "y");
const comment: StateRule = [/\/\*[\s\S]*?\*\//y, "c"];
const strings: StateRule[] = [
  [/"(?:\\\\|\\[^\\]|[^"\\])*"/y, "s2"],
  [/'(?:\\\\|\\[^\\]|[^'\\])*'/y, "s1"],
];

const states: Record<string, StateRule[]> = {
  basics: [
    [/\s+/y, "w"],
    comment,
    [/\{/y, "p", "content"],
    [/(:{1,2})([\w-]+)/y, groups("p", "nd")],
    [/(\.)([\w-]+)/y, groups("p", "nc")],
    [/(#)([\w-]+)/y, groups("p", "nn")],
    [/(@)([\w-]+)/y, groups("p", "k"), "atrule"],
    [/[\w-]+/y, "nt"],
    [/[~^*!%&$[\]()<>|+=@:;,./?-]/y, "o"],
    ...strings,
  ],
  content: [
    [/\s+/y, "w"],
    [/\}/y, "p", "#pop"],
    [/;/y, "p"],
    [/^@.*?$/my, "cp"],
    [vendor, "kp"],
    [property, groups("k", "w", "p"), "value-start"],
    [/(-+[a-zA-Z_][\w-]*)(\s*)(:)/y, groups("nv", "w", "p"), "value-start"],
    [/([a-zA-Z_][\w-]*)(\s*)(:)/y, groups("n", "w", "p"), "value-start"],
    comment,
  ],
  urls: [
    [/(url)(\()(".*?")(\))/y, groups("nb", "p", "s2", "p")],
    [/(url)(\()('.*?')(\))/y, groups("nb", "p", "s1", "p")],
    [/(url)(\()(.*?)(\))/y, groups("nb", "p", "sx", "p")],
  ],
  "numeric-values": [
    [/#[a-zA-Z0-9]{1,6}/y, "mh"],
    [/[+-]?[0-9]*[.][0-9]+/y, "mf", "numeric-end"],
    [/[+-]?[0-9]+/y, "mi", "numeric-end"],
  ],
  "numeric-end": [
    [wordsRe(units), "kt"],
    [/%/y, "kt"],
    [/(?:)/y, "", "#pop"],
  ],
};
states.root = include(states, "basics");
states.atrule = [[/\{/y, "p", "atcontent"], [/;/y, "p", "#pop"], ...include(states, "basics")];
states.atcontent = [...include(states, "basics"), [/\}/y, "p", "#pop:2"]];
states["value-start"] = [
  [/\s+/y, "w"],
  [vendor, "bp"],
  ...include(states, "urls"),
  [functional, groups("nb", "p"), "function-start"],
  [/([a-zA-Z_][\w-]+)(\()/y, groups("nf", "p"), "function-start"],
  ...constants,
  [wordsRe(properties), "k"],
  [/!important/y, "cp"],
  comment,
  ...include(states, "numeric-values"),
  [/[~^*!%&<>|+=@:./?-]+/y, "o"],
  [/[[\](),]+/y, "p"],
  ...strings,
  [/[a-zA-Z_][\w-]*/y, "n"],
  [/;/y, "p", "#pop"],
  [/\}/y, "p", "#pop:2"],
];
states["function-start"] = [
  [/\s+/y, "w"],
  [/-+(?:[A-Za-z][\w+]*-*)+/y, "nv"],
  ...include(states, "urls"),
  [vendor, "kp"],
  ...constants,
  [functional, groups("nb", "p"), "function-start"],
  [/([a-zA-Z_][\w-]+)(\()/y, groups("nf", "p"), "function-start"],
  comment,
  ...include(states, "numeric-values"),
  [/[*+/-]/y, "o"],
  [/,/y, "p"],
  ...strings,
  [/[a-zA-Z_-]\w*/y, "n"],
  [/\)/y, "p", "#pop"],
];

export const cssLexer: Lexer = {
  name: "CSS",
  aliases: ["css"],
  tokenize: (code) => runStates(code, states, "root"),
};
