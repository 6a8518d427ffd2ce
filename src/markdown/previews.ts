/** Image previews after paragraphs that link uploaded images, as Zulip 9.0 writes them. */
import type { RenderContext, UploadPreview } from "./context.js";
import { escapeAttr } from "./escape.js";
import type { PreviewSlots } from "./render.js";

/** Zulip's INLINE_PREVIEW_LIMIT_PER_MESSAGE: a message with more links gets no previews at all. */
export const INLINE_PREVIEW_LIMIT_PER_MESSAGE = 24;
/** The spinner a preview shows until its thumbnail exists. */
export const LOADING_PLACEHOLDER_SRC = "/static/images/loading/loader-black.svg";

const UPLOAD_ANCHOR = /<a href="(\/user_uploads\/[^"]*)"(?: title="[^"]*")?>([\s\S]*?)<\/a>/g;
// eslint-disable-next-line no-control-regex
const SLOT = /\u0002(\d+)\u0002/g;

/**
 * Puts the set-aside paragraphs back, each followed by a preview for every uploaded image it
 * links (the first time the message links it). A paragraph that is nothing but a bare link to
 * the image gives way to the preview. Returns the HTML and whether any preview was added.
 */
export function fillPreviewSlots(html: string, slots: PreviewSlots, ctx: RenderContext, uniqueLinks: number): { html: string; previews: number } {
  if (slots.paragraphs.length === 0) return { html, previews: 0 };
  const enabled = ctx.uploadPreview !== undefined && uniqueLinks <= INLINE_PREVIEW_LIMIT_PER_MESSAGE;
  const seen = new Set<string>();
  let previews = 0;
  const out = html.replace(SLOT, (_m, index: string) => {
    const slot = slots.paragraphs[Number(index)];
    if (!slot) return "";
    if (!enabled) return slot.html;
    const divs: string[] = [];
    let onlyLink = false;
    for (const anchor of slot.html.matchAll(UPLOAD_ANCHOR)) {
      const href = anchor[1] ?? "";
      if (seen.has(href)) continue;
      seen.add(href);
      const preview = lookUp(ctx, href);
      if (!preview) continue;
      const text = plainText(anchor[2] ?? "");
      const sameAsUrl = text !== undefined && unescape(href) === text;
      divs.push(previewHtml(href, sameAsUrl ? undefined : text, preview));
      onlyLink ||= sameAsUrl && (slot.html === anchor[0] || slot.html === `<p>${anchor[0]}</p>`);
    }
    previews += divs.length;
    if (slot.bare) return (onlyLink ? "" : slot.html) + divs.join("");
    return [...(onlyLink ? [] : [slot.html]), ...divs].join("\n");
  });
  return { html: out, previews };
}

function lookUp(ctx: RenderContext, href: string): UploadPreview | undefined {
  const pathId = unescape(href).slice("/user_uploads/".length);
  return ctx.uploadPreview?.(pathId);
}

/** The `message_inline_image` block for one uploaded image. */
export function previewHtml(href: string, title: string | undefined, preview: UploadPreview): string {
  const titleAttr = title === undefined ? "" : ` title="${escapeAttr(title)}"`;
  return `<div class="message_inline_image"><a href="${href}"${titleAttr}>${imageTag(preview)}</a></div>`;
}

/** The preview's img: the spinner before the thumbnail exists, the thumbnail after (attributes in Zulip's sorted order). */
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

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function plainText(labelHtml: string): string | undefined {
  return labelHtml.includes("<") ? undefined : unescape(labelHtml);
}

function unescape(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&#10;/g, "\n").replace(/&amp;/g, "&");
}
