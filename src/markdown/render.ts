/** Serialises the block tree the way Zulip's HTML looks (Python-Markdown's prettified output). */
import { codeOf, isBlank, type BlockElement } from "./blocks/tree.js";

/** Turns one piece of block text into HTML. */
export type InlineRenderer = (text: string, inBlockquote: boolean) => string;

/** Paragraphs that link uploads, set aside so image previews can follow them (see previews.ts). */
export interface PreviewSlots {
  /** Each slot's paragraph HTML and whether it was a tight list item's text (no <p>). */
  paragraphs: { html: string; bare: boolean }[];
}

/** How the serialiser renders what is not block structure. */
export interface BlockOutput {
  inline: InlineRenderer;
  codeBlock: (code: string) => string;
  /** Block HTML stashed by the fence pass, by number (see blockLine). */
  stashed: readonly string[];
  slots?: PreviewSlots;
}

// Marks a line that stands for stashed block HTML (a code block, spoiler edge, math).
// eslint-disable-next-line no-control-regex -- the marker is built from control characters on purpose
const markerRe = /\u0002block:(\d+)\u0003/g;
// eslint-disable-next-line no-control-regex -- as above
const wholeMarkerRe = /^\u0002block:(\d+)\u0003$/;

/** The line that stands for stashed block number `index`. */
export function blockLine(index: number): string {
  return `\u0002block:${index}\u0003`;
}

/** The marker standing for a set-aside paragraph until previews are decided. */
export function previewSlot(index: number): string {
  return `\u0002${index}\u0002`;
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
const blankAfterBreak = /<br>\n\s+(?=<|$)/g;

// Inline HTML for block text; stashed blocks inside it are put back as they are.
function text(raw: string, out: BlockOutput, inQuote: boolean): string {
  if (isBlank(raw)) return raw;
  return inlineWithStash(raw, out, inQuote).replace(blankAfterBreak, "<br>\n");
}

function inlineWithStash(raw: string, out: BlockOutput, inQuote: boolean): string {
  if (!raw.includes("\u0002")) return out.inline(raw, inQuote);
  let html = "";
  let from = 0;
  for (const m of raw.matchAll(markerRe)) {
    if (m.index > from) html += out.inline(raw.slice(from, m.index), inQuote);
    html += out.stashed[Number(m[1])] ?? "";
    from = m.index + m[0].length;
  }
  if (from < raw.length) html += out.inline(raw.slice(from), inQuote);
  return html;
}

// A paragraph that links an upload is set aside until previews are decided.
function slot(out: BlockOutput, html: string, bare: boolean, inQuote: boolean): string {
  if (!out.slots || inQuote || !html.includes('href="/user_uploads/')) return html;
  return previewSlot(out.slots.paragraphs.push({ html, bare }) - 1);
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
  // A paragraph that is nothing but a stashed block is replaced by that block.
  const stash = el.tag === "p" ? wholeMarkerRe.exec(el.text) : null;
  if (stash) {
    parts.push(out.stashed[Number(stash[1])] ?? "");
    return;
  }
  const own = text(el.text, out, quoted);
  if (el.tag === "p") {
    parts.push(slot(out, `<p>${own}</p>`, false, quoted));
    return;
  }
  parts.push(openTag(el), el.tag === "li" ? slot(out, own, true, quoted) : own);
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
    parts.push(html.startsWith("<") ? `\n${html}` : html);
  }
}

/** Renders the block tree under `root` (its own tag is not written). */
export function renderTree(root: BlockElement, out: BlockOutput): string {
  prettify(root);
  const parts: string[] = [root.text];
  children(root, out, false, parts);
  return parts.join("").trim();
}
