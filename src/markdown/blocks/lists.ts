/**
 * Lists as Zulip parses them: Python-Markdown's "sane lists" with a two-space
 * indent. An item starts at column 0 or 1; an item indented by two or three
 * spaces nests under the previous item; deeper-indented lines are just more
 * text of the item. A blank line before an item makes it (and the item before
 * it) loose, with its text in a <p>.
 */
import type { BlockParser, BlockProcessor } from "./parser.js";
import { dedentLines, element, lastChild, type BlockElement } from "./tree.js";

const indent = "  ";
const listTags = new Set(["ul", "ol"]);
const nestedItem = /^ {2,3}(?:\d+\.|[*+-]) +/;

interface ListKind {
  tag: "ul" | "ol";
  /** A line that starts an item of this list: [, marker, text]. */
  item: RegExp;
}

const ordered: ListKind = { tag: "ol", item: /^ ?(\d+\.) +([^\n]*)/ };
const unordered: ListKind = { tag: "ul", item: /^ ?([*+-]) +([^\n]*)/ };

// Splits a block into item texts; indented items stay raw, to be parsed under the previous item.
function splitItems(kind: ListKind, block: string): { items: string[]; start: string } {
  const items: string[] = [];
  let start = "1";
  for (const line of block.split("\n")) {
    const m = kind.item.exec(line);
    const last = items.length - 1;
    if (m) {
      if (items.length === 0) start = (m[1] ?? "1").replace(/\.$/, "");
      items.push(m[2] ?? "");
    } else if (last >= 0 && nestedItem.test(line) && !(items[last] ?? "").startsWith(indent)) {
      items.push(line);
    } else if (last >= 0) {
      items[last] = `${items[last] ?? ""}\n${line}`;
    } else {
      items.push(line);
    }
  }
  return { items, start };
}

function listProcessor(kind: ListKind): BlockProcessor {
  return {
    test: (parser, _parent, block) => parser.canNest() && kind.item.test(block),
    run(parser, parent, queue) {
      const { items, start } = splitItems(kind, queue.pop() ?? "");
      const sibling = lastChild(parent);
      let list: BlockElement;
      if (sibling?.tag === kind.tag) {
        // A list continued after a blank line: the previous item becomes loose too.
        list = sibling;
        const previous = lastChild(list);
        if (previous) loosen(previous);
        const item = element("li", list);
        const first = items.shift() ?? "";
        parser.withState("looselist", () => parser.parseBlocks(item, [first]));
      } else if (listTags.has(parent.tag)) {
        list = parent;
      } else {
        list = element(kind.tag, parent);
        if (kind.tag === "ol" && start !== "1") list.attrs.push(["start", start]);
      }
      parser.withState("list", () => {
        for (const text of items) {
          const previous = lastChild(list);
          if (text.startsWith(indent) && previous) parser.parseBlocks(previous, [text]);
          else parser.parseBlocks(element("li", list), [text]);
        }
      });
    },
  };
}

// Moves an item's own text into a paragraph before its children.
function textToParagraph(item: BlockElement): void {
  if (item.text === "") return;
  item.children.unshift(element("p", undefined, item.text));
  item.text = "";
}

// Moves an item's bare text (and text trailing its last child) into paragraphs.
function loosen(item: BlockElement): void {
  textToParagraph(item);
  const last = lastChild(item);
  if (last && last.tail !== "") {
    element("p", item, last.tail.trimStart());
    last.tail = "";
  }
}

/** `1.` items; the list keeps the first item's number. */
export const orderedListProcessor = listProcessor(ordered);
/** `*`, `-` and `+` items, all one list. */
export const unorderedListProcessor = listProcessor(unordered);

// How deep an indented block belongs, and the element it belongs to.
function indentLevel(parser: BlockParser, parent: BlockElement, block: string): { level: number; target: BlockElement } {
  const wanted = Math.floor((/^ */.exec(block)?.[0].length ?? 0) / indent.length);
  let level = parser.state() === "list" ? 1 : 0;
  let target = parent;
  while (wanted > level) {
    const child = lastChild(target);
    if (child === undefined || (!listTags.has(child.tag) && child.tag !== "li")) break;
    if (listTags.has(child.tag)) level++;
    target = child;
  }
  return { level, target };
}

/** A block indented by two spaces after a list continues the list's last item (or nests deeper). */
export const listIndentProcessor: BlockProcessor = {
  test(parser, parent, block) {
    if (!block.startsWith(indent) || parser.state() === "detabbed" || !parser.canNest()) return false;
    const last = lastChild(parent);
    return parent.tag === "li" || (last !== undefined && listTags.has(last.tag));
  },
  run(parser, parent, queue) {
    const raw = queue.pop() ?? "";
    const { level, target } = indentLevel(parser, parent, raw);
    const block = dedentLines(raw, indent.repeat(level));
    parser.withState("detabbed", () => {
      const last = lastChild(parent);
      if (parent.tag === "li") {
        parser.parseBlocks(last && listTags.has(last.tag) ? last : parent, [block]);
      } else if (target.tag === "li") {
        parser.parseBlocks(target, [block]);
      } else {
        const item = lastChild(target);
        if (item?.tag === "li") {
          textToParagraph(item);
          parser.parseChunk(item, block);
        } else {
          parser.parseBlocks(element("li", target), [block]);
        }
      }
    });
  },
};
