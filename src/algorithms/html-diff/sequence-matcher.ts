/**
 * The edit script between two sequences of strings, found the way Python's difflib.SequenceMatcher
 * finds it (longest matching block first, recursively on each side; with sequences of 200 items
 * or more, items making up over 1% of the second are not used to start a match). Zulip's diffs
 * depend on its exact choices, so the same choices are made here.
 */

/** One step: `equal`, `replace`, `delete` or `insert` of a[i1:i2] → b[j1:j2]. */
export type Opcode = [tag: "equal" | "replace" | "delete" | "insert", i1: number, i2: number, j1: number, j2: number];

type Block = [i: number, j: number, size: number];

/** The opcodes turning `a` into `b`, not counting matches of `minSize` items or fewer as equal. */
export function opcodes(a: readonly string[], b: readonly string[], minSize = 0): Opcode[] {
  const blocks = matchingBlocks(a, b).filter(([, , size]) => size > minSize || size === 0);
  const out: Opcode[] = [];
  let i = 0;
  let j = 0;
  for (const [ai, bj, size] of blocks) {
    if (i < ai && j < bj) out.push(["replace", i, ai, j, bj]);
    else if (i < ai) out.push(["delete", i, ai, j, bj]);
    else if (j < bj) out.push(["insert", i, ai, j, bj]);
    i = ai + size;
    j = bj + size;
    if (size > 0) out.push(["equal", ai, i, bj, j]);
  }
  return out;
}

function matchingBlocks(a: readonly string[], b: readonly string[]): Block[] {
  const positions = indexOf(b);
  const found: Block[] = [];
  const queue: [number, number, number, number][] = [[0, a.length, 0, b.length]];
  for (let range = queue.pop(); range; range = queue.pop()) {
    const [alo, ahi, blo, bhi] = range;
    const [i, j, k] = longestMatch(a, b, positions, alo, ahi, blo, bhi);
    if (k === 0) continue;
    found.push([i, j, k]);
    if (alo < i && blo < j) queue.push([alo, i, blo, j]);
    if (i + k < ahi && j + k < bhi) queue.push([i + k, ahi, j + k, bhi]);
  }
  found.sort((x, y) => x[0] - y[0] || x[1] - y[1] || x[2] - y[2]);
  const merged: Block[] = [];
  for (const block of found) {
    const last = merged[merged.length - 1];
    if (last && last[0] + last[2] === block[0] && last[1] + last[2] === block[1]) last[2] += block[2];
    else merged.push([...block]);
  }
  merged.push([a.length, b.length, 0]);
  return merged;
}

/** Where each item occurs in `b`; the very frequent items of a long `b` are left out. */
function indexOf(b: readonly string[]): Map<string, number[]> {
  const positions = new Map<string, number[]>();
  b.forEach((item, index) => {
    const list = positions.get(item);
    if (list) list.push(index);
    else positions.set(item, [index]);
  });
  if (b.length >= 200) {
    const limit = Math.floor(b.length / 100) + 1;
    for (const [item, list] of positions) if (list.length > limit) positions.delete(item);
  }
  return positions;
}

function longestMatch(a: readonly string[], b: readonly string[], positions: Map<string, number[]>, alo: number, ahi: number, blo: number, bhi: number): Block {
  let [bestI, bestJ, bestSize] = [alo, blo, 0];
  let runs = new Map<number, number>();
  for (let i = alo; i < ahi; i++) {
    const next = new Map<number, number>();
    for (const j of positions.get(a[i] ?? "") ?? []) {
      if (j < blo) continue;
      if (j >= bhi) break;
      const k = (runs.get(j - 1) ?? 0) + 1;
      next.set(j, k);
      if (k > bestSize) [bestI, bestJ, bestSize] = [i - k + 1, j - k + 1, k];
    }
    runs = next;
  }
  // Frequent items cannot start a match but may extend one.
  while (bestI > alo && bestJ > blo && a[bestI - 1] === b[bestJ - 1]) [bestI, bestJ, bestSize] = [bestI - 1, bestJ - 1, bestSize + 1];
  while (bestI + bestSize < ahi && bestJ + bestSize < bhi && a[bestI + bestSize] === b[bestJ + bestSize]) bestSize++;
  return [bestI, bestJ, bestSize];
}
