/** Line-level passes run before block parsing, mirroring Zulip's preprocessors. */
import { maxFenceDepth, parseFence } from "./fences.js";

/**
 * Line endings, tabs and blank lines normalised; placeholder characters
 * removed; two blank lines added at the end, as Python-Markdown does, so the
 * last block never ends in a newline. Runs after the hanging-list pass, as in
 * Zulip (which sees lines of spaces as text).
 */
export function normalizeSource(lines: readonly string[]): string[] {
  // eslint-disable-next-line no-control-regex
  const clean = lines.join("\n").replace(/\r\n?/g, "\n").replace(/[\u0000-\u0003]/g, "") + "\n\n";
  // Python-Markdown empties lines of spaces, except the first (its pattern needs a newline before).
  return clean.split("\n").map((line, index) => {
    const expanded = line.includes("\t") ? expandTabs(line) : line;
    return index > 0 && /^[ ]+$/.test(expanded) ? "" : expanded;
  });
}

function expandTabs(line: string): string {
  let out = "";
  for (const ch of line) {
    if (ch === "\t") out += " ".repeat(4 - (out.length % 4));
    else out += ch;
  }
  return out;
}

const listItemRe = /^[ ]*([*+-]|\d\.)[ ]+/;

/**
 * Zulip lets a list hang directly off a paragraph, and splits lists whose
 * bullet type changes: a blank line is inserted before such an item.
 */
export function separateHangingLists(lines: readonly string[]): string[] {
  const out: string[] = [];
  const open: { fence: string; isCode: boolean }[] = [];
  let codeFences = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    out.push(line);
    const fence = line.startsWith("```") || line.startsWith("~~~") ? parseFence(line) : null;
    if (fence) {
      const last = open[open.length - 1];
      if (fence.lang === "" && last !== undefined && last.fence === fence.fence) {
        open.pop();
        if (last.isCode) codeFences--;
      } else if (open.length < maxFenceDepth) {
        // Case matters here (Zulip compares the language as typed), unlike in the fence pass itself.
        const isCode = !["quote", "quoted"].includes(fence.lang);
        open.push({ fence: fence.fence, isCode });
        if (isCode) codeFences++;
      }
    }
    const inCode = codeFences > 0;
    const next = lines[i + 1];
    if (next === undefined || inCode || line === "") continue;
    const li1 = listItemRe.exec(line);
    const li2 = listItemRe.exec(next);
    if (li2 && (!li1 || ((li1[1] ?? "").length === 1) !== ((li2[1] ?? "").length === 1))) out.push("");
  }
  return out;
}
