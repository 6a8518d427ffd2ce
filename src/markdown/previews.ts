/**
 * Image previews, as Zulip 9.0 adds them once a message is rendered: every distinct link to an
 * image (an upload the server knows as one, or a URL whose path ends in an image extension)
 * gets a `message_inline_image` block, placed where Zulip's tree pass puts it. External images
 * are shown through the server's own /thumbnail proxy, never straight from the other site.
 */
import type { RenderContext, UploadPreview } from "./context.js";
import { escapeAttr } from "./escape.js";

/** Zulip's INLINE_PREVIEW_LIMIT_PER_MESSAGE: a message with more links gets no previews at all. */
export const INLINE_PREVIEW_LIMIT_PER_MESSAGE = 24;
/** The spinner a preview shows until its thumbnail exists. */
export const LOADING_PLACEHOLDER_SRC = "/static/images/loading/loader-black.svg";
/** Zulip's IMAGE_EXTENSIONS: a link whose path ends in one of these is taken for an image. */
export const IMAGE_EXTENSIONS = [".bmp", ".gif", ".jpe", ".jpeg", ".jpg", ".png", ".webp"] as const;

/** What the preview pass did. */
export interface PreviewOutcome {
  html: string;
  /** Previews added (uploads and external images). */
  previews: number;
  /** The URLs the external previews fetch through /thumbnail (the `url` parameter), in order. */
  externalImages: string[];
}

// An element of rendered HTML with ElementTree's shape: text before the first child, tail after
// the closing tag. `open` is the opening tag exactly as rendered ("" for the root).
interface Node {
  tag: string;
  open: string;
  text: string;
  tail: string;
  children: Node[];
}

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source", "track", "wbr"]);
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)(?:\s[^<>]*)?>/g;
const PREVIEW_CLASSES = new Set(["message_inline_image", "message_inline_ref", "inline-preview-twitter"]);
// A cheap test before any parsing: an href ending in an image extension, or an upload.
const CANDIDATE = /\.(?:bmp|gif|jpe|jpeg|jpg|png|webp)[?#"]/i;

/**
 * Adds the previews to rendered message HTML (stashed blocks still standing as markers, so the
 * tree has the shape Zulip's has when it adds them). Off when the organisation's
 * inline_image_preview setting is off, as all image previews are in Zulip.
 */
export function addImagePreviews(html: string, ctx: RenderContext): PreviewOutcome {
  const none: PreviewOutcome = { html, previews: 0, externalImages: [] };
  if (ctx.inlineImagePreview !== true || !html.includes("<a ")) return none;
  if (!CANDIDATE.test(html) && !(ctx.uploadPreview !== undefined && html.includes('href="/user_uploads/'))) return none;
  const root = parse(html);
  if (!root) return none;

  const found = anchorsBreadthFirst(root);
  const previewable = new Set(found.filter((f) => !f.inQuote).map((f) => f.url));
  if (previewable.size > INLINE_PREVIEW_LIMIT_PER_MESSAGE) return none;

  const processed = new Set<string>();
  const externalImages: string[] = [];
  let previews = 0;
  for (const link of found) {
    if (!previewable.has(link.url) || processed.has(link.url)) continue;
    processed.add(link.url);
    let image = imageOf(link.url, ctx);
    if (!image) continue;
    let { url, text } = link;
    const corrected = correctedImageSource(url);
    if (corrected !== undefined) {
      url = corrected;
      text = corrected;
      image = { kind: "url", imageUrl: corrected };
    }
    const info = inliningInformation(root, link, url, text);
    const imageUrl = image.kind === "url" ? actualImageUrl(image.imageUrl) : undefined;
    const img = image.kind === "upload" ? imageTag(image.preview) : externalImageTag(imageUrl ?? url, externalImages);
    const rawHref = url === link.url ? link.rawHref : escapeAttr(url);
    const titleAttr = info.title === undefined ? "" : ` title="${escapeAttr(info.title)}"`;
    const div: Node = { tag: "div", open: '<div class="message_inline_image">', text: "", tail: "", children: [] };
    div.children.push({ tag: "a", open: `<a href="${rawHref}"${titleAttr}>`, text: img, tail: "", children: [] });
    if (info.index === undefined) info.parent.children.push(div);
    else info.parent.children.splice(info.index, 0, div);
    if (info.remove) info.parent.children.splice(info.parent.children.indexOf(info.remove), 1);
    previews += 1;
  }
  return previews === 0 ? none : { html: serialize(root), previews, externalImages };
}

type Image = { kind: "upload"; preview: UploadPreview } | { kind: "url"; imageUrl: string };

// Zulip's is_image: an upload previews when the server knows it as an image; anything else by extension.
function imageOf(url: string, ctx: RenderContext): Image | undefined {
  if (url.startsWith("/user_uploads/")) {
    const preview = ctx.uploadPreview?.(url.slice("/user_uploads/".length));
    return preview ? { kind: "upload", preview } : undefined;
  }
  const parts = splitUrl(url);
  if (parts.netloc === "pasteboard.co" || isDropboxShare(parts)) return undefined;
  const path = parts.path.toLowerCase();
  return IMAGE_EXTENSIONS.some((ext) => path.endsWith(ext)) ? { kind: "url", imageUrl: url } : undefined;
}

// Zulip previews Dropbox shares from the page's Open Graph data, fetched while rendering; Rookery
// renders without network access, so a share gets no preview rather than a different one.
function isDropboxShare(p: UrlParts): boolean {
  if (p.netloc !== "dropbox.com" && !p.netloc.endsWith(".dropbox.com")) return false;
  return ["/s/", "/sh/", "/sc/", "/scl/", "/photos/"].some((prefix) => p.path.startsWith(prefix));
}

/** The img of an external image: through /thumbnail when it is on another site (or an upload), as is otherwise. */
function externalImageTag(imageUrl: string, proxied: string[]): string {
  const parts = splitUrl(imageUrl);
  if (parts.scheme === "" && parts.netloc === "" && !parts.path.startsWith("/user_uploads/")) return `<img src="${escapeAttr(imageUrl)}">`;
  const target = imageUrl.replace(/^\/+/, "");
  proxied.push(target);
  return `<img data-src-fullsize="${escapeAttr(thumbnailUrl(target, "full"))}" src="${escapeAttr(thumbnailUrl(target, "thumbnail"))}">`;
}

/** The /thumbnail URL Zulip writes for an image: the URL form-encoded (Python's urlencode), then the size. */
export function thumbnailUrl(url: string, size: "thumbnail" | "full"): string {
  return `/thumbnail?url=${formEncode(url)}&size=${size}`;
}

/** Python's quote_plus with nothing safe: only letters, digits and `_.-~` stay; a space becomes `+`. */
export function formEncode(text: string): string {
  return encodeURIComponent(text)
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, "+");
}

/** The preview's img for an upload: the spinner before the thumbnail exists, the thumbnail after (attributes in Zulip's sorted order). */
export function imageTag(preview: UploadPreview): string {
  if (preview.thumbnailUrl === null) return `<img class="image-loading-placeholder" src="${LOADING_PLACEHOLDER_SRC}">`;
  const animated = preview.animated ? ' data-animated="true"' : "";
  return `<img${animated} data-original-dimensions="${preview.width}x${preview.height}" src="${escapeAttr(preview.thumbnailUrl)}">`;
}

/**
 * Replaces the spinner of every preview of `pathId` in stored message HTML: with the thumbnail,
 * or (preview undefined: the image could not be thumbnailed) by removing the preview block.
 */
export function replacePlaceholders(html: string, pathId: string, preview: UploadPreview | undefined): string {
  const href = escapeAttr(`/user_uploads/${pathId}`);
  const placeholder = `<img class="image-loading-placeholder" src="${LOADING_PLACEHOLDER_SRC}">`;
  const block = new RegExp(`\\n?<div class="message_inline_image"><a href="${escapeRegExp(href)}"(?: title="[^"]*")?>${escapeRegExp(placeholder)}</a></div>`, "g");
  return html.replace(block, (found) => (preview ? found.replace(placeholder, imageTag(preview)) : ""));
}

// ---- Zulip's site-specific corrections --------------------------------------------------------

// corrected_image_source: a Wikipedia file page becomes the file itself; linx.li its raw file.
function correctedImageSource(url: string): string | undefined {
  const p = splitUrl(url);
  if (p.netloc.toLowerCase().endsWith(".wikipedia.org") && p.path.startsWith("/wiki/File:")) {
    return joinUrl({ ...p, path: p.path.replace("/wiki/File:", "/wiki/Special:FilePath/File:") });
  }
  if (p.netloc === "linx.li") return `https://linx.li/s${p.path}`;
  return undefined;
}

// get_actual_image_url: a GitHub "blob" page shows its raw file.
function actualImageUrl(url: string): string {
  const p = splitUrl(url);
  if (p.netloc !== "github.com" && !p.netloc.endsWith(".github.com")) return url;
  const parts = p.path.split("/");
  if (parts.length <= 3 || parts[3] !== "blob") return url;
  return `https://raw.githubusercontent.com${[...parts.slice(0, 3), ...parts.slice(4)].join("/")}`;
}

interface UrlParts {
  scheme: string;
  netloc: string;
  path: string;
  query: string;
  fragment: string;
}

// Python's urlsplit, for the parts these rules read.
function splitUrl(url: string): UrlParts {
  let rest = url;
  let fragment = "";
  let query = "";
  const hash = rest.indexOf("#");
  if (hash >= 0) [rest, fragment] = [rest.slice(0, hash), rest.slice(hash + 1)];
  const question = rest.indexOf("?");
  if (question >= 0) [rest, query] = [rest.slice(0, question), rest.slice(question + 1)];
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(rest);
  if (scheme) rest = rest.slice(scheme[0].length);
  let netloc = "";
  if (rest.startsWith("//")) {
    const slash = rest.indexOf("/", 2);
    netloc = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
    rest = slash < 0 ? "" : rest.slice(slash);
  }
  return { scheme: (scheme?.[1] ?? "").toLowerCase(), netloc, path: rest, query, fragment };
}

function joinUrl(p: UrlParts): string {
  return `${p.scheme ? `${p.scheme}:` : ""}${p.netloc ? `//${p.netloc}` : ""}${p.path}${p.query ? `?${p.query}` : ""}${p.fragment ? `#${p.fragment}` : ""}`;
}

// ---- Where a preview goes ----------------------------------------------------------------------

interface FoundLink {
  a: Node;
  parent: Node;
  grandparent: Node | undefined;
  inQuote: boolean;
  url: string;
  rawHref: string;
  text: string | undefined;
}

// Every link, breadth first as Zulip walks the tree, with its parent and grandparent.
function anchorsBreadthFirst(root: Node): FoundLink[] {
  const found: FoundLink[] = [];
  const queue: { node: Node; parent: Node | undefined; inQuote: boolean }[] = [{ node: root, parent: undefined, inQuote: false }];
  for (let i = 0; i < queue.length; i++) {
    const { node, parent, inQuote } = queue[i] as (typeof queue)[number];
    const quoted = inQuote || node.tag === "blockquote";
    for (const child of node.children) {
      queue.push({ node: child, parent: node, inQuote: quoted });
      if (child.tag !== "a") continue;
      const rawHref = hrefOf(child);
      if (rawHref === undefined) continue;
      const text = child.text === "" ? undefined : unescape(child.text);
      found.push({ a: child, parent: node, grandparent: parent, inQuote: quoted, url: unescape(rawHref), rawHref, text });
    }
  }
  return found;
}

interface Inlining {
  parent: Node;
  index: number | undefined;
  title: string | undefined;
  remove: Node | undefined;
}

// Zulip's get_inlining_information: in a list item the preview ends the item; after a paragraph
// it follows the paragraph (and the previews already after it); anywhere else it ends the message.
// A paragraph or item that is nothing but the bare link gives way to the preview.
function inliningInformation(root: Node, link: FoundLink, url: string, text: string | undefined): Inlining {
  const sameAsText = text === undefined || url === text;
  const info: Inlining = { parent: root, index: undefined, title: sameAsText ? undefined : text, remove: undefined };
  const { parent, grandparent, a } = link;
  if (parent.tag === "li") {
    info.parent = parent;
    if (parent.text === "" && a.tail === "" && sameAsText) info.remove = a;
  } else if (parent.tag === "p" && grandparent) {
    info.parent = grandparent;
    if (parent.children.length === 1 && (parent.text === "" || parent.text === "\n") && a.tail === "" && sameAsText) info.remove = parent;
    const at = grandparent.children.indexOf(parent);
    if (at >= 0) info.index = insertionIndex(grandparent, parent, at);
  }
  return info;
}

// find_proper_insertion_index: after the paragraph and the previews of its own links already there.
function insertionIndex(grandparent: Node, parent: Node, at: number): number {
  const links = new Set(allLinks(parent));
  for (let index = at + 1; ; index++) {
    const uncle = grandparent.children[index];
    if (!uncle || uncle.tag !== "div") return index;
    const classes = /\sclass="([^"]*)"/.exec(uncle.open)?.[1]?.split(/\s+/) ?? [];
    if (!classes.some((c) => PREVIEW_CLASSES.has(c))) return index;
    const first = uncle.children.find((c) => c.tag === "a");
    const href = first ? hrefOf(first) : undefined;
    if (href === undefined || !links.has(unescape(href))) return index;
  }
}

function allLinks(node: Node): string[] {
  const out: string[] = [];
  for (const child of node.children) {
    if (child.tag === "a") {
      const href = hrefOf(child);
      if (href !== undefined) out.push(unescape(href));
    }
    out.push(...allLinks(child));
  }
  return out;
}

function hrefOf(a: Node): string | undefined {
  return /\shref="([^"]*)"/.exec(a.open)?.[1];
}

// ---- Rendered HTML as a tree and back ----------------------------------------------------------

// The renderer's own output is well formed; anything that is not gives no previews rather than a guess.
function parse(html: string): Node | undefined {
  const root: Node = { tag: "", open: "", text: "", tail: "", children: [] };
  const stack: Node[] = [root];
  let from = 0;
  const addText = (text: string): void => {
    if (text === "") return;
    const top = stack[stack.length - 1] as Node;
    const last = top.children[top.children.length - 1];
    if (last) last.tail += text;
    else top.text += text;
  };
  for (const m of html.matchAll(TAG)) {
    addText(html.slice(from, m.index));
    from = m.index + m[0].length;
    const tag = (m[2] ?? "").toLowerCase();
    if (m[1] === "/") {
      const top = stack.pop();
      if (!top || top.tag !== tag || stack.length === 0) return undefined;
      continue;
    }
    const node: Node = { tag, open: m[0], text: "", tail: "", children: [] };
    (stack[stack.length - 1] as Node).children.push(node);
    if (!VOID.has(tag) && !m[0].endsWith("/>")) stack.push(node);
  }
  addText(html.slice(from));
  return stack.length === 1 ? root : undefined;
}

function serialize(node: Node): string {
  let out = node.open + node.text;
  for (const child of node.children) out += serialize(child) + child.tail;
  if (node.tag !== "" && !VOID.has(node.tag) && !node.open.endsWith("/>")) out += `</${node.tag}>`;
  return out;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function unescape(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&#10;/g, "\n").replace(/&amp;/g, "&");
}
