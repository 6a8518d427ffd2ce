/** JSON: keys are tags, as in Pygments' JSON lexer; anything not JSON is an error. */
import type { Rule } from "../lexer.js";
import { grammar } from "./grammars.js";
import { prismLexer } from "./lexer.js";

// Outside every Prism token: whitespace, or anything else, which JSON does not allow.
const other: Rule[] = [
  [/[ \t\r\n]+/y, "w"],
  [/[^ \t\r\n]/y, "err"],
];

export const jsonLexer = prismLexer({
  name: "JSON",
  aliases: ["json", "json-object"],
  grammar: grammar("json"),
  classify({ text, kinds }) {
    switch (kinds[0]) {
      case "property":
        return "nt";
      case "string":
        return "s2";
      case "comment":
        return text.startsWith("//") ? "c1" : "cm";
      case "number":
        return /[.eE+]/.test(text) ? "mf" : "mi";
      case "punctuation":
      case "operator":
        return "p";
      case "boolean":
      case "null":
        return "kc";
      default:
        return other;
    }
  },
});
