/**
 * A small HTML fragment parser and serializer that behave like the ones Zulip's edit-history diff
 * goes through (lxml over libxml2's HTML parser): an element tree in lxml's shape (each element's
 * `text` before its first child, each child's `tail` after it), HTML 4 void elements, end tags
 * that close what they can and are ignored otherwise, and libxml2's escaping on output (URI
 * attributes percent-encoded). Enough for message HTML, which is well formed to start with.
 */

/** An element: its text before the first child, its children, and the text after it (tail). */
export interface Element {
  tag: string;
  attrs: [string, string][];
  text: string;
  children: Element[];
  tail: string;
}

/** Elements without content or end tag (libxml2's HTML 4 empty elements). */
const VOID = new Set(["area", "base", "basefont", "br", "col", "frame", "hr", "img", "input", "isindex", "link", "meta", "param", "embed"]);

// A misplaced end tag closes only open elements of lower or equal priority (libxml2's htmlEndPriority).
const END_PRIORITY: Readonly<Record<string, number>> = { div: 150, td: 160, th: 160, tr: 170, thead: 180, tbody: 180, tfoot: 180, table: 190 };

// What a start tag closes first while it is the innermost open element (libxml2's htmlStartClose).
const HEADINGS = ["h1", "h2", "h3", "h4", "h5", "h6"];
const FONT_STYLES = ["tt", "i", "b", "u", "s", "strike", "big", "small"];
const CELL_CLOSES = ["th", "td", "p", "span", "font", "a", "b", "i", "u"];
const CLOSES: Readonly<Record<string, readonly string[]>> = {
  form: ["form", "p", "hr", ...HEADINGS, "dl", "ul", "ol", "menu", "dir", "address", "pre", "listing", "xmp", "head"],
  li: ["p", ...HEADINGS, "dl", "address", "pre", "listing", "xmp", "head", "li"],
  hr: ["p", "head"],
  ...Object.fromEntries(HEADINGS.map((h) => [h, ["p", "head", ...HEADINGS.filter((other) => other !== h)]])),
  dir: ["p", "head"],
  address: ["p", "head", "ul"],
  pre: ["p", "head", "ul"],
  listing: ["p", "head"],
  xmp: ["p"],
  blockquote: ["p", "head"],
  dl: ["p", "dt", "menu", "dir", "address", "pre", "listing", "xmp", "head"],
  dt: ["p", "menu", "dir", "address", "pre", "listing", "xmp", "head", "dd"],
  dd: ["p", "menu", "dir", "address", "pre", "listing", "xmp", "head", "dt"],
  ul: ["p", "head", "ol", "menu", "dir", "address", "pre", "listing", "xmp"],
  ol: ["p", "head", "ul"],
  menu: ["p", "head", "ul"],
  p: ["p", "head", ...HEADINGS, ...FONT_STYLES],
  div: ["p", "head"],
  center: ["font", "b", "i", "p", "head"],
  a: ["a", "head"],
  caption: ["p"],
  colgroup: ["caption", "colgroup", "col", "p"],
  col: ["caption", "col", "p"],
  table: ["p", "head", ...HEADINGS, "pre", "listing", "xmp", "a"],
  th: CELL_CLOSES,
  td: CELL_CLOSES,
  tr: ["th", "td", "tr", "caption", "col", "colgroup", "p"],
  thead: ["caption", "col", "colgroup"],
  tfoot: ["th", "td", "tr", "caption", "col", "colgroup", "thead", "tbody", "p"],
  tbody: ["th", "td", "tr", "caption", "col", "colgroup", "thead", "tfoot", "tbody", "p"],
  optgroup: ["option"],
  option: ["option"],
  fieldset: ["legend", "p", "head", ...HEADINGS, "pre", "listing", "xmp", "a"],
};

/** A new element. */
export function element(tag: string, attrs: [string, string][] = []): Element {
  return { tag, attrs, text: "", children: [], tail: "" };
}

/**
 * Parses an HTML fragment into the children of a new `<div>` (lxml's fragment_fromstring with
 * create_parent): leading text is kept only if it is more than whitespace.
 */
export function parseFragment(html: string): Element {
  const root = element("div");
  const open: Element[] = [root];
  const addText = (text: string) => {
    const top = open[open.length - 1] ?? root;
    const last = top.children[top.children.length - 1];
    if (last) last.tail += text;
    else top.text += text;
  };
  let at = 0;
  while (at < html.length) {
    const lt = html.indexOf("<", at);
    if (lt < 0) {
      addText(decodeEntities(html.slice(at)));
      break;
    }
    if (lt > at) addText(decodeEntities(html.slice(at, lt)));
    if (html.startsWith("<!--", lt)) {
      const end = html.indexOf("-->", lt + 4);
      at = end < 0 ? html.length : end + 3;
      continue;
    }
    const tag = /^<(\/?)([a-zA-Z][a-zA-Z0-9]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s>]*))?)*)\s*(\/?)>/.exec(html.slice(lt));
    if (!tag) {
      addText("<");
      at = lt + 1;
      continue;
    }
    at = lt + tag[0].length;
    const name = (tag[2] ?? "").toLowerCase();
    if (tag[1] === "/") closeElement(open, name);
    else {
      const closes = CLOSES[name] ?? [];
      while (open.length > 1 && closes.includes(open[open.length - 1]?.tag ?? "")) open.pop();
      const el = element(name, parseAttributes(tag[3] ?? ""));
      (open[open.length - 1] ?? root).children.push(el);
      if (!VOID.has(name) && tag[4] !== "/") open.push(el);
    }
  }
  if (root.text.trim() === "") root.text = "";
  return root;
}

function closeElement(open: Element[], name: string): void {
  if (VOID.has(name)) return;
  const priority = END_PRIORITY[name] ?? 100;
  for (let i = open.length - 1; i > 0; i--) {
    const el = open[i];
    if (el?.tag === name) {
      open.length = i;
      return;
    }
    if ((END_PRIORITY[el?.tag ?? ""] ?? 100) > priority) return;
  }
}

function parseAttributes(text: string): [string, string][] {
  const out: [string, string][] = [];
  for (const m of text.matchAll(/([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]*)))?/g)) {
    const name = (m[1] ?? "").toLowerCase();
    if (out.some(([existing]) => existing === name)) continue;
    out.push([name, decodeEntities(m[2] ?? m[3] ?? m[4] ?? "")]);
  }
  return out;
}

const NAMED: Readonly<Record<string, string>> = {
  amp: "&", lt: "<", gt: ">", quot: '"', nbsp: "\u00a0", copy: "\u00a9", reg: "\u00ae", trade: "\u2122", hellip: "\u2026",
  mdash: "\u2014", ndash: "\u2013", lsquo: "\u2018", rsquo: "\u2019", ldquo: "\u201c", rdquo: "\u201d", laquo: "\u00ab",
  raquo: "\u00bb", deg: "\u00b0", middot: "\u00b7", bull: "\u2022", euro: "\u20ac", pound: "\u00a3", yen: "\u00a5",
  cent: "\u00a2", sect: "\u00a7", para: "\u00b6", times: "\u00d7", divide: "\u00f7", plusmn: "\u00b1", micro: "\u00b5",
};

/** Decodes character references (numeric, and the named ones message HTML uses); others stay as written. */
export function decodeEntities(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(/&(?:#[xX]([0-9a-fA-F]+)|#([0-9]+)|([a-zA-Z][a-zA-Z0-9]*));/g, (whole, hex?: string, dec?: string, name?: string) => {
    if (name !== undefined) return NAMED[name] ?? whole;
    const code = hex !== undefined ? parseInt(hex, 16) : parseInt(dec ?? "", 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** An element and its tail as libxml2 writes HTML. */
export function serialize(el: Element, withTail = true): string {
  let out = `<${el.tag}${el.attrs.map(([name, value]) => ` ${name}=${quoteAttribute(attributeText(el.tag, name, value))}`).join("")}>`;
  if (!VOID.has(el.tag)) out += `${escapeText(el.text)}${el.children.map((child) => serialize(child)).join("")}</${el.tag}>`;
  return withTail ? out + escapeText(el.tail) : out;
}

/** The children of an element (with its text), without the element's own tags. */
export function serializeInner(el: Element): string {
  return escapeText(el.text) + el.children.map((child) => serialize(child)).join("");
}

function escapeText(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

// Attributes holding a URI are percent-encoded, keeping these and the unreserved characters.
const URI_KEEP = /[A-Za-z0-9\-_.!~*'()@/:=?;#%&,+<>]/;

function attributeText(tag: string, name: string, value: string): string {
  const escaped = escapeText(value);
  if (!(name === "href" || name === "action" || name === "src" || (name === "name" && tag === "a"))) return escaped;
  let out = "";
  for (const byte of Buffer.from(escaped.replace(/^[ \t\n\r]+/, ""), "utf8")) {
    const ch = String.fromCharCode(byte);
    out += byte < 0x80 && URI_KEEP.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}

function quoteAttribute(value: string): string {
  if (!value.includes('"')) return `"${value}"`;
  return value.includes("'") ? `"${value.replace(/"/g, "&quot;")}"` : `'${value}'`;
}
