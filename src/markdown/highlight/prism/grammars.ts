/**
 * Prism and the grammars we tokenize with, loaded once at import. Prism's component files extend
 * the `Prism` object that its main module installs in Node's global scope, so the order matters:
 * the main module (markup, css, clike, javascript) first, then each component after the ones it
 * builds on.
 */
import Prism from "prismjs";
import "prismjs/components/prism-c.js";
import "prismjs/components/prism-cpp.js";
import "prismjs/components/prism-java.js";
import "prismjs/components/prism-go.js";
import "prismjs/components/prism-rust.js";
import "prismjs/components/prism-sql.js";
import "prismjs/components/prism-bash.js";
import "prismjs/components/prism-json.js";
import "prismjs/components/prism-yaml.js";
import "prismjs/components/prism-ruby.js";
import "prismjs/components/prism-diff.js";

export { Prism };

/** A loaded grammar by Prism's language id; throws at startup if a component failed to load. */
export function grammar(id: string): Prism.Grammar {
  const loaded = Prism.languages[id];
  if (loaded === undefined) throw new Error(`Prism grammar ${id} is not loaded`);
  return loaded;
}

// Prism's YAML key pattern reads a plain key of any length and then looks for its colon, which is
// quadratic along a long line of dashes or colons; keys of more than a hundred words are not keys.
const yamlKey: unknown = Reflect.get(grammar("yaml"), "key");
if (typeof yamlKey === "object" && yamlKey !== null && "pattern" in yamlKey && yamlKey.pattern instanceof RegExp) {
  const { source, flags } = yamlKey.pattern;
  if (source.split("))*|").length === 2) yamlKey.pattern = new RegExp(source.replace("))*|", ")){0,100}|"), flags);
}

/**
 * A copy of a grammar in which the greedy tokens `keys` (comments, strings, characters) are one
 * greedy token, "literal", matching the leftmost of them as Prism's order would. Prism matches each
 * greedy token over the whole text and, when one overlaps another, takes it apart and matches again;
 * on a line of mixed unclosed quotes that cascades into quadratic time. One token cannot overlap
 * itself. A pattern this cannot merge safely (flags, back-references) keeps its own entry.
 */
export function mergedGrammar(id: string, keys: readonly string[]): Prism.Grammar {
  const source = grammar(id);
  const merged: string[] = [];
  const kept = new Set<string>();
  for (const key of keys) {
    const value: unknown = Reflect.get(source, key);
    const parts = Array.isArray(value) ? value : [value];
    const sources = parts.map(literalSource);
    if (sources.every((s) => s !== undefined)) merged.push(...sources.filter((s) => s !== undefined));
    else kept.add(key);
  }
  const copy: Prism.Grammar = {};
  let placed = false;
  for (const key of Object.keys(source)) {
    if (keys.includes(key) && !kept.has(key)) {
      if (!placed) Reflect.set(copy, "literal", { pattern: new RegExp(merged.map((s) => `(?:${s})`).join("|")), greedy: true });
      placed = true;
    } else Reflect.set(copy, key, Reflect.get(source, key));
  }
  return copy;
}

// A pattern's source with its lookbehind group made a real lookbehind, if it can be merged.
function literalSource(part: unknown): string | undefined {
  const pattern = part instanceof RegExp ? part : typeof part === "object" && part !== null && "pattern" in part ? part.pattern : undefined;
  if (!(pattern instanceof RegExp) || pattern.flags !== "" || /\\[1-9]/.test(pattern.source)) return undefined;
  if (typeof part === "object" && part !== null && "inside" in part && part.inside !== undefined) return undefined;
  const lookbehind = typeof part === "object" && part !== null && "lookbehind" in part && part.lookbehind === true;
  if (!lookbehind) return pattern.source;
  // Prism's lookbehind is the pattern's first group, which must open the pattern.
  return pattern.source.startsWith("(") && !pattern.source.startsWith("(?") ? `(?<=${pattern.source.slice(1)}` : undefined;
}
