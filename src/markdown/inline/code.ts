/** Inline code spans: `code`, ``co`de``; spaces inside are kept, unlike CommonMark. */
import { escapeCode } from "../escape.js";
import type { InlinePattern } from "./engine.js";

interface Run {
  start: number;
  len: number;
}

function backtickRuns(text: string): Run[] {
  const runs: Run[] = [];
  for (let i = text.indexOf("`"); i !== -1; i = text.indexOf("`", i)) {
    let j = i;
    while (text[j] === "`") j++;
    runs.push({ start: i, len: j - i });
    i = j;
  }
  return runs;
}

function backslashesBefore(text: string, pos: number, floor: number): number {
  let n = 0;
  while (pos - n - 1 >= floor && text[pos - n - 1] === "\\") n++;
  return n;
}

// First run after index `after` with exactly `len` backticks (runs by length are sorted).
function closingRun(byLen: Map<number, number[]>, len: number, after: number): number {
  const list = byLen.get(len);
  if (list === undefined) return -1;
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((list[mid] ?? 0) <= after) lo = mid + 1;
    else hi = mid;
  }
  return list[lo] ?? -1;
}

/** The backtick pattern, scanning runs once so long backtick strings stay linear. */
export const backtickPattern: InlinePattern = {
  name: "backtick",
  apply(text, env) {
    if (!text.includes("`")) return text;
    const runs = backtickRuns(text);
    const byLen = new Map<number, number[]>();
    runs.forEach((run, i) => {
      const list = byLen.get(run.len);
      if (list) list.push(i);
      else byLen.set(run.len, [i]);
    });
    let out = "";
    let last = 0;
    for (let r = 0; r < runs.length; r++) {
      const run = runs[r];
      if (run === undefined || run.start < last) continue;
      let openStart = run.start;
      let openLen = run.len;
      const slashes = backslashesBefore(text, run.start, last);
      if (slashes > 0 && slashes % 2 === 0) {
        // An even run of backslashes before a backtick stands for half as many.
        out += text.slice(last, run.start - slashes) + env.stash.put({ kind: "text", text: "\\".repeat(slashes / 2) });
        last = run.start;
      } else if (slashes % 2 === 1) {
        openStart++;
        openLen--;
      }
      for (let len = openLen; len >= 1; len--) {
        const close = closingRun(byLen, len, r);
        const closeRun = close === -1 ? undefined : runs[close];
        if (closeRun === undefined) continue;
        const content = text.slice(openStart + len, closeRun.start);
        const html = `<code>${escapeCode(content)}</code>`;
        out += text.slice(last, openStart);
        out += env.stash.put({ kind: "raw", html });
        last = closeRun.start + closeRun.len;
        r = close;
        break;
      }
    }
    return last === 0 ? text : out + text.slice(last);
  },
};
