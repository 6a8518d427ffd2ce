/**
 * Python-Markdown decides per item, not per list, whether an item's text sits
 * in a <p>: an item is "loose" when a blank line separates it from the item
 * before or after it (or splits its own content). CommonMark makes the whole
 * list loose instead; this pass restores Zulip's per-item result.
 */
import type { Token } from "markdown-it";

const blankLine = /^[\s>]*$/;

function isBlank(lines: readonly string[], index: number): boolean {
  const line = lines[index];
  return line !== undefined && blankLine.test(line);
}

// Whether a blank line separates two content lines inside [from, to).
function hasInnerBlank(lines: readonly string[], from: number, to: number): boolean {
  let sawBlank = false;
  for (let i = from; i < to; i++) {
    if (isBlank(lines, i)) sawBlank = true;
    else if (sawBlank) return true;
  }
  return false;
}

/** Marks each list item's own paragraphs hidden (tight) or shown (loose) the way Zulip renders them. */
export function applyItemLooseness(tokens: Token[], lines: readonly string[]): void {
  for (let i = 0; i < tokens.length; i++) {
    const open = tokens[i];
    if (open === undefined || (open.type !== "bullet_list_open" && open.type !== "ordered_list_open")) continue;
    const items: number[] = [];
    let end = i + 1;
    for (; end < tokens.length; end++) {
      const t = tokens[end];
      if (t === undefined || (t.level === open.level && t.nesting === -1)) break;
      if (t.type === "list_item_open" && t.level === open.level + 1) items.push(end);
    }
    const starts = items.map((k) => tokens[k]?.map?.[0] ?? 0);
    const ends = items.map((k, n) => starts[n + 1] ?? tokens[k]?.map?.[1] ?? 0);
    const gapAfter = starts.map((_s, n) => n + 1 < starts.length && isBlank(lines, (starts[n + 1] ?? 0) - 1));
    items.forEach((k, n) => {
      const loose =
        gapAfter[n] === true || (n > 0 && gapAfter[n - 1] === true) || hasInnerBlank(lines, starts[n] ?? 0, ends[n] ?? 0);
      const item = tokens[k];
      if (item === undefined) return;
      for (let j = k + 1; j < tokens.length; j++) {
        const t = tokens[j];
        if (t === undefined || (t.type === "list_item_close" && t.level === item.level)) break;
        if ((t.type === "paragraph_open" || t.type === "paragraph_close") && t.level === item.level + 1) t.hidden = !loose;
      }
    });
  }
}
