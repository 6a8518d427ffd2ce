/** Serialises the block tree the way Zulip's HTML looks (Python-Markdown's prettified output). */
import { codeOf, isBlank, type BlockElement } from "./blocks/tree.js";

/** Turns one piece of block text into HTML. */
export type InlineRenderer = (text: string, inBlockquote: boolean) => string;

/** How the serialiser renders what is not block structure. */
export interface BlockOutput {
  inline: InlineRenderer;
  codeBlock: (code: string) => string;
}

// Marks a line that stands for stashed block HTML (a code block, spoiler edge, math).
// eslint-disable-next-line no-control-regex -- the marker is built from control characters on purpose
const markerRe = /\u0002block:(\d+)\u0003/g;
// eslint-disable-next-line no-control-regex -- as above
const wholeMarkerRe = /^\u0002block:(\d+)\u0003$/;
// eslint-disable-next-line no-control-regex -- as above
const wholeParagraphRe = /<p>\u0002block:(\d+)\u0003<\/p>/g;

/** The line that stands for stashed block number `index`. */
export function blockLine(index: number): string {
  return `\u0002block:${index}\u0003`;
}

/**
 * Stashed blocks stay markers until image previews are placed (Zulip places them while stashed
 * HTML is still a placeholder paragraph); a paragraph that is nothing but one is written as
 * that paragraph. Puts the stashed HTML in.
 */
export function restoreStashed(html: string, stashed: readonly string[]): string {
  if (!html.includes("\u0002")) return html;
  return html.replace(wholeParagraphRe, (_m, n: string) => stashed[Number(n)] ?? "").replace(markerRe, (_m, n: string) => stashed[Number(n)] ?? "");
}

const blockLevel = new Set(["div", "p", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "ul", "ol", "li", "blockquote", "pre", "table", "thead", "tbody", "tr", "th", "td"]);

// Python-Markdown's prettifier: a newline after every block element, and
// before the first child of a block element that has no text of its own.
function prettify(el: BlockElement): void {
  if (blockLevel.has(el.tag) && el.tag !== "pre") {
    const first = el.children[0];
    if (isBlank(el.text) && first !== undefined && blockLevel.has(first.tag)) el.text = "\n";
    for (const child of el.children) if (blockLevel.has(child.tag)) prettify(child);
  }
  if (isBlank(el.tail)) el.tail = "\n";
}

// Python-Markdown's prettifier also replaces blank text after a <br> with the newline alone.
// (A stashed block still standing as its marker starts with markup once restored.)
// eslint-disable-next-line no-control-regex -- the marker is built from control characters on purpose
const blankAfterBreak = /<br>\n\s+(?=<|\u0002|$)/g;

// Inline HTML for block text; stashed blocks inside it stay markers.
function text(raw: string, out: BlockOutput, inQuote: boolean): string {
  if (isBlank(raw)) return raw;
  return inlineWithStash(raw, out, inQuote).replace(blankAfterBreak, "<br>\n");
}

// Inline text around stashed-block markers, the markers kept (see restoreStashed).
function inlineWithStash(raw: string, out: BlockOutput, inQuote: boolean): string {
  if (!raw.includes("\u0002")) return out.inline(raw, inQuote);
  let html = "";
  let from = 0;
  for (const m of raw.matchAll(markerRe)) {
    if (m.index > from) html += out.inline(raw.slice(from, m.index), inQuote);
    html += m[0];
    from = m.index + m[0].length;
  }
  if (from < raw.length) html += out.inline(raw.slice(from), inQuote);
  return html;
}

function openTag(el: BlockElement): string {
  return `<${el.tag}${el.attrs.map(([k, v]) => ` ${k}="${v}"`).join("")}>`;
}

function serialize(el: BlockElement, out: BlockOutput, inQuote: boolean, parts: string[]): void {
  const code = codeOf(el);
  if (code) {
    parts.push(out.codeBlock(code.text));
    return;
  }
  if (el.tag === "hr") {
    parts.push("<hr>");
    return;
  }
  const quoted = inQuote || el.tag === "blockquote";
  // A paragraph that is nothing but a stashed block is replaced by that block (restoreStashed).
  const stash = el.tag === "p" ? wholeMarkerRe.exec(el.text) : null;
  if (stash) {
    parts.push(`<p>${stash[0]}</p>`);
    return;
  }
  const own = text(el.text, out, quoted);
  if (el.tag === "p") {
    parts.push(`<p>${own}</p>`);
    return;
  }
  parts.push(openTag(el), own);
  children(el, out, quoted, parts);
  parts.push(`</${el.tag}>`);
}

// Each child, then its tail (text of this element again).
function children(el: BlockElement, out: BlockOutput, inQuote: boolean, parts: string[]): void {
  for (const child of el.children) {
    serialize(child, out, inQuote, parts);
    if (isBlank(child.tail)) {
      parts.push(child.tail);
      continue;
    }
    // Text that starts with markup (the <br> of its leading newline) leaves the child's tail blank, so a newline.
    const html = text(child.tail, out, inQuote);
    parts.push(html.startsWith("<") || html.startsWith("\u0002") ? `\n${html}` : html);
  }
}

/** Renders the block tree under `root` (its own tag is not written), untrimmed: every block keeps its newline. */
export function renderTree(root: BlockElement, out: BlockOutput): string {
  prettify(root);
  const parts: string[] = [root.text];
  children(root, out, false, parts);
  return parts.join("");
}
