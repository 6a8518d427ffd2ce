/** A strict structural check of rendered HTML: known tags and attributes, safe URLs, balanced. */

const allowedTags = new Set([
  "p", "br", "strong", "em", "del", "code", "pre", "div", "span", "a", "img", "ul", "ol", "li",
  "blockquote", "h1", "h2", "h3", "h4", "h5", "h6", "hr", "table", "thead", "tbody", "tr", "th", "td", "time",
  // KaTeX's MathML and SVG output
  "math", "semantics", "mrow", "mi", "mn", "mo", "ms", "mtext", "mspace", "msup", "msub", "msubsup", "mfrac",
  "msqrt", "mroot", "mover", "munder", "munderover", "mtable", "mtr", "mtd", "mstyle", "mpadded", "mphantom",
  "menclose", "annotation", "svg", "path", "line",
]);
const voidTags = new Set(["br", "hr", "img"]);
const urlAttributes = new Set(["href", "src"]);
const safeUrl = /^(?:(?:https?|ftp|file|mailto|tel|sms|smsto|bitcoin|geo|im|irc|ircs|magnet|matrix|mms|news|nntp|openpgp4fpr|sip|ssh|urn|webcal|wtai|xmpp):|[/#]|[^:/?#]*(?:[/?#]|$))/i;

function decodeEntities(value: string): string {
  return value
    .replace(/&#x([0-9a-f]+);?/gi, (_m, h: string) => String.fromCodePoint(Math.min(parseInt(h, 16), 0x10ffff)))
    .replace(/&#([0-9]+);?/g, (_m, d: string) => String.fromCodePoint(Math.min(Number(d), 0x10ffff)))
    .replace(/&colon;/gi, ":")
    .replace(/&tab;|&newline;/gi, "");
}

/** Returns a description of the first problem, or null when the HTML is safe and balanced. */
export function checkHtml(html: string): string | null {
  const stack: string[] = [];
  const tagRe = /<(\/?)([a-z][a-z0-9]*)((?:\s+[a-z][a-z0-9-]*="[^"<>]*")*)\s*>/gy;
  let pos = 0;
  while (pos < html.length) {
    const lt = html.indexOf("<", pos);
    const text = html.slice(pos, lt === -1 ? html.length : lt);
    if (text.includes(">")) return `raw ">" in text near ${JSON.stringify(text.slice(0, 40))}`;
    if (lt === -1) break;
    tagRe.lastIndex = lt;
    const m = tagRe.exec(html);
    if (!m) return `malformed tag at ${JSON.stringify(html.slice(lt, lt + 40))}`;
    const [, closing, tag = "", attrs = ""] = m;
    if (!allowedTags.has(tag)) return `tag <${tag}> not allowed`;
    for (const a of attrs.matchAll(/([a-z][a-z0-9-]*)="([^"]*)"/g)) {
      const name = a[1] ?? "";
      if (name.startsWith("on")) return `event handler attribute ${name}`;
      if (urlAttributes.has(name)) {
        // eslint-disable-next-line no-control-regex -- browsers drop these inside URLs
        const url = decodeEntities(a[2] ?? "").replace(/[\u0000-\u0020]/g, "");
        if (!safeUrl.test(url)) return `unsafe URL ${JSON.stringify(url)}`;
      }
    }
    if (closing === "/") {
      if (stack.pop() !== tag) return `unbalanced </${tag}>`;
    } else if (!voidTags.has(tag)) stack.push(tag);
    pos = tagRe.lastIndex;
  }
  return stack.length === 0 ? null : `unclosed <${stack[stack.length - 1] ?? ""}>`;
}
