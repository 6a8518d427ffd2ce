/** Serialises markdown-it's block tokens the way Zulip's HTML looks. */
import type { Token } from "markdown-it";

/** Turns one inline token's raw text into HTML. */
export type InlineRenderer = (text: string, inBlockquote: boolean) => string;

/** Paragraphs that link uploads, set aside so image previews can follow them (see previews.ts). */
export interface PreviewSlots {
  /** Each slot's paragraph HTML and whether it was a tight list item's text (no <p>). */
  paragraphs: { html: string; bare: boolean }[];
}

interface Walk {
  slots?: PreviewSlots;
  tokens: Token[];
  pos: number;
  blocks: readonly string[];
  inline: InlineRenderer;
  quoteDepth: number;
  codeBlock: (code: string) => string;
}

function openTag(token: Token): string {
  if (token.type === "ordered_list_open") {
    const start = token.attrGet("start");
    return start !== null && start !== "1" ? `<ol start="${start}">` : "<ol>";
  }
  const style = token.attrGet("style");
  if (style !== null) {
    // Python-Markdown writes table alignment as "text-align: left;".
    const align = /text-align:\s*(\w+)/.exec(String(style))?.[1] ?? "";
    return `<${token.tag} style="text-align: ${align};">`;
  }
  return `<${token.tag}>`;
}

// Renders blocks until the closing token at `level`, returning each block's HTML.
function blocksUntil(w: Walk, closeType: string | null): string[] {
  const out: string[] = [];
  while (w.pos < w.tokens.length) {
    const token = w.tokens[w.pos];
    if (token === undefined) break;
    if (token.type === closeType) {
      w.pos++;
      return out;
    }
    out.push(block(w, token));
  }
  return out;
}

function leafContent(w: Walk): string {
  const inlineToken = w.tokens[w.pos];
  const html = inlineToken?.type === "inline" ? w.inline(inlineToken.content, w.quoteDepth > 0) : "";
  w.pos += 2; // the inline token and the closing tag
  return html;
}

function block(w: Walk, token: Token): string {
  w.pos++;
  switch (token.type) {
    case "zulip_block":
      return w.blocks[Number(token.content)] ?? "";
    case "code_block":
      return w.codeBlock(token.content);
    case "hr":
      return "<hr>";
    case "paragraph_open": {
      const html = token.hidden ? leafContent(w) : `${openTag(token)}${leafContent(w)}</${token.tag}>`;
      if (!w.slots || w.quoteDepth > 0 || !html.includes('href="/user_uploads/')) return html;
      return previewSlot(w.slots.paragraphs.push({ html, bare: token.hidden }) - 1);
    }
    case "heading_open":
    case "th_open":
    case "td_open": {
      if (token.hidden) return leafContent(w);
      return `${openTag(token)}${leafContent(w)}</${token.tag}>`;
    }
    case "list_item_open":
      return listItem(w);
    case "blockquote_open": {
      w.quoteDepth++;
      const inner = blocksUntil(w, "blockquote_close");
      w.quoteDepth--;
      return container("<blockquote>", inner, "</blockquote>");
    }
    default: {
      if (token.nesting !== 1) return "";
      const closeType = token.type.replace(/_open$/, "_close");
      return container(openTag(token), blocksUntil(w, closeType), `</${token.tag}>`);
    }
  }
}

function container(open: string, inner: string[], close: string): string {
  const body = inner.filter((b) => b !== "");
  return body.length === 0 ? `${open}\n${close}` : `${open}\n${body.join("\n")}\n${close}`;
}

// A tight item's text runs straight into a nested list, as Python-Markdown prints it.
function listItem(w: Walk): string {
  const first = w.tokens[w.pos];
  const tight = first?.type === "paragraph_open" && first.hidden;
  const inner = blocksUntil(w, "list_item_close").filter((b) => b !== "");
  if (!tight) return container("<li>", inner, "</li>");
  const [text, ...rest] = inner;
  return `<li>${text ?? ""}${rest.map((b) => b + "\n").join("")}</li>`;
}

/** The marker standing for a set-aside paragraph until previews are decided. */
export function previewSlot(index: number): string {
  return `\u0002${index}\u0002`;
}

/** Renders the whole token stream; `blocks` holds the stashed block HTML. */
export function renderTokens(tokens: Token[], blocks: readonly string[], inline: InlineRenderer, codeBlock: (code: string) => string, slots?: PreviewSlots): string {
  const w: Walk = { tokens, pos: 0, blocks, inline, quoteDepth: 0, codeBlock, slots };
  return blocksUntil(w, null).filter((b) => b !== "").join("\n");
}
