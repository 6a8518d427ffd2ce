/** Line-level passes run before block parsing, mirroring Zulip's preprocessors. */
import { maxFenceDepth, parseFence } from "./fences.js";

/** Line endings, tabs and blank lines normalised; placeholder characters removed. */
export function normalizeSource(content: string): string[] {
  // eslint-disable-next-line no-control-regex
  const clean = content.replace(/\r\n?/g, "\n").replace(/[\u0000-\u0003]/g, "");
  return clean.split("\n").map((line) => {
    const expanded = line.includes("\t") ? expandTabs(line) : line;
    return /^[ ]+$/.test(expanded) ? "" : expanded;
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

/**
 * A block of nothing but `>` markers is no quote for Zulip, just text; the
 * markers are broken so CommonMark does not read an empty quote either.
 */
export function keepBareQuoteMarkers(lines: string[]): string[] {
  const bare = /^ {0,3}>\s*$/;
  let start = 0;
  for (let i = 0; i <= lines.length; i++) {
    const line = lines[i];
    if (line !== undefined && line !== "") continue;
    const block = lines.slice(start, i);
    if (block.length > 0 && block.every((l) => bare.test(l))) {
      for (let k = start; k < i; k++) lines[k] = markerBreaker + (lines[k] ?? "");
    }
    start = i + 1;
  }
  return lines;
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
        const isCode = !["quote", "quoted"].includes(fence.lang.toLowerCase());
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

const itemRe = /^( *)([*+-]|\d{1,9}[.)])( +|$)/;
/** Inserted to stop CommonMark reading "1)" as a list marker; removed again on output. */
export const markerBreaker = "\u0001";
const ruleRe = /^ {0,3}([-*_])(?:[ ]*\1){2,}[ ]*$/;
// Deeper lists are flattened to this depth: nobody needs more, and parsing cost grows with depth.
const maxListDepth = 15;

/** Lines ready for the block parser, and the real numbers of renumbered items. */
export interface ListLines {
  lines: string[];
  /** Line index → the number an ordered list really starts with. */
  starts: Map<number, number>;
}

/**
 * Adapts Zulip's list rules to CommonMark's block parser: items indented two
 * spaces nest (moved under the parent's text), all bullet characters belong to
 * one list, and a nested ordered list may start at any number (its first
 * marker becomes 1 so it can interrupt the parent's text; `starts` restores it).
 */
export function adaptLists(input: readonly string[]): ListLines {
  const stack: { marker: number; content: number }[] = [];
  const starts = new Map<number, number>();
  let previousBlank = true;
  const lines = input.map((line, index) => {
    const wasBlank = previousBlank;
    previousBlank = line === "";
    if (line === "") return line;
    const indent = line.length - line.trimStart().length;
    // Zulip's headings start in the first column and need text after the hashes.
    if (stack.length === 0 && /^(?: {1,3}#{1,6}(?:\s|$)|#{1,6}$)/.test(line)) {
      return line.slice(0, indent + 1) + markerBreaker + line.slice(indent + 1);
    }
    const m = ruleRe.test(line) ? null : itemRe.exec(line);
    if (m && m[2]?.endsWith(")")) {
      // Zulip only knows "1." lists; "1)" is ordinary text.
      const digits = m[2].slice(0, -1);
      return line.slice(0, indent) + digits + markerBreaker + line.slice(indent + digits.length);
    }
    if (!m || (stack.length === 0 && indent > 3)) {
      if (wasBlank && indent === 0) stack.length = 0;
      return line;
    }
    while (stack.length > 0 && (stack[stack.length - 1]?.marker ?? 0) >= indent) stack.pop();
    const parent = stack[stack.length - 1];
    let shift = 0;
    if (parent !== undefined && indent >= parent.marker + 2 && indent < parent.content) shift = parent.content - indent;
    if (stack.length >= maxListDepth && parent !== undefined) {
      // Too deep: make it a sibling of the deepest allowed item instead.
      stack.pop();
      shift = parent.marker - indent;
    }
    const marker = m[2] ?? "*";
    stack.push({ marker: indent + shift, content: indent + shift + marker.length + Math.max(1, (m[3] ?? " ").length) });
    const rest = line.slice(indent + marker.length);
    let newMarker = /^[+-]$/.test(marker) ? "*" : marker;
    if (/^\d/.test(marker) && parent !== undefined && !wasBlank && !/^1[.)]$/.test(marker)) {
      starts.set(index, Number(marker.slice(0, -1)));
      newMarker = "1" + marker.slice(-1);
    }
    return " ".repeat(indent + shift) + newMarker + rest;
  });
  return { lines, starts };
}
