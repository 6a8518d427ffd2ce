/**
 * Writes a parsed RE2 pattern as JavaScript RegExp source (u flag) that matches what RE2 matches:
 * every character is spelled as a code point, ^ $ \b and . as the look-arounds RE2 means by them,
 * and RE2's scoped flags (JavaScript only has whole-pattern ones) are applied node by node. Case
 * folding that covers the whole pattern becomes the i flag; folding in part of it is spelled out
 * as the characters' simple case variants.
 */
import type { ClassItem, Re2Node } from "./parse.js";
import type { Range } from "./tables.js";

/** JavaScript source for a pattern, and whether it needs the i flag. */
export interface JsPattern {
  source: string;
  ignoreCase: boolean;
}

type FoldMode = "none" | "global" | "spelled";

const ANY = "[\\u{0}-\\u{10FFFF}]";
const WORD = "[0-9A-Za-z_]";
const MAX_RUNE = 0x10ffff;
/** Ranges longer than this keep their bounds under partial folding (their variants are not listed). */
const MAX_SPELLED_RANGE = 4096;

/** The JavaScript form of a parsed pattern. */
export function toJs(node: Re2Node): JsPattern {
  const folds = new Set<boolean>();
  collectFolds(node, folds);
  const mode: FoldMode = !folds.has(true) ? "none" : folds.has(false) ? "spelled" : "global";
  return { source: emit(node, mode), ignoreCase: mode === "global" };
}

/** The folding flag of every literal and class whose meaning it can change. */
function collectFolds(node: Re2Node, out: Set<boolean>): void {
  if (node.t === "lit") {
    if (caseVariants(node.cp).length > 1) out.add(node.fold);
  } else if (node.t === "class") {
    out.add(node.fold);
  } else if (node.t === "group" || node.t === "repeat") {
    collectFolds(node.body, out);
  } else if (node.t === "concat" || node.t === "alt") {
    for (const item of node.items) collectFolds(item, out);
  }
}

function emit(node: Re2Node, mode: FoldMode): string {
  switch (node.t) {
    case "lit": {
      const variants = mode === "spelled" && node.fold ? caseVariants(node.cp) : [node.cp];
      return variants.length === 1 ? esc(node.cp) : `[${variants.map(esc).join("")}]`;
    }
    case "class":
      return emitClass(node.items, node.negated, node.fold, mode === "spelled" && node.fold);
    case "dot":
      return node.nl ? ANY : "[^\\u{A}]";
    case "assert":
      return ASSERTIONS[node.kind];
    case "group":
      return `(${node.capture ? "" : "?:"}${emit(node.body, mode)})`;
    case "concat":
      return node.items.map((item) => emit(item, mode)).join("");
    case "alt":
      return `(?:${node.items.map((item) => emit(item, mode)).join("|")})`;
    case "repeat": {
      const atomic = node.body.t === "lit" || node.body.t === "class" || node.body.t === "dot" || node.body.t === "group";
      const body = emit(node.body, mode);
      return `${atomic ? body : `(?:${body})`}${quantifier(node.min, node.max)}${node.greedy ? "" : "?"}`;
    }
  }
}

const ASSERTIONS: Record<Extract<Re2Node, { t: "assert" }>["kind"], string> = {
  textStart: `(?<!${ANY})`,
  textEnd: `(?!${ANY})`,
  lineStart: "(?<![^\\u{A}])",
  lineEnd: "(?![^\\u{A}])",
  // RE2's \b is an ASCII word boundary.
  word: `(?:(?<=${WORD})(?!${WORD})|(?<!${WORD})(?=${WORD}))`,
  notWord: `(?:(?<=${WORD})(?=${WORD})|(?<!${WORD})(?!${WORD}))`,
};

function quantifier(min: number, max: number): string {
  if (max === -1) return min === 0 ? "*" : min === 1 ? "+" : `{${min},}`;
  if (min === 0 && max === 1) return "?";
  return min === max ? `{${min}}` : `{${min},${max}}`;
}

/**
 * A class. `spell` lists the case variants of its ranges (partial folding); a negated group such
 * as \\W under folding leaves out the variants of its characters too, as RE2 does, whichever mode.
 */
function emitClass(items: readonly ClassItem[], negated: boolean, folded: boolean, spell: boolean): string {
  let body = "";
  for (const item of items) {
    if (item.kind === "unicode") body += item.js;
    else if (item.kind === "range") body += rangesText(spell ? foldRanges([[item.lo, item.hi]]) : [[item.lo, item.hi]]);
    else if (item.negated) body += rangesText(complement(folded ? foldRanges(item.ranges) : normalize(item.ranges)));
    else body += rangesText(spell ? foldRanges(item.ranges) : normalize(item.ranges));
  }
  return `[${negated ? "^" : ""}${body}]`;
}

function rangesText(ranges: readonly Range[]): string {
  return ranges.map(([lo, hi]) => (lo === hi ? esc(lo) : `${esc(lo)}-${esc(hi)}`)).join("");
}

/** A code point as regex source: letters and digits as themselves, everything else escaped. */
function esc(cp: number): string {
  const c = String.fromCodePoint(cp);
  return /^[0-9A-Za-z]$/.test(c) ? c : `\\u{${cp.toString(16).toUpperCase()}}`;
}

/**
 * A character and the characters it equals under simple case folding (as JavaScript's u+i
 * matching, and RE2, fold): candidates share an upper- or lower-case form, and the regex engine
 * itself decides which of them fold together (ı shares I's upper case but does not fold to i).
 */
function caseVariants(cp: number): number[] {
  const self = String.fromCodePoint(cp);
  const keys = [self, self.toUpperCase(), self.toLowerCase()].filter((k) => [...k].length === 1);
  const candidates = new Set<number>([cp]);
  for (const key of keys) for (const c of foldBuckets().get(key) ?? []) candidates.add(c);
  if (candidates.size === 1) return [cp];
  const same = new RegExp(`^${esc(cp)}$`, "iu");
  return [...candidates].filter((c) => c === cp || same.test(String.fromCodePoint(c))).sort((a, b) => a - b);
}

/** Cased characters grouped by their one-character upper- and lower-case forms; built on first use. */
let buckets: Map<string, number[]> | undefined;
/** Past this, Unicode has no cased characters. */
const LAST_CASED = 0x1ffff;

function foldBuckets(): Map<string, number[]> {
  if (buckets) return buckets;
  const map = new Map<string, number[]>();
  for (let cp = 0; cp <= LAST_CASED; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    const c = String.fromCodePoint(cp);
    for (const form of new Set([c.toUpperCase(), c.toLowerCase()])) {
      if (form === c || [...form].length !== 1) continue;
      const list = map.get(form) ?? [form.codePointAt(0) ?? 0];
      list.push(cp);
      map.set(form, list);
    }
  }
  buckets = map;
  return map;
}

/** Ranges plus every case variant of their characters (long ranges are kept as they are). */
function foldRanges(ranges: readonly Range[]): Range[] {
  const out: Range[] = [...ranges];
  for (const [lo, hi] of ranges) {
    if (hi - lo > MAX_SPELLED_RANGE) continue;
    for (let cp = lo; cp <= hi; cp++) for (const v of caseVariants(cp)) if (v !== cp) out.push([v, v]);
  }
  return normalize(out);
}

/** Sorted, merged ranges. */
function normalize(ranges: readonly Range[]): Range[] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [lo, hi] of sorted) {
    const last = out[out.length - 1];
    if (last && lo <= last[1] + 1) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

/** The code points not in `ranges` (which are normalised). */
function complement(ranges: readonly Range[]): Range[] {
  const out: Range[] = [];
  let next = 0;
  for (const [lo, hi] of ranges) {
    if (lo > next) out.push([next, lo - 1]);
    next = hi + 1;
  }
  if (next <= MAX_RUNE) out.push([next, MAX_RUNE]);
  return out;
}
