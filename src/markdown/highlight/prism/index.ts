/**
 * The languages we tokenize with Prism and class as Pygments 2.18 does.
 */
import type { Lexer } from "../lexer.js";
import { diffLexer } from "./diff.js";
import { jsonLexer } from "./json.js";
import { cLexer, cppLexer } from "./c.js";

export const prismLexers: Lexer[] = [jsonLexer, diffLexer, cLexer, cppLexer];
