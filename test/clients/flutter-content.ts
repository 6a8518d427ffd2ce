/**
 * The mobile app's reading of message HTML, as its content parser decides it (zulip-flutter's
 * lib/model/content.dart, parseContent, and lib/model/code_block.dart): the rules for the block
 * and inline nodes Rookery's renderer writes, each HTML node mapped to the node the app would
 * make, and to `Unimplemented` wherever the app gives up on a node (it then shows the raw HTML's
 * text in a grey box, and logs it). Math, tables, spoilers, videos and website previews are not
 * transcribed: they come out as `NotTranscribed`, so a test using them learns it at once.
 * The HTML is parsed by parse5, an HTML5 parser like the app's package:html.
 */
import { parseFragment } from "parse5";
import type { DefaultTreeAdapterMap } from "parse5";

type DomNode = DefaultTreeAdapterMap["childNode"];
type DomElement = DefaultTreeAdapterMap["element"];

/** A node of the app's content tree: its class name, a detail, its children. */
export interface ContentNode {
  kind: string;
  detail?: string;
  children?: ContentNode[];
}

/** The app's ContentNode tree of a message's HTML. */
export function parseContent(html: string): ContentNode[] {
  return blockList(parseFragment(html).childNodes);
}

/** The tree in one line: `Kind(detail)[children…]`. */
export function show(nodes: ContentNode[]): string {
  return nodes.map((n) => `${n.kind}${n.detail === undefined ? "" : `(${n.detail})`}${n.children ? `[${show(n.children)}]` : ""}`).join(", ");
}

/** Every node the app could not parse (Unimplemented…) or this transcription does not cover. */
export function unparsed(nodes: ContentNode[]): ContentNode[] {
  return nodes.flatMap((n) => [...(/^(Unimplemented|NotTranscribed)/.test(n.kind) ? [n] : []), ...unparsed(n.children ?? [])]);
}

/** Pygments classes the app maps to a CodeBlockSpanType (code_block.dart), `hll` aside. */
const CODE_SPAN_CLASSES = new Set(
  "w esc err x k kc kd kn kp kr kt n na nb bp nc no nd ni ne nf fm py nl nn nx nt nv vc vg vi vm l ld s sa sb sc dl sd s2 se sh si sx sr s1 ss m mb mf mh mi il mo o ow p pm c ch cm cp cpf c1 cs g gd ge gr gh gi go gp gs gu ges gt".split(" "),
);

const isElement = (node: DomNode): node is DomElement => "tagName" in node;
const isText = (node: DomNode): node is DefaultTreeAdapterMap["textNode"] => node.nodeName === "#text";
const classOf = (element: DomElement): string => attr(element, "class") ?? "";
const attr = (element: DomElement, name: string): string | undefined => element.attrs.find((a) => a.name === name)?.value;
const textOf = (node: DomNode): string => (isText(node) ? node.value : isElement(node) ? node.childNodes.map(textOf).join("") : "");

function unimplemented(node: DomNode, block: boolean): ContentNode {
  const tag = isElement(node) ? `<${node.tagName}${classOf(node) ? ` class="${classOf(node)}"` : ""}>` : node.nodeName;
  return { kind: block ? "UnimplementedBlockContentNode" : "UnimplementedInlineContentNode", detail: tag };
}

const MATH_PARAGRAPH = (node: DomNode): boolean => isElement(node) && node.tagName === "p" && classOf(node) === "" && isElement(node.childNodes[0] ?? node) && classOf(node.childNodes[0] as DomElement) === "katex-display";

/** parseBlockContentList: newline-only text skipped, consecutive image previews grouped. */
function blockList(nodes: DomNode[]): ContentNode[] {
  const result: ContentNode[] = [];
  let previews: ContentNode[] = [];
  const flush = (): void => {
    if (previews.length > 0) result.push({ kind: "ImagePreviewNodeList", children: previews });
    previews = [];
  };
  for (const node of nodes) {
    if (isText(node) && /^\n+$/.test(node.value)) continue;
    if (MATH_PARAGRAPH(node)) {
      flush();
      result.push({ kind: "NotTranscribed", detail: "math block" });
      continue;
    }
    const parsed = block(node);
    if (parsed.kind === "ImagePreviewNode") previews.push(parsed);
    else {
      flush();
      result.push(parsed);
    }
  }
  flush();
  return result;
}

/** parseImplicitParagraphBlockContentList (list items): inline runs become implicit paragraphs. */
function implicitParagraphList(nodes: DomNode[]): ContentNode[] {
  const result: ContentNode[] = [];
  let previews: ContentNode[] = [];
  let paragraph: DomNode[] = [];
  const flushPreviews = (): void => {
    if (previews.length > 0) result.push({ kind: "ImagePreviewNodeList", children: previews });
    previews = [];
  };
  const flushParagraph = (): void => {
    if (paragraph.length > 0) result.push({ kind: "ParagraphNode", detail: "implicit", children: paragraph.map(inline) });
    paragraph = [];
  };
  for (const node of nodes) {
    if (isText(node) && node.value === "\n") continue;
    if (MATH_PARAGRAPH(node)) {
      flushParagraph();
      flushPreviews();
      result.push({ kind: "NotTranscribed", detail: "math block" });
      continue;
    }
    const possiblyInline = isText(node) || (isElement(node) && !["p", "ol", "ul", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "table", "div"].includes(node.tagName));
    if (possiblyInline) {
      if (previews.length > 0) {
        flushPreviews();
        result.push(unimplemented(node, true));
        continue;
      }
      paragraph.push(node);
      continue;
    }
    flushParagraph();
    const parsed = block(node);
    if (parsed.kind === "ImagePreviewNode") previews.push(parsed);
    else {
      flushPreviews();
      result.push(parsed);
    }
  }
  flushParagraph();
  flushPreviews();
  return result;
}

/** parseBlockContent. */
function block(node: DomNode): ContentNode {
  if (!isElement(node)) return unimplemented(node, true);
  const tag = node.tagName;
  const cls = classOf(node);
  if ((tag === "br" || tag === "hr") && cls === "") return { kind: tag === "br" ? "LineBreakNode" : "ThematicBreakNode" };
  if (tag === "p" && cls === "") return { kind: "ParagraphNode", children: node.childNodes.map(inline) };
  if (/^h[1-6]$/.test(tag) && cls === "") return { kind: "HeadingNode", detail: tag, children: node.childNodes.map(inline) };
  if ((tag === "ol" || tag === "ul") && cls === "") return list(node);
  if (tag === "blockquote" && cls === "") return { kind: "QuotationNode", children: blockList(node.childNodes) };
  if (tag === "div" && cls === "codehilite") return codeBlock(node);
  if (tag === "div" && cls === "message_inline_image") return imagePreview(node) ?? unimplemented(node, true);
  if ((tag === "table" && cls === "") || (tag === "div" && /^(spoiler-block|message_embed)$|message_inline_video|youtube-video|embed-video/.test(cls))) {
    return { kind: "NotTranscribed", detail: `<${tag} class="${cls}">` };
  }
  return unimplemented(node, true);
}

/** parseListNode: each item an implicit-paragraph block list; a bad `start` gives up on the list. */
function list(element: DomElement): ContentNode {
  const items: ContentNode[] = [];
  for (const item of element.childNodes) {
    if (isText(item) && item.value === "\n") continue;
    if (!isElement(item) || item.tagName !== "li" || classOf(item) !== "") items.push(unimplemented(item, true));
    items.push({ kind: "ListItem", children: implicitParagraphList(isElement(item) ? item.childNodes : []) });
  }
  if (element.tagName === "ul") return { kind: "UnorderedListNode", children: items };
  const start = attr(element, "start");
  if (start !== undefined && !/^[+-]?\d+$/.test(start)) return unimplemented(element, true);
  return { kind: "OrderedListNode", detail: `start=${start ?? 1}`, children: items };
}

/** parseCodeBlock: div > pre > ([empty span] code); code holds text and spans of known Pygments classes. */
function codeBlock(div: DomElement): ContentNode {
  const pre = div.childNodes.length === 1 ? div.childNodes[0] : undefined;
  const code = (() => {
    if (pre === undefined || !isElement(pre) || pre.tagName !== "pre") return undefined;
    const kids = pre.childNodes;
    if (kids.length === 0 || kids.length > 2) return undefined;
    if (kids.length === 2) {
      const first = kids[0];
      if (first === undefined || !isElement(first) || first.tagName !== "span" || first.childNodes.length > 0) return undefined;
    }
    const last = kids.at(-1);
    return last !== undefined && isElement(last) && last.tagName === "code" ? last : undefined;
  })();
  if (code === undefined) return unimplemented(div, true);
  const spans: ContentNode[] = [];
  for (const [i, child] of code.childNodes.entries()) {
    if (isText(child)) {
      const text = i === code.childNodes.length - 1 ? child.value.replace(/\n$/, "") : child.value;
      if (text !== "") spans.push({ kind: "CodeBlockSpanNode", detail: `text ${JSON.stringify(text)}` });
      continue;
    }
    if (!isElement(child) || child.tagName !== "span") return unimplemented(div, true);
    const type = classOf(child).split(" ").find((c) => c === "hll" || CODE_SPAN_CLASSES.has(c));
    if (type === undefined || type === "hll") return unimplemented(div, true);
    spans.push({ kind: "CodeBlockSpanNode", detail: `${type} ${JSON.stringify(textOf(child))}` });
  }
  return { kind: "CodeBlockNode", children: spans };
}

/** parseImagePreviewNode: div > a (no class) > img with a src; none when the shape differs. */
function imagePreview(div: DomElement): ContentNode | undefined {
  const link = div.childNodes.length === 1 ? div.childNodes[0] : undefined;
  if (link === undefined || !isElement(link) || link.tagName !== "a" || classOf(link) !== "") return undefined;
  const img = link.childNodes.length === 1 ? link.childNodes[0] : undefined;
  if (img === undefined || !isElement(img) || img.tagName !== "img") return undefined;
  const src = attr(img, "src");
  if (src === undefined) return undefined;
  const loading = classOf(img) === "image-loading-placeholder";
  const kind = src.startsWith("/user_uploads/thumbnail/") ? "Thumbnail" : "Other";
  return { kind: "ImagePreviewNode", detail: `${kind} ${src}${loading ? " loading" : ""} original=${attr(link, "href") ?? "null"}` };
}

const MENTION = /(^| )(?:user(?:-group)?|topic)-mention( |$)/;
const EMOJI = /^(?:emoji emoji(?:-[0-9a-f]+)+|emoji(?:-[0-9a-f]+)+ emoji)$/;

/** parseInlineContent. */
function inline(node: DomNode): ContentNode {
  if (isText(node)) return { kind: "TextNode", detail: JSON.stringify(node.value) };
  if (!isElement(node)) return unimplemented(node, false);
  const tag = node.tagName;
  const cls = classOf(node);
  const kids = (): ContentNode[] => node.childNodes.map(inline);
  if (tag === "br" && cls === "") return { kind: "LineBreakInlineNode" };
  const simple: Record<string, string> = { strong: "StrongNode", del: "DeletedNode", em: "EmphasisNode", code: "InlineCodeNode" };
  if (simple[tag] !== undefined && cls === "") return { kind: simple[tag], children: kids() };
  if (tag === "a" && ["", "stream-topic", "stream", "message-link"].includes(cls)) {
    const href = attr(node, "href");
    return href === undefined ? unimplemented(node, false) : { kind: "LinkNode", detail: href, children: kids() };
  }
  if (tag === "span" && MENTION.test(cls)) return mention(node) ?? unimplemented(node, false);
  if (tag === "span" && EMOJI.test(cls)) {
    const code = /emoji-([^ ]+)/.exec(cls)?.[1] ?? "";
    const points = code.split("-").map((hex) => Number.parseInt(hex, 16));
    return points.every((p) => Number.isInteger(p) && p <= 0x10ffff) ? { kind: "UnicodeEmojiNode", detail: String.fromCodePoint(...points) } : unimplemented(node, false);
  }
  if (tag === "img" && cls === "emoji") {
    const alt = attr(node, "alt");
    const src = attr(node, "src");
    return alt === undefined || src === undefined ? unimplemented(node, false) : { kind: "ImageEmojiNode", detail: alt };
  }
  if (tag === "img" && /^(inline-image|inline-image image-loading-placeholder|image-loading-placeholder inline-image)$/.test(cls)) {
    const src = attr(node, "src");
    return src === undefined ? unimplemented(node, false) : { kind: "InlineImageNode", detail: src };
  }
  if (tag === "time" && cls === "") {
    const datetime = attr(node, "datetime");
    return datetime !== undefined && /Z$/.test(datetime) && !Number.isNaN(Date.parse(datetime)) ? { kind: "GlobalTimeNode", detail: datetime } : unimplemented(node, false);
  }
  if (tag === "audio" && cls === "") return attr(node, "src") === undefined ? unimplemented(node, false) : { kind: "LinkNode", detail: attr(node, "src") };
  if (tag === "span" && cls === "katex") return { kind: "NotTranscribed", detail: "inline math" };
  return unimplemented(node, false);
}

/** parseMention: sorted classes [channel-wildcard-mention] [silent] (user|user-group|topic)-mention, nothing else. */
function mention(element: DomElement): ContentNode | undefined {
  const classes = classOf(element).split(" ").sort();
  let i = 0;
  const wildcard = classes[i] === "channel-wildcard-mention";
  if (wildcard) i++;
  const silent = classes[i] === "silent";
  if (silent) i++;
  const type = classes[i];
  if (type === "user-mention" || (!wildcard && (type === "topic-mention" || type === "user-group-mention"))) i++;
  if (i !== classes.length) return undefined;
  const children = element.childNodes.map(inline);
  const detail = silent ? "silent" : undefined;
  const userId = attr(element, "data-user-id");
  if (type === "user-group-mention") {
    return /^[+-]?\d+$/.test(attr(element, "data-user-group-id") ?? "") ? { kind: "UserGroupMentionNode", detail, children } : undefined;
  }
  if (type === "topic-mention" || (type === "user-mention" && (wildcard || userId === "*"))) return { kind: "WildcardMentionNode", detail, children };
  if (type === "user-mention") return { kind: "UserMentionNode", detail: `${silent ? "silent " : ""}${userId}`, children };
  return undefined;
}
