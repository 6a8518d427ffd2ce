/**
 * Which characters can start a match of a regex, worked out from its source, so that a lexer tries
 * at each position only the rules that can match there. The analysis is conservative: where it is
 * unsure (a back-reference, `.`, a case-insensitive rule, anything it does not parse) it answers
 * "any character" for that part, which keeps the rule in every list it might belong to; it never
 * leaves out a rule that could match.
 */

/** Characters that can start a match: a table for ASCII, and whether any other character can. */
export interface FirstChars {
  ascii: boolean[];
  other: boolean;
}

const any = (): FirstChars => ({ ascii: new Array<boolean>(128).fill(true), other: true });
const none = (): FirstChars => ({ ascii: new Array<boolean>(128).fill(false), other: false });

function union(a: FirstChars, b: FirstChars): FirstChars {
  return { ascii: a.ascii.map((x, i) => x || (b.ascii[i] ?? false)), other: a.other || b.other };
}

class Unsure extends Error {}

interface Part {
  set: FirstChars;
  nullable: boolean; // can match without consuming a character
  end: number;
}

/** The first characters of `re`, or "any" where the analysis cannot tell. */
export function firstChars(re: RegExp): FirstChars {
  if (re.flags.includes("i")) return any();
  try {
    const part = alternation(re.source, 0, re.flags);
    if (part.end !== re.source.length || part.nullable) return any();
    return part.set;
  } catch (e) {
    if (e instanceof Unsure) return any();
    throw e;
  }
}

function alternation(src: string, start: number, flags: string): Part {
  let set = none();
  let nullable = false;
  let i = start;
  for (;;) {
    const seq = sequence(src, i, flags);
    set = union(set, seq.set);
    nullable ||= seq.nullable;
    i = seq.end;
    if (src[i] !== "|") return { set, nullable, end: i };
    i++;
  }
}

function sequence(src: string, start: number, flags: string): Part {
  let set = none();
  let i = start;
  let open = true; // every element so far can match nothing
  while (i < src.length && src[i] !== "|" && src[i] !== ")") {
    const el = element(src, i, flags);
    const q = quantifier(src, el.end);
    if (open) set = union(set, el.set);
    if (!el.nullable && !q.optional) open = false;
    i = q.end;
  }
  return { set, nullable: open, end: i };
}

function quantifier(src: string, i: number): { optional: boolean; end: number } {
  const c = src[i];
  let optional = false;
  let end = i;
  if (c === "*" || c === "?") {
    optional = true;
    end = i + 1;
  } else if (c === "+") end = i + 1;
  else if (c === "{") {
    const m = /^\{(\d+)(?:,\d*)?\}/.exec(src.slice(i));
    if (m === null) return { optional: false, end: i };
    optional = m[1] === "0";
    end = i + m[0].length;
  } else return { optional: false, end: i };
  if (src[end] === "?") end++;
  return { optional, end };
}

function element(src: string, i: number, flags: string): Part {
  const c = src[i];
  if (c === "(") {
    const look = /^\(\?(?:<?[=!])/.exec(src.slice(i, i + 4));
    const named = /^\(\?<[A-Za-z_]\w*>/.exec(src.slice(i));
    const inner = look !== null ? i + look[0].length : named !== null ? i + named[0].length : src.startsWith("(?:", i) ? i + 3 : i + 1;
    if (src[i + 1] === "?" && look === null && named === null && !src.startsWith("(?:", i)) throw new Unsure();
    const alt = alternation(src, inner, flags);
    if (src[alt.end] !== ")") throw new Unsure();
    // A lookaround consumes nothing: the characters after it decide.
    if (look !== null) return { set: none(), nullable: true, end: alt.end + 1 };
    return { set: alt.set, nullable: alt.nullable, end: alt.end + 1 };
  }
  if (c === "^" || c === "$") return { set: none(), nullable: true, end: i + 1 };
  if (c === ".") return { set: any(), nullable: false, end: i + 1 };
  if (c === "[") {
    let j = i + 1;
    if (src[j] === "^") j++;
    if (src[j] === "]") j++;
    while (j < src.length && src[j] !== "]") j += src[j] === "\\" ? 2 : 1;
    if (j >= src.length) throw new Unsure();
    return { set: probe(src.slice(i, j + 1), flags), nullable: false, end: j + 1 };
  }
  if (c === "\\") {
    const next = src[i + 1] ?? "";
    if (next === "b" || next === "B") return { set: none(), nullable: true, end: i + 2 };
    // A back-reference may match anything, or nothing.
    const backReference = /^\\(?:[1-9]\d*|k<[A-Za-z_]\w*>)/.exec(src.slice(i));
    if (backReference !== null) return { set: any(), nullable: true, end: i + backReference[0].length };
    const m = /^\\(?:[pP]\{[^}]*\}|x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]+\}|u[0-9a-fA-F]{4}|c[A-Za-z]|[\s\S])/.exec(src.slice(i));
    if (m === null) throw new Unsure();
    return { set: probe(m[0], flags), nullable: false, end: i + m[0].length };
  }
  if (c === undefined || c === ")" || c === "|" || "*+?{".includes(c)) throw new Unsure();
  return { set: probe(c, flags), nullable: false, end: i + 1 };
}

// A single-character matcher (a character, a class, an escape), tried on every ASCII character.
function probe(matcher: string, flags: string): FirstChars {
  const re = new RegExp(`^(?:${matcher})$`, flags.replace(/[gy]/g, ""));
  const ascii = Array.from({ length: 128 }, (_v, code) => re.test(String.fromCharCode(code)));
  // Beyond ASCII, assume a match unless the matcher is a plain ASCII character.
  const other = !/^(?:[\x20-\x7e]|\\[\\^$.*+?()[\]{}|/ntrfv0-])$/.test(matcher);
  return { ascii, other };
}

/**
 * The rules to try at a position, by the character there: index 0–127 for ASCII, 128 for any other.
 * Each list keeps the rules' order, so the first rule that matches is the same as without it.
 * Built once per rule list and kept in the caller's cache.
 */
export function rulesByFirstChar<R extends readonly [RegExp, ...unknown[]]>(rules: readonly R[], cache: WeakMap<readonly R[], R[][]>): R[][] {
  const cached = cache.get(rules);
  if (cached !== undefined) return cached;
  const table: R[][] = Array.from({ length: 129 }, () => []);
  for (const rule of rules) {
    const set = firstChars(rule[0]);
    set.ascii.forEach((ok, code) => {
      if (ok) table[code]?.push(rule);
    });
    if (set.other) table[128]?.push(rule);
  }
  cache.set(rules, table);
  return table;
}
