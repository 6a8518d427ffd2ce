/**
 * HTML and XML: Prism finds tags, comments, declarations, CDATA and entities (and, in HTML, the
 * script and style contents); each tag is classed by Pygments' tag rules, and script and style
 * contents by our JavaScript and CSS lexers, as Pygments' HTML lexer delegates them.
 */
import type { Rule } from "../lexer.js";
import { javascriptLexer } from "../javascript.js";
import { groups } from "./common.js";
import { cssLexer } from "./css.js";
import { grammar, withoutInside } from "./grammars.js";
import { prismLexer, type Classify, type Join } from "./lexer.js";
import { runStates, type StateRule } from "./states.js";

const htmlTag: Record<string, StateRule[]> = {
  root: [
    [/(<)(\s*)(\/)(\s*)([\w:.-]+)(\s*)(>)/y, groups("p", "", "p", "", "nt", "", "p")],
    [/(<)(\s*)([\w:.-]+)(\s*)/y, groups("p", "", "nt", ""), "tag"],
  ],
  tag: [
    [/\s+/y, ""],
    [/([\w:-]+\s*)(=)(\s*)/y, groups("na", "o", ""), "attr"],
    [/[\w:-]+/y, "na"],
    [/(\/?)(\s*)(>)/y, groups("p", "", "p"), "#pop"],
  ],
  attr: [
    [/"[\s\S]*?"/y, "s", "#pop"],
    [/'[\s\S]*?'/y, "s", "#pop"],
    [/[^\s>]+/y, "s", "#pop"],
  ],
};

const xmlTag: Record<string, StateRule[]> = {
  root: [
    [/<\s*\/\s*[\w:.-]+\s*>/y, "nt"],
    [/<\s*[\w:.-]+/y, "nt", "tag"],
  ],
  tag: [
    [/\s+/y, "w"],
    [/[\w.:-]+\s*=/y, "na", "attr"],
    [/\/?\s*>/y, "nt", "#pop"],
  ],
  attr: [
    [/\s+/y, "w"],
    [/"[\s\S]*?"/y, "s", "#pop"],
    [/'[\s\S]*?'/y, "s", "#pop"],
    [/[^\s>]+/y, "s", "#pop"],
  ],
};

const htmlTags: Join = { tokenize: (text) => runStates(text, htmlTag, "root") };
const xmlTags: Join = { tokenize: (text) => runStates(text, xmlTag, "root") };
const script: Join = { tokenize: (text) => javascriptLexer.tokenize(text) };
const style: Join = { tokenize: (text) => cssLexer.tokenize(text) };

const htmlText: Rule[] = [
  [/[^<&]+/y, ""],
  [/&\S*?;/y, "ni"],
];
const xmlText: Rule[] = [
  [/[^<&\s]+/y, ""],
  [/[^<&\S]+/y, "w"],
  [/&\S*?;/y, "ni"],
];

function classify(tags: Join, text: Rule[], html: boolean): Classify {
  return ({ kinds, within }) => {
    const outer = within[within.length - 1] ?? kinds[0];
    switch (outer) {
      case "comment":
        return "cm";
      case "prolog":
      case "doctype":
      case "cdata":
        return "cp";
      case "entity":
        return "ni";
      case "tag":
        return tags;
      case "script":
        return html ? script : text;
      case "style":
        return html ? style : text;
      default:
        return text;
    }
  };
}

export const htmlLexer = prismLexer({
  name: "HTML",
  aliases: ["html"],
  grammar: withoutInside("markup", ["script", "style"]),
  classify: classify(htmlTags, htmlText, true),
});

export const xmlLexer = prismLexer({ name: "XML", aliases: ["xml"], grammar: grammar("markup"), classify: classify(xmlTags, xmlText, false) });
