import { htmlEscape } from "./message-rules.js";

const OPEN = '<span class="highlight">';
const CLOSE = "</span>";

/** Ranges [start, end) where any word occurs in `text`, case-insensitively, merged. */
function matchRanges(text: string, words: readonly string[]): [number, number][] {
  const lower = text.toLowerCase();
  const ranges: [number, number][] = [];
  for (const word of words) {
    const w = word.toLowerCase();
    if (w.length === 0) continue;
    for (let i = lower.indexOf(w); i !== -1; i = lower.indexOf(w, i + w.length)) ranges.push([i, i + w.length]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const r of ranges) {
    const last = merged[merged.length - 1];
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1]);
    else merged.push([r[0], r[1]]);
  }
  return merged;
}

function wrap(text: string, words: readonly string[], escape: (s: string) => string): string {
  let out = "";
  let at = 0;
  for (const [start, end] of matchRanges(text, words)) {
    out += escape(text.slice(at, start)) + OPEN + escape(text.slice(start, end)) + CLOSE;
    at = end;
  }
  return out + escape(text.slice(at));
}

/** match_subject: the topic HTML-escaped, search words wrapped in highlight spans. */
export function highlightTopic(topic: string, words: readonly string[]): string {
  return wrap(topic, words, htmlEscape);
}

/** match_content: rendered HTML with search words highlighted in text, never inside tags. */
export function highlightHtml(html: string, words: readonly string[]): string {
  return html
    .split(/(<[^>]*>)/)
    .map((part) => (part.startsWith("<") ? part : wrap(part, words, (s) => s)))
    .join("");
}
