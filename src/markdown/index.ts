/** Zulip-flavoured Markdown: message content to the HTML Zulip's clients expect. */
import { parseBlockTree } from "./blocks/parser.js";
import { renderCodeBlock } from "./codeblock.js";
import { newCollector, type Collector } from "./collector.js";
import type { RenderContext } from "./context.js";
import { escapeAttr, escapeCode } from "./escape.js";
import { processFences } from "./fences.js";
import { renderInline } from "./inline/engine.js";
import { inlinePatternsWith } from "./inline/patterns.js";
import { normalizeSource, separateHangingLists } from "./preprocess.js";
import { addImagePreviews } from "./previews.js";
import { blockLine, renderTree, restoreStashed } from "./render.js";
import { renderTex } from "./tex.js";

export { emptyRenderContext } from "./context.js";
export type { LinkifierMatch, MentionUser, RenderContext, RenderLinkifier } from "./context.js";

/** What rendering produced, and what it found along the way. */
export interface RenderResult {
  html: string;
  mentionedUserIds: Set<number>; // direct (non-silent) user mentions
  mentionedGroupIds: Set<number>;
  streamWildcard: boolean; // @**all**/@**everyone**/@**channel**/@**stream**
  topicWildcard: boolean; // @**topic**
  links: string[];
  /** The external images the previews show through /thumbnail (its `url` parameter). */
  externalImages: string[];
  hasImage: boolean;
  hasLink: boolean;
  hasAttachment: boolean;
  isMeMessage: boolean;
  /** The linkifiers took longer than their budget, so this render was made without them. */
  linkifiersSkipped: boolean;
}

/**
 * Renders message content. Pure and synchronous: names resolve through `ctx` only. A render whose
 * linkifiers run past their time budget is made again without them.
 */
export function renderMarkdown(content: string, ctx: RenderContext): RenderResult {
  const result = renderOnce(content, ctx);
  if (!result.linkifiersSkipped) return result;
  return { ...renderOnce(content, { ...ctx, linkifiers: [] }), linkifiersSkipped: true };
}

function renderOnce(content: string, ctx: RenderContext): RenderResult {
  const found = newCollector();
  const stashed: string[] = [];
  const rendered = renderSimple(content, ctx, found) ?? renderBlocks(content, ctx, found, stashed);
  const { html: withPreviews, previews, externalImages } = addImagePreviews(rendered, ctx);
  // Python-Markdown strips its output once the tree is final (previews follow a paragraph's newline).
  const html = restoreStashed(withPreviews, stashed).trim();
  const realm = ctx.realmUrl.replace(/\/+$/, "");
  // Patterns run by priority, not position; report links in reading order.
  const position = new Map(found.links.map((href) => [href, html.indexOf(`href="${escapeAttr(href)}"`)]));
  found.links.sort((a, b) => (position.get(a) ?? 0) - (position.get(b) ?? 0));
  return {
    html,
    mentionedUserIds: found.mentionedUserIds,
    mentionedGroupIds: found.mentionedGroupIds,
    streamWildcard: found.streamWildcard,
    topicWildcard: found.topicWildcard,
    links: found.links,
    externalImages,
    hasImage: found.hasImage || previews > 0,
    hasLink: found.links.length > 0,
    hasAttachment: found.links.some((l) => /^(?:\/?user_uploads\/)/.test(l) || l.startsWith(`${realm}/user_uploads/`)),
    isMeMessage: content.startsWith("/me "),
    linkifiersSkipped: found.linkifiersOverBudget,
  };
}

// Display math: each blank-line-separated paragraph is its own formula.
function renderMathBlock(text: string): string {
  const parts = text.split("\n\n").map((tex) => {
    const html = renderTex(tex, true);
    return html ?? `<span class="tex-error">${escapeCode(tex).replace(/"/g, "&quot;").replace(/'/g, "&#x27;")}</span>`;
  });
  return `<p>${parts.join("\n\n")}</p>`;
}

// Most chat messages are one line of text; those skip the block parser. A line
// starting with a letter, "@" or ":" cannot open any block construct, so the
// result is the same paragraph the full path would build.
function renderSimple(content: string, ctx: RenderContext, found: Collector): string | null {
  if (/[\n\r]/.test(content) || !/^[\p{L}@:]/u.test(content)) return null;
  const [line = ""] = normalizeSource([content]);
  return `<p>${renderInline(line, inlinePatternsWith(ctx.linkifiers), ctx, found, false)}</p>\n`;
}

// The full path: line passes (hanging lists, fences), block parsing, then serialisation.
// Stashed blocks (code, math, spoiler edges) go to `blocks` and stay markers in the result.
function renderBlocks(content: string, ctx: RenderContext, found: Collector, blocks: string[]): string {
  if (content.trim() === "") return "";
  const stash = (html: string): string => blockLine(blocks.push(html) - 1);
  const lines = processFences(normalizeSource(separateHangingLists(content.split("\n"))), {
    code: renderCodeBlock,
    math: renderMathBlock,
    stash,
  });
  const patterns = inlinePatternsWith(ctx.linkifiers);
  return renderTree(parseBlockTree(lines), {
    inline: (text, inBlockquote) => renderInline(text, patterns, ctx, found, inBlockquote),
    codeBlock: (code) => renderCodeBlock("", code),
  });
}
