/**
 * Math via KaTeX, producing the same markup Zulip's KaTeX service does (renderToString with only
 * displayMode set). Byte-identical output needs the KaTeX of Zulip 9.0 (0.16.10 or 0.16.11, which
 * render alike, as does 0.16.21; 0.16.9 draws \sqrt and \vec differently, and 0.16.47 rounds glyph
 * metrics to four decimals: margin-right:0.0359em instead of 0.03588em for \pi).
 */
import { createRequire } from "node:module";
import type Katex from "katex";

// KaTeX is loaded on the first formula: most servers render few, and it is large.
let katex: typeof Katex | undefined;
function loadKatex(): typeof Katex {
  katex ??= createRequire(import.meta.url)("katex") as typeof Katex;
  return katex;
}

// KaTeX's parser recurses per group; deeper input is refused up front so a
// hostile formula cannot cost more than a few milliseconds.
const maxGroupDepth = 64;

function tooDeep(tex: string): boolean {
  let depth = 0;
  for (const c of tex) {
    if (c === "{") {
      if (++depth > maxGroupDepth) return true;
    } else if (c === "}") depth = Math.max(0, depth - 1);
  }
  return false;
}

/** Renders TeX to KaTeX HTML, or null when KaTeX rejects it. */
export function renderTex(tex: string, display: boolean): string | null {
  if (tooDeep(tex)) return null;
  try {
    return loadKatex().renderToString(tex, {
      displayMode: display,
      throwOnError: true,
      // Warnings (e.g. unicode in math mode) would only clutter the server log.
      strict: "ignore",
      trust: false,
      maxExpand: 1000,
      maxSize: 100,
    });
  } catch {
    // ParseError for bad TeX; RangeError if hostile nesting exhausts the stack.
    return null;
  }
}
