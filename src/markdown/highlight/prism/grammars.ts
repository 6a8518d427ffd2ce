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

// Prism's markup tag pattern reads attributes as far as they go and then looks for the tag's end,
// which is quadratic along a long run of unclosed tags (`<?` on every line: 80 ms for one message);
// a tag of more than a hundred attributes is not a tag.
const markupTag: unknown = Reflect.get(grammar("markup"), "tag");
if (typeof markupTag === "object" && markupTag !== null && "pattern" in markupTag && markupTag.pattern instanceof RegExp) {
  const { source, flags } = markupTag.pattern;
  if (source.split(")+)?").length === 2) markupTag.pattern = new RegExp(source.replace(")+)?", "){1,100})?"), flags);
}

/**
 * A copy of a grammar in which the greedy tokens `keys` (comments, strings, characters) are one
 * greedy token, "literal", matching the leftmost of them as Prism's order would. Prism matches each
 * greedy token over the whole text and, when one overlaps another, takes it apart and matches again;
 * on a line of mixed unclosed quotes that cascades into quadratic time. One token cannot overlap
 * itself. The merged tokens lose their `inside` grammars (the caller classes their text itself); a
 * pattern with flags keeps its own entry. With `literalsOnly`, the grammar's other tokens are left
 * out, for a language whose code between the literals is lexed by its own rules: Prism's patterns
 * for it would be work thrown away, and some are quadratic (Java's class names along `x.` lines).
 */
export function mergedGrammar(id: string | Prism.Grammar, keys: readonly string[], { literalsOnly = false } = {}): Prism.Grammar {
  const source = typeof id === "string" ? grammar(id) : id;
  const merged: string[] = [];
  const kept = new Set<string>();
  let groups = 0; // capturing groups in the merged pattern so far, for renumbering back-references
  for (const key of keys) {
    const value: unknown = Reflect.get(source, key);
    const parts = (Array.isArray(value) ? value : [value]).map(literalSource);
    if (parts.some((part) => part === undefined)) {
      kept.add(key);
      continue;
    }
    for (const part of parts) {
      if (part === undefined) continue;
      const shift = groups;
      merged.push(part.replace(/\\([1-9]\d*)/g, (_m, n: string) => `\\${Number(n) + shift}`));
      groups += capturingGroups(part);
    }
  }
  const copy: Prism.Grammar = {};
  let placed = false;
  for (const key of Object.keys(source)) {
    if (keys.includes(key) && !kept.has(key)) {
      if (!placed) Reflect.set(copy, "literal", { pattern: new RegExp(merged.map((s) => `(?:${s})`).join("|")), greedy: true });
      placed = true;
    } else if (!literalsOnly || kept.has(key)) Reflect.set(copy, key, Reflect.get(source, key));
  }
  return copy;
}

// A pattern's source with its lookbehind group made a real lookbehind (and its back-references
// renumbered to match), or undefined if it has flags.
export function literalSource(part: unknown): string | undefined {
  const pattern = part instanceof RegExp ? part : typeof part === "object" && part !== null && "pattern" in part ? part.pattern : undefined;
  if (!(pattern instanceof RegExp) || pattern.flags !== "") return undefined;
  const lookbehind = typeof part === "object" && part !== null && "lookbehind" in part && part.lookbehind === true;
  if (!lookbehind) return pattern.source;
  // Prism's lookbehind is the pattern's first group, which must open the pattern.
  if (!pattern.source.startsWith("(") || pattern.source.startsWith("(?")) return undefined;
  return `(?<=${pattern.source.slice(1)}`.replace(/\\([1-9]\d*)/g, (_m, n: string) => `\\${Number(n) - 1}`);
}

// The capturing groups in a regex source: "(" not escaped, not in a class, not "(?:" or a lookaround.
function capturingGroups(source: string): number {
  let count = 0;
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(" && (source[i + 1] !== "?" || /^\(\?<[A-Za-z_]/.test(source.slice(i, i + 4)))) count++;
  }
  return count;
}

/**
 * A copy of a grammar whose `keys` tokens keep their extent but not their inside grammar: HTML's
 * script and style contents, which our own JavaScript and CSS lexers read.
 */
export function withoutInside(id: string, keys: readonly string[]): Prism.Grammar {
  const source = grammar(id);
  const copy: Prism.Grammar = {};
  for (const key of Object.keys(source)) {
    const value: unknown = Reflect.get(source, key);
    if (keys.includes(key) && typeof value === "object" && value !== null && "pattern" in value && value.pattern instanceof RegExp) {
      const lookbehind = "lookbehind" in value && value.lookbehind === true;
      Reflect.set(copy, key, { pattern: value.pattern, lookbehind, greedy: true });
    } else Reflect.set(copy, key, value);
  }
  return copy;
}

/**
 * Pygments' class for a C-style language's comment, string or character (a merged "literal"
 * token, or Prism's own kinds; `stringKinds` names the language's string tokens), else null.
 */
export function classifyCStyleLiteral(text: string, kind: string | undefined, stringKinds: readonly string[] = ["string"]): string | null {
  const resolved = kind === "literal" ? literalKind(text) : kind;
  if (resolved === "comment") return text.startsWith("//") ? "c1" : "cm";
  if (resolved === "char") return "sc";
  return resolved !== undefined && stringKinds.includes(resolved) ? "s" : null;
}

/** What a C-style language's merged "literal" token is, by how it starts: comment, char or string. */
export function literalKind(text: string): string {
  if (text.startsWith("//") || text.startsWith("/*")) return "comment";
  return text.startsWith("'") ? "char" : "string";
}
