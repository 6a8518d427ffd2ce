/** A regex lexer with a stack of states, for the languages whose strings and substitutions nest. */
import { rulesByFirstChar } from "../first-chars.js";
import type { Token } from "../lexer.js";

/** A rule: a sticky regex, the class (or a function of the match), and the state change ("#pop", "#pop:2", or a state to push). */
export type StateRule = [RegExp, string | ((m: RegExpExecArray) => Token[]), string?];

const tables = new WeakMap<readonly StateRule[], StateRule[][]>();

/** Tokenizes from `start`; an unmatched character is an error ("err"), as in Pygments. */
export function runStates(code: string, states: Readonly<Record<string, readonly StateRule[]>>, start: string): Token[] {
  const tokens: Token[] = [];
  const stack = [start];
  let pos = 0;
  outer: while (pos < code.length) {
    const rules = states[stack[stack.length - 1] ?? start] ?? [];
    // Only the rules that can match the character here are tried.
    const candidates = rulesByFirstChar(rules, tables)[Math.min(code.charCodeAt(pos), 128)] ?? rules;
    for (const [re, action, next] of candidates) {
      re.lastIndex = pos;
      const m = re.exec(code);
      if (m === null) continue;
      // Only a pop may match nothing (Pygments' default('#pop')); anything else would loop.
      if (m[0] === "" && (next !== "#pop" || stack.length === 1)) continue;
      if (typeof action === "string") {
        if (m[0] !== "") tokens.push({ cls: action, text: m[0] });
      } else tokens.push(...action(m));
      pos += m[0].length;
      if (next === "#pop" || next === "#pop:2") stack.length = Math.max(1, stack.length - (next === "#pop" ? 1 : 2));
      else if (next !== undefined) stack.push(next);
      continue outer;
    }
    // Pygments resets to the first state at a newline it cannot match.
    const ch = code[pos] ?? "";
    if (ch === "\n") stack.length = 1;
    tokens.push({ cls: ch === "\n" ? "" : "err", text: ch });
    pos++;
  }
  return tokens;
}

/** Rules included in another state, as Pygments' include(). */
export function include(states: Record<string, StateRule[]>, ...names: string[]): StateRule[] {
  return names.flatMap((name) => states[name] ?? []);
}
