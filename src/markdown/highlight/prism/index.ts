/**
 * The languages we tokenize with Prism and class as Pygments 2.18 does.
 */
import type { Lexer } from "../lexer.js";
import { diffLexer } from "./diff.js";
import { jsonLexer } from "./json.js";
import { cLexer, cppLexer } from "./c.js";
import { javaLexer } from "./java.js";
import { goLexer } from "./go.js";
import { rustLexer } from "./rust.js";
import { sqlLexer } from "./sql.js";
import { bashLexer } from "./bash.js";
import { cssLexer } from "./css.js";
import { htmlLexer, xmlLexer } from "./markup.js";
import { yamlLexer } from "./yaml.js";
import { rubyLexer } from "./ruby.js";

export const prismLexers: Lexer[] = [jsonLexer, diffLexer, cLexer, cppLexer, javaLexer, goLexer, rustLexer, sqlLexer, bashLexer, cssLexer, htmlLexer, xmlLexer, yamlLexer, rubyLexer];
