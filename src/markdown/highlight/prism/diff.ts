/** Diffs and patches, classed line by line on the line's first characters as Pygments does. */
import type { Rule } from "../lexer.js";
import { grammar } from "./grammars.js";
import { prismLexer } from "./lexer.js";

// Lines Prism's diff grammar leaves plain or calls coordinates ("---", "+++", "@@", "1,2c3").
const lineRules: Rule[] = [
  [/\n/y, ""],
  [/---$/my, "gs"],
  [/(?:< |-).*/y, "gd"],
  [/(?:> |\+).*/y, "gi"],
  [/@.*|\d(?:,\d+)?[acd]\d+(?:,\d+)?$/my, "gu"],
  [/(?:[Ii]ndex|diff|=).*/y, "gh"],
  [/.+/y, ""],
];

const prefixRules: Rule[] = [
  [/ /y, "w"],
  [/[\s\S]+/y, ""],
];

export const diffLexer = prismLexer({
  name: "Diff",
  aliases: ["diff", "udiff"],
  grammar: grammar("diff"),
  classify({ kinds, within }) {
    const block = within[0] === undefined ? kinds[0] : within[0];
    switch (block) {
      case "inserted-sign":
      case "inserted-arrow":
        return "gi";
      case "deleted-sign":
      case "deleted-arrow":
        return "gd";
      case "diff":
        return "gs";
      case "unchanged":
        return kinds[0] === "prefix" ? prefixRules : "";
      default:
        return lineRules;
    }
  },
});
