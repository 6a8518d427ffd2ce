/** The block parser: markdown-it limited to the block syntax Zulip supports. */
import markdownIt, { type MarkdownIt, type StateBlock } from "markdown-it";

// Marks a line that stands for stashed block HTML (a code block, spoiler edge, math).
const blockMarker = "\u0002block:";
// eslint-disable-next-line no-control-regex -- the marker is built from control characters on purpose
const markerRe = /^\u0002block:(\d+)\u0003$/;

/** The line that stands for stashed block number `index`. */
export function blockLine(index: number): string {
  return `${blockMarker}${index}\u0003`;
}

// Paragraphs keep trailing spaces (Zulip does); only leading blanks are dropped.
function paragraph(state: StateBlock, startLine: number, endLine: number): boolean {
  const terminators = state.md.block.ruler.getRules("paragraph");
  const oldParent = state.parentType;
  state.parentType = "paragraph";
  let next = startLine + 1;
  for (; next < endLine && !state.isEmpty(next); next++) {
    const indent = state.sCount[next] ?? 0;
    if (indent - state.blkIndent > 3 || indent < 0) continue;
    if (terminators.some((rule) => rule(state, next, endLine, true))) break;
  }
  const content = state.getLines(startLine, next, state.blkIndent, false).replace(/^[ \t\n]+/, "").replace(/\n+$/, "");
  state.line = next;
  state.push("paragraph_open", "p", 1).map = [startLine, next];
  const inline = state.push("inline", "", 0);
  inline.content = content;
  inline.map = [startLine, next];
  inline.children = [];
  state.push("paragraph_close", "p", -1);
  state.parentType = oldParent;
  return true;
}

function stashedBlock(state: StateBlock, startLine: number, _endLine: number, silent: boolean): boolean {
  const start = (state.bMarks[startLine] ?? 0) + (state.tShift[startLine] ?? 0);
  const line = state.src.slice(start, state.eMarks[startLine]);
  const m = markerRe.exec(line);
  if (!m) return false;
  if (silent) return true;
  const token = state.push("zulip_block", "", 0);
  token.content = m[1] ?? "";
  token.map = [startLine, startLine + 1];
  state.line = startLine + 1;
  return true;
}

/** Builds the block parser used for every render. */
export function createBlockParser(): MarkdownIt {
  // Deeper structure than this is cut off by markdown-it; fences and lists are capped below it.
  const md = markdownIt("commonmark", { html: false, maxNesting: 64 });
  // Zulip has no setext headings, reference definitions or raw HTML.
  md.disable(["lheading", "reference", "html_block", "fence"]);
  md.enable(["table"]);
  md.block.ruler.at("paragraph", paragraph);
  md.block.ruler.before("table", "zulip_block", stashedBlock, { alt: ["paragraph", "blockquote", "list"] });
  // Inline syntax is Zulip's own (see inline/); markdown-it only splits blocks.
  md.core.ruler.disable(["inline", "linkify", "replacements", "smartquotes", "text_join"]);
  return md;
}
