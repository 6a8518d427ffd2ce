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
