/** Block quotes, with Zulip's changes to Python-Markdown's rule. */
import type { BlockProcessor } from "./parser.js";
import { element } from "./tree.js";

const quoteLine = /^ {0,3}>/;
const bareMarker = /^ {0,3}>\s*$/;

/**
 * Where the quote starts (an offset into the block): at the first `>` line,
 * unless it and every line after it are bare `>` markers (Zulip: a block of
 * nothing but markers is text). Everything from there to the end of the block
 * is quoted, `>` or not.
 */
function quoteStart(block: string): number {
  let first = -1;
  for (let at = 0; at <= block.length; ) {
    const newline = block.indexOf("\n", at);
    const end = newline === -1 ? block.length : newline;
    const line = block.slice(at, end);
    // An empty line can only end the block (a quote's trailing `>`): it counts as the end.
    if (line === "") break;
    if (first === -1 && quoteLine.test(line)) first = at;
    if (first !== -1 && !bareMarker.test(line)) return first;
    at = end + 1;
  }
  return -1;
}

// Drops a line's `>` marker (and one space after it); a bare marker leaves an empty line.
function clean(line: string): string {
  if (!line.includes(">")) return line;
  if (line.trim() === ">") return "";
  let i = 0;
  while (i < 3 && line[i] === " ") i++;
  if (line[i] !== ">") return line;
  return line.slice(line[i + 1] === " " ? i + 2 : i + 1);
}

/** A quote: the lines before it are parsed first; a new quote never merges into the previous one. */
export const quoteProcessor: BlockProcessor = {
  test: (parser, _parent, block) => block.includes(">") && parser.canNest() && quoteStart(block) !== -1,
  run(parser, parent, queue) {
    const block = queue.pop() ?? "";
    const start = quoteStart(block);
    // The lines before the quote (without the newline that ends them).
    if (start > 0) parser.parseBlocks(parent, [block.slice(0, start - 1)]);
    const quoted = block.slice(start).split("\n").map(clean).join("\n");
    const quote = element("blockquote", parent);
    parser.withState("blockquote", () => parser.parseChunk(quote, start > 0 ? `\n${quoted}` : quoted));
  },
};
