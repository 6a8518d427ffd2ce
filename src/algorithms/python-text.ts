/** Python string behaviours Zulip's validation relies on. */

// str.isspace(): Unicode white space plus the information separators 0x1C-0x1F.
const SPACE = "[\\t\\n\\v\\f\\r\\x1c-\\x1f \\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]";
const EDGES = new RegExp(`^${SPACE}+|${SPACE}+$`, "g");

/** Python's str.strip(). */
export function pyStrip(value: string): string {
  return value.replace(EDGES, "");
}

/** The smallest string by code point, as Python's min() picks it. */
export function pyMin(values: Iterable<string>): string | undefined {
  let best: string | undefined;
  for (const value of values) if (best === undefined || compareCodePoints(value, best) < 0) best = value;
  return best;
}

function compareCodePoints(a: string, b: string): number {
  const x = [...a];
  const y = [...b];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = (x[i]?.codePointAt(0) ?? 0) - (y[i]?.codePointAt(0) ?? 0);
    if (d !== 0) return d;
  }
  return x.length - y.length;
}
