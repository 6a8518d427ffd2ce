/** The inline tree built by the pattern passes, and its serialisation. */
import { escapeAttr, escapeText } from "../escape.js";

/** A piece of inline output. `children` is text that may still hold placeholders. */
export type InlineNode =
  | { kind: "raw"; html: string } // trusted markup built by a pattern (already escaped)
  | { kind: "text"; text: string } // literal text, escaped on output, never re-scanned
  | { kind: "element"; tag: string; attrs: [string, string][]; children: string };

/** Opens a placeholder; user text can never contain it (the renderer strips it first). */
export const placeholderOpen = "\u0002";
/** Closes a placeholder. */
export const placeholderClose = "\u0003";
// eslint-disable-next-line no-control-regex -- placeholders are control characters on purpose
const placeholderRe = /\u0002(\d+)\u0003/g;

/** Per-render store of nodes referred to by placeholders. */
export class NodeStash {
  private readonly nodes: InlineNode[] = [];

  /** Stores a node and returns the placeholder that stands for it. */
  put(node: InlineNode): string {
    this.nodes.push(node);
    return placeholderOpen + String(this.nodes.length - 1) + placeholderClose;
  }

  /** Serialises text holding placeholders into HTML. */
  toHtml(text: string): string {
    let out = "";
    let last = 0;
    for (const m of text.matchAll(placeholderRe)) {
      const index = m.index ?? 0;
      out += escapeText(text.slice(last, index));
      const node = this.nodes[Number(m[1])];
      out += node === undefined ? "" : this.nodeHtml(node);
      last = index + m[0].length;
    }
    return out + escapeText(text.slice(last));
  }

  /** The text content of placeholder-bearing text, for alt texts and link checks. */
  toPlain(text: string): string {
    return text.replace(placeholderRe, (_m, i: string) => {
      const node = this.nodes[Number(i)];
      if (node === undefined) return "";
      if (node.kind === "text") return node.text;
      if (node.kind === "element") return this.toPlain(node.children);
      return node.html.replace(/<[^>]*>/g, "");
    });
  }

  private nodeHtml(node: InlineNode): string {
    if (node.kind === "raw") return node.html;
    if (node.kind === "text") return escapeText(node.text);
    // Zulip's serializer writes attributes in alphabetical order.
    const attrs = [...node.attrs]
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([k, v]) => ` ${k}="${escapeAttr(v)}"`).join("");
    if (node.tag === "img") return `<img${attrs}>`;
    return `<${node.tag}${attrs}>${this.toHtml(node.children)}</${node.tag}>`;
  }
}
