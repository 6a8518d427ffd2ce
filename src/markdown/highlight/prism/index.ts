/**
 * The languages beyond Python, JavaScript/TypeScript and TeX, highlighted with Pygments 2.18's
 * classes (Zulip 9.0's). Each module maps Prism's tokens onto Pygments' classes for one language:
 * Prism (prismjs, its component grammars loaded in grammars.ts) finds the lexical structure, and
 * the text between its tokens is classed by rules that follow the Pygments lexer's own.
 *
 * Exact, as far as our cases go (same HTML as Pygments on every snippet we compared):
 *   JSON, Diff, Go, Java, Rust, SQL, Bash, CSS.
 *   Bash and CSS do not use Prism: Pygments' classes there depend on nested states (quotes inside
 *   command substitutions; selector, declaration and value contexts) that Prism's flat tokens lack,
 *   so they run Pygments' rules on a stack of states (states.ts).
 * Approximations of Pygments:
 *   C and C++ — function declarations, labels and `case` values are found by looking at the
 *     neighbouring tokens, not by Pygments' state machine; `#if 0` blocks are not comments.
 *   HTML and XML — a stray `<` or `&` in text, and tags Prism does not take for tags, differ;
 *     script contents use our JavaScript lexer, which is not Pygments 2.18's in every detail.
 *   YAML — Pygments' indentation-aware lexer is approximated (flow mappings, multi-line plain
 *     scalars, keys Prism does not recognise).
 *   Ruby — heredocs, %-literals and regexes are as Prism finds them, not as Pygments does.
 * Everywhere: where Prism's idea of a string or comment differs from Pygments' (escapes in SQL
 * strings, Java strings across lines, Rust lifetimes in types), Prism's wins. C, C++, Java, Go,
 * SQL and Ruby match their comments, strings and characters as one Prism token (grammars.ts,
 * mergedGrammar), which finds the same leftmost token without Prism's quadratic re-matching of
 * overlapping ones; Ruby's then get back the tokens Prism's grammar makes of them (ruby-literals.ts).
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
