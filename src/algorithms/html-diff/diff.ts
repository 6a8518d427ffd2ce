import { element, parseFragment, serialize, serializeInner, type Element } from "./html-tree.js";
import { opcodes } from "./sequence-matcher.js";

/**
 * content_html_diff of GET /messages/{id}/history: Zulip diffs two renderings word by word with
 * lxml's htmldiff and marks what was inserted and deleted with highlight classes. The result is
 * shown to people, but compared as text by Zulip's own tests, so lxml's algorithm is followed in
 * its details: each word carries the tags around it; inserted words go before deleted ones; a
 * change's unbalanced tags stay outside its marker (for a deletion, are dropped if they cannot be
 * moved out); `Link: <href>` stands for a changed link target; markers around blocks move inside
 * them. Existing <ins> and <del> tags (strikethrough) are dropped first, as lxml does.
 */
export function highlightHtmlDifferences(before: string, after: string): string {
  const root = parseFragment(htmlDiff(before, after));
  for (const el of descendants(root)) {
    if (el.tag === "del" || el.tag === "ins") {
      el.attrs = [["class", el.tag === "del" ? "highlight_text_deleted" : "highlight_text_inserted"]];
      el.tag = "span";
    }
  }
  return serialize(root, false);
}

/** One word of a document, with the tags just before and after it. */
interface Token {
  /** What is compared: the escaped word, `img: <src>`, or a link's target. */
  key: string;
  html: string;
  pre: string[];
  post: string[];
  trailing: string;
  /** Shown only as part of a change (link targets). */
  hideWhenEqual: boolean;
}

const DEL_START = "\u0000del-start";
const DEL_END = "\u0000del-end";

// Runs of this many equal words or fewer (or of a quarter of the new words, if less) do not count as equal.
const MIN_MATCH = 2;

function htmlDiff(before: string, after: string): string {
  const [a, b] = [tokenize(before), tokenize(after)];
  let doc: string[] = [];
  for (const [op, i1, i2, j1, j2] of opcodes(a.map((t) => t.key), b.map((t) => t.key), Math.min(MIN_MATCH, b.length / 4))) {
    if (op === "equal") {
      doc.push(...expand(b.slice(j1, j2), true));
      continue;
    }
    if (op === "insert" || op === "replace") mergeInsert(expand(b.slice(j1, j2), false), doc);
    if (op === "delete" || op === "replace") doc.push(DEL_START, ...expand(a.slice(i1, i2), false), DEL_END);
  }
  doc = cleanupDeletes(doc);
  return fixupMarkers(pyStrip(doc.join("")));
}

// Python's whitespace (str.isspace), which lxml's word splitting and stripping use.
const SPACE = "\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";
const WORDS = new RegExp(`[^${SPACE}]+(?:[${SPACE}]+|$)`, "g");
const TRAILING = new RegExp(`[${SPACE}]+$`);
const EDGES = new RegExp(`^[${SPACE}]+|[${SPACE}]+$`, "g");

function pyStrip(text: string): string {
  return text.replace(EDGES, "");
}

const EMPTY_TAGS = new Set(["param", "img", "area", "br", "basefont", "input", "base", "meta", "link", "col"]);
const BLOCKS = new Set(["address", "blockquote", "center", "dir", "div", "dl", "fieldset", "form", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "isindex", "menu", "noframes", "noscript", "ol", "p", "pre", "table", "ul"]);
const BLOCK_CONTAINERS = new Set(["dd", "dt", "frameset", "li", "tbody", "td", "tfoot", "th", "thead", "tr"]);

type Chunk = string | { img: string; tag: string } | { href: string };

function tokenize(html: string): Token[] {
  const root = parseFragment(html.replace(/<\/?(ins|del)[\s\S]*?>/gi, ""));
  const tokens: Token[] = [];
  let tags: string[] = [];
  for (const chunk of flatten(root, true)) {
    if (typeof chunk !== "string") {
      const token: Token =
        "img" in chunk
          ? { key: `img: ${chunk.img}`, html: chunk.tag, pre: tags, post: [], trailing: "", hideWhenEqual: false }
          : { key: chunk.href, html: ` Link: ${chunk.href}`, pre: tags, post: [], trailing: " ", hideWhenEqual: true };
      tokens.push(token);
      tags = [];
    } else if (!chunk.startsWith("<")) {
      const trailing = TRAILING.exec(chunk)?.[0] ?? "";
      const word = chunk.slice(0, chunk.length - trailing.length);
      tokens.push({ key: word, html: word, pre: tags, post: [], trailing, hideWhenEqual: false });
      tags = [];
    } else if (chunk.startsWith("</") && tags.length === 0) {
      tokens[tokens.length - 1]?.post.push(chunk);
    } else {
      tags.push(chunk);
    }
  }
  const last = tokens[tokens.length - 1];
  if (!last) return [{ key: "", html: "", pre: tags, post: [], trailing: "", hideWhenEqual: false }];
  last.post.push(...tags);
  return tokens;
}

function* flatten(el: Element, skipTag: boolean): Generator<Chunk> {
  if (!skipTag) yield el.tag === "img" ? { img: attr(el, "src") ?? "None", tag: startTag(el) } : startTag(el);
  if (EMPTY_TAGS.has(el.tag) && !el.text && el.children.length === 0 && !el.tail) return;
  for (const word of splitWords(el.text)) yield escapeHtml(word);
  for (const child of el.children) yield* flatten(child, false);
  const href = attr(el, "href");
  if (el.tag === "a" && href) yield { href };
  if (skipTag) return;
  yield `</${el.tag}>${/^[ \t\n\r]/.test(el.tail) ? " " : ""}`;
  for (const word of splitWords(el.tail)) yield escapeHtml(word);
}

function attr(el: Element, name: string): string | undefined {
  return el.attrs.find(([n]) => n === name)?.[1];
}

function startTag(el: Element): string {
  return `<${el.tag}${el.attrs.map(([name, value]) => ` ${name}="${escapeHtml(value)}"`).join("")}>`;
}

function splitWords(text: string): string[] {
  return pyStrip(text) === "" ? [] : (text.match(WORDS) ?? []);
}

/** Python's html.escape, quotes included. */
function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#x27;");
}

function* expand(tokens: readonly Token[], equal: boolean): Generator<string> {
  for (const token of tokens) {
    yield* token.pre;
    if (!equal || !token.hideWhenEqual) yield token.html + token.trailing;
    yield* token.post;
  }
}

/** Wraps inserted words in <ins>, leaving tags they open or close without the other half outside. */
function mergeInsert(chunks: Iterable<string>, doc: string[]): void {
  const { start, balanced, end } = splitUnbalanced([...chunks]);
  doc.push(...start);
  spaceAfterLast(doc);
  doc.push("<ins>", ...withoutFinalSpace(balanced), "</ins> ", ...end);
}

function spaceAfterLast(doc: string[]): void {
  const last = doc[doc.length - 1];
  if (last !== undefined && !last.endsWith(" ")) doc[doc.length - 1] = `${last} `;
}

function withoutFinalSpace(chunks: string[]): string[] {
  const last = chunks[chunks.length - 1];
  if (last !== undefined && last.endsWith(" ")) chunks[chunks.length - 1] = last.slice(0, -1);
  return chunks;
}

function tagName(chunk: string, strip: RegExp): string {
  return (chunk.split(/\s+/)[0] ?? "").replace(strip, "");
}
const ANGLES_AND_SLASH = /^[<>/]+|[<>/]+$/g;
const ANGLES = /^[<>]+|[<>]+$/g;

/** Splits chunks into the tags opened but not closed (start), the balanced rest, and tags closed but not opened (end). */
function splitUnbalanced(chunks: readonly string[]): { start: string[]; balanced: string[]; end: string[] } {
  const start: string[] = [];
  const end: string[] = [];
  let stack: { name: string; at: number; chunk: string }[] = [];
  const balanced: (string | null)[] = [];
  for (const chunk of chunks) {
    if (!chunk.startsWith("<")) {
      balanced.push(chunk);
      continue;
    }
    const name = tagName(chunk, ANGLES_AND_SLASH);
    if (EMPTY_TAGS.has(name)) balanced.push(chunk);
    else if (chunk[1] !== "/") {
      stack.push({ name, at: balanced.length, chunk });
      balanced.push(null);
    } else if (stack[stack.length - 1]?.name === name) {
      const opened = stack.pop();
      if (opened) balanced[opened.at] = opened.chunk;
      balanced.push(chunk);
    } else {
      start.push(...stack.map((s) => s.chunk));
      stack = [];
      end.push(chunk);
    }
  }
  start.push(...stack.map((s) => s.chunk));
  return { start, balanced: balanced.filter((c): c is string => c !== null), end };
}

/** Turns each marked deletion into <del>, moving its unbalanced tags next to their partners where it can. */
function cleanupDeletes(chunks: string[]): string[] {
  for (;;) {
    const from = chunks.indexOf(DEL_START);
    if (from < 0) return chunks;
    const to = chunks.indexOf(DEL_END);
    const before = chunks.slice(0, from);
    const after = chunks.slice(to + 1);
    const { start, balanced, end } = splitUnbalanced(chunks.slice(from + 1, to));
    // An opening tag left over may match the one that follows the deletion: move that one before it.
    while (start.length > 0 && after.length > 0) {
      const next = after[0] ?? "";
      if (next === DEL_START || !next.startsWith("<") || next[1] === "/") break;
      const name = tagName(next, ANGLES);
      if (name === "ins" || name !== tagName(start[0] ?? "", ANGLES)) break;
      start.shift();
      before.push(after.shift() ?? "");
    }
    // A closing tag left over may match the one that precedes the deletion: move that one after it.
    while (end.length > 0 && before.length > 0) {
      const previous = before[before.length - 1] ?? "";
      if (previous === DEL_END || !previous.startsWith("</")) break;
      const name = tagName(previous, ANGLES_AND_SLASH);
      if (name === "ins" || name === "del" || name !== tagName(end[end.length - 1] ?? "", ANGLES_AND_SLASH)) break;
      end.pop();
      after.unshift(before.pop() ?? "");
    }
    spaceAfterLast(before);
    chunks = [...before, "<del>", ...withoutFinalSpace(balanced), "</del> ", ...after];
  }
}

/** Moves <ins> and <del> that contain blocks inside those blocks (lxml's fixup_ins_del_tags). */
function fixupMarkers(html: string): string {
  const root = parseFragment(html);
  for (const tag of ["ins", "del"]) {
    for (const el of descendants(root).filter((e) => e.tag === tag)) {
      if (!containsBlock(el)) continue;
      moveInsideBlocks(el, tag);
      dropTag(root, el);
    }
  }
  return pyStrip(serializeInner(root));
}

function descendants(root: Element): Element[] {
  const out: Element[] = [];
  const walk = (el: Element) => {
    out.push(el);
    el.children.forEach(walk);
  };
  walk(root);
  return out;
}

function containsBlock(el: Element): boolean {
  return BLOCKS.has(el.tag) || BLOCK_CONTAINERS.has(el.tag) || el.children.some(containsBlock);
}

function moveInsideBlocks(el: Element, tag: string): void {
  if (!el.children.some(containsBlock)) {
    const wrapper = { ...element(tag), text: el.text, children: el.children };
    el.text = "";
    el.children = [wrapper];
    return;
  }
  const children: Element[] = [];
  for (const child of el.children) {
    if (containsBlock(child)) {
      moveInsideBlocks(child, tag);
      children.push(child);
      if (child.tail) {
        children.push({ ...element(tag), text: child.tail });
        child.tail = "";
      }
    } else {
      // The wrapper takes the child's place; the child keeps its tail, inside the wrapper.
      children.push({ ...element(tag), children: [child] });
    }
  }
  if (el.text) children.unshift({ ...element(tag), text: el.text });
  el.text = "";
  el.children = children;
}

/** Replaces an element by its content, its text and tail joining the neighbouring text (lxml's drop_tag). */
function dropTag(root: Element, el: Element): void {
  const parent = descendants(root).find((e) => e.children.includes(el));
  if (!parent) return;
  const index = parent.children.indexOf(el);
  const previous = parent.children[index - 1];
  const appendBefore = (text: string) => {
    if (previous) previous.tail += text;
    else parent.text += text;
  };
  if (el.text) appendBefore(el.text);
  if (el.tail) {
    const last = el.children[el.children.length - 1];
    if (last) last.tail += el.tail;
    else appendBefore(el.tail);
  }
  parent.children.splice(index, 1, ...el.children);
}
