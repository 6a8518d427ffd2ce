/**
 * The block tree, in the shape Python-Markdown builds it: an element has text
 * before its first child and a tail after itself, so loose text that follows
 * a nested list inside an item stays where Zulip puts it.
 */

/** One element of the block tree. */
export interface BlockElement {
  tag: string;
  attrs: [string, string][];
  /** Text before the first child ("" for none). */
  text: string;
  /** Text after the element's closing tag, inside its parent ("" for none). */
  tail: string;
  children: BlockElement[];
}

/** A new element, appended to `parent` when given. */
export function element(tag: string, parent?: BlockElement, text = ""): BlockElement {
  const el: BlockElement = { tag, attrs: [], text, tail: "", children: [] };
  parent?.children.push(el);
  return el;
}

/** The element's last child, if any. */
export function lastChild(el: BlockElement): BlockElement | undefined {
  return el.children[el.children.length - 1];
}

/** The `code` element of an indented code block (`pre` holding `code`), if `el` is one. */
export function codeOf(el: BlockElement | undefined): BlockElement | undefined {
  const code = el?.tag === "pre" ? el.children[0] : undefined;
  return code?.tag === "code" ? code : undefined;
}

/** Python's str.strip(): the tests Zulip's parser makes on "blank" text. */
export function isBlank(text: string): boolean {
  return text.trim() === "";
}

/** Removes `prefix` from the start of each line that has it. */
export function dedentLines(text: string, prefix: string): string {
  return text
    .split("\n")
    .map((line) => (line.startsWith(prefix) ? line.slice(prefix.length) : line))
    .join("\n");
}
