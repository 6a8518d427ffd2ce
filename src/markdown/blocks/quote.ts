/** Block quotes, with Zulip's changes to Python-Markdown's rule. */
import type { BlockProcessor } from "./parser.js";
import { element } from "./tree.js";

const quoteLine = /^ {0,3}>/;
const bareMarker = /^ {0,3}>\s*$/;
const markerPrefix = /^ {0,3}> ?/;

/**
 * The line where a quote starts: the first `>` line unless it and every line
 * after it are bare `>` markers (Zulip: a block of nothing but markers is text).
 * Everything from there to the end of the block is quoted, `>` or not.
 */
function quoteStart(lines: readonly string[]): number {
  // A block can end in one empty line (from a quote's trailing `>`); it counts as the end.
  let end = lines.length;
  if (end > 1 && lines[end - 1] === "") end--;
  let allBareAfter = true; // lines [i + 1, end) are all bare markers
  let first = -1;
  for (let i = end - 1; i >= 0; i--) {
    const line = lines[i] ?? "";
    const bare = bareMarker.test(line);
    if (quoteLine.test(line) && !(bare && allBareAfter)) first = i;
    allBareAfter &&= bare;
  }
  return first;
}

function clean(line: string): string {
  if (line.trim() === ">") return "";
  const m = markerPrefix.exec(line);
  return m ? line.slice(m[0].length) : line;
}

/** A quote: the lines before it are parsed first; a new quote never merges into the previous one. */
export const quoteProcessor: BlockProcessor = {
  test: (parser, _parent, block) => block.includes(">") && parser.canNest() && quoteStart(block.split("\n")) !== -1,
  run(parser, parent, queue) {
    const lines = (queue.pop() ?? "").split("\n");
    const start = quoteStart(lines);
    if (start > 0) parser.parseBlocks(parent, [lines.slice(0, start).join("\n")]);
    const quoted = lines.slice(start).map(clean).join("\n");
    const quote = element("blockquote", parent);
    parser.withState("blockquote", () => parser.parseChunk(quote, start > 0 ? `\n${quoted}` : quoted));
  },
};
