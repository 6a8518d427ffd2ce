/**
 * Zulip compiles linkifier patterns with RE2 (Python's re2 module). This reads RE2's syntax as
 * RE2 does (Perl-like flags: ^ and $ match at the ends of the text, \d \s \w are ASCII, no
 * backreferences or look-around) and fails with RE2's own error text at the same place.
 */
import { CAPTURE_NAME, PERL_GROUPS, posixGroup, unicodeGroup, type Range } from "./tables.js";

/** One item of a character class. */
export type ClassItem =
  | { kind: "range"; lo: number; hi: number }
  | { kind: "ascii"; ranges: readonly Range[]; negated: boolean }
  | { kind: "unicode"; js: string };

/** A parsed pattern. Literals and classes remember whether case folding was on where they stood. */
export type Re2Node =
  | { t: "lit"; cp: number; fold: boolean }
  | { t: "class"; items: ClassItem[]; negated: boolean; fold: boolean }
  | { t: "dot"; nl: boolean }
  | { t: "assert"; kind: "textStart" | "textEnd" | "lineStart" | "lineEnd" | "word" | "notWord" }
  | { t: "group"; capture: boolean; name: string | null; body: Re2Node }
  | { t: "concat"; items: Re2Node[] }
  | { t: "alt"; items: Re2Node[] }
  | { t: "repeat"; min: number; max: number; counted: boolean; greedy: boolean; body: Re2Node };

/** A pattern RE2 accepts, with its capture groups' names in order (null for unnamed groups). */
export type Re2Parse = { ok: true; node: Re2Node; groups: (string | null)[] } | { ok: false; error: string };

interface Flags {
  fold: boolean;
  multiLine: boolean;
  dotNL: boolean;
  ungreedy: boolean;
}

interface Frame {
  capture: boolean;
  name: string | null;
  /** The flags in force when the group opened, restored when it closes. */
  flags: Flags;
  alts: Re2Node[];
  cur: Re2Node[];
}

/** RE2's limit on counted repetition ({n,m}), nested repetitions multiplied. */
const MAX_REPEAT = 1000;
const MAX_RUNE = 0x10ffff;

class Re2SyntaxError extends Error {}

function fail(code: string, arg: string): never {
  throw new Re2SyntaxError(arg === "" ? code : `${code}: ${arg}`);
}

/** Parses `pattern` as RE2 would, or gives RE2's error message ("missing ): (foo"). */
export function parseRe2(pattern: string): Re2Parse {
  try {
    return new Parser(pattern).run();
  } catch (error) {
    if (error instanceof Re2SyntaxError) return { ok: false, error: error.message };
    throw error;
  }
}

class Parser {
  private i = 0;
  private flags: Flags = { fold: false, multiLine: false, dotNL: false, ungreedy: false };
  private readonly stack: Frame[] = [];
  private frame: Frame = { capture: false, name: null, flags: this.flags, alts: [], cur: [] };
  private readonly groups: (string | null)[] = [];

  constructor(private readonly p: string) {}

  run(): Re2Parse {
    let lastUnary = -1;
    while (this.i < this.p.length) {
      const c = this.p[this.i];
      let unary = -1;
      if (c === "(") {
        if (this.p[this.i + 1] === "?") this.perlFlags();
        else {
          this.open(true, null, this.flags);
          this.i++;
        }
      } else if (c === "|") {
        this.frame.alts.push(concat(this.frame.cur));
        this.frame.cur = [];
        this.i++;
      } else if (c === ")") {
        this.close();
        this.i++;
      } else if (c === "^") {
        this.push({ t: "assert", kind: this.flags.multiLine ? "lineStart" : "textStart" });
        this.i++;
      } else if (c === "$") {
        this.push({ t: "assert", kind: this.flags.multiLine ? "lineEnd" : "textEnd" });
        this.i++;
      } else if (c === ".") {
        this.push({ t: "dot", nl: this.flags.dotNL });
        this.i++;
      } else if (c === "[") {
        this.push(this.charClass());
      } else if (c === "*" || c === "+" || c === "?") {
        unary = this.i;
        this.repeatOp(c, lastUnary);
      } else if (c === "{" && this.repetitionAt(this.i) !== null) {
        unary = this.i;
        this.counted(lastUnary);
      } else if (c === "\\") {
        this.escape();
      } else {
        this.pushLiteral(this.rune());
      }
      lastUnary = unary;
    }
    if (this.stack.length > 0) fail("missing )", this.p);
    return { ok: true, node: this.finish(this.frame), groups: this.groups };
  }

  private rune(): number {
    const cp = this.p.codePointAt(this.i) ?? 0;
    this.i += cp > 0xffff ? 2 : 1;
    return cp;
  }

  private push(node: Re2Node): void {
    this.frame.cur.push(node);
  }

  private pushLiteral(cp: number): void {
    this.push({ t: "lit", cp, fold: this.flags.fold });
  }

  private open(capture: boolean, name: string | null, flags: Flags): void {
    if (capture) this.groups.push(name);
    this.stack.push(this.frame);
    this.frame = { capture, name, flags, alts: [], cur: [] };
  }

  private close(): void {
    const outer = this.stack.pop();
    if (!outer) fail("unexpected )", this.p);
    const inner = this.frame;
    this.frame = outer;
    this.flags = inner.flags;
    const body = this.finish(inner);
    this.push(inner.capture ? { t: "group", capture: true, name: inner.name, body } : { t: "group", capture: false, name: null, body });
  }

  private finish(frame: Frame): Re2Node {
    const last = concat(frame.cur);
    return frame.alts.length === 0 ? last : { t: "alt", items: [...frame.alts, last] };
  }

  /** `*`, `+`, `?`, optionally followed by `?` (the other greediness). */
  private repeatOp(op: string, lastUnary: number): void {
    const start = this.i;
    this.i++;
    const lazy = this.p[this.i] === "?";
    if (lazy) this.i++;
    if (lastUnary >= 0) fail("bad repetition operator", this.p.slice(lastUnary, this.i));
    const target = this.frame.cur.pop();
    if (!target) fail("no argument for repetition operator", this.p.slice(start, this.i));
    const [min, max] = op === "*" ? [0, -1] : op === "+" ? [1, -1] : [0, 1];
    this.push({ t: "repeat", min, max, counted: false, greedy: lazy === this.flags.ungreedy, body: target });
  }

  /** `{n}`, `{n,}`, `{n,m}`, optionally followed by `?`. */
  private counted(lastUnary: number): void {
    const start = this.i;
    const rep = this.repetitionAt(this.i);
    if (!rep) return;
    this.i = rep.end;
    const lazy = this.p[this.i] === "?";
    if (lazy) this.i++;
    if (lastUnary >= 0) fail("bad repetition operator", this.p.slice(lastUnary, this.i));
    const op = this.p.slice(start, this.i);
    if ((rep.max !== -1 && rep.max < rep.min) || rep.min > MAX_REPEAT || rep.max > MAX_REPEAT) fail("invalid repetition size", op);
    const target = this.frame.cur.pop();
    if (!target) fail("no argument for repetition operator", op);
    const node: Re2Node = { t: "repeat", min: rep.min, max: rep.max, counted: true, greedy: lazy === this.flags.ungreedy, body: target };
    if ((rep.min >= 2 || rep.max >= 2) && repeatBudget(node, MAX_REPEAT) === 0) fail("invalid repetition size", op);
    this.push(node);
  }

  /** A counted repetition starting at `at`, or null when the brace is a literal. */
  private repetitionAt(at: number): { min: number; max: number; end: number } | null {
    const m = /^\{(0|[1-9][0-9]*)(?:(,)(0|[1-9][0-9]*)?)?\}/.exec(this.p.slice(at, at + 40));
    if (!m) return null;
    const min = Number(m[1]);
    const max = m[2] === undefined ? min : m[3] === undefined ? -1 : Number(m[3]);
    // RE2 gives up on numbers past 10^9, leaving the brace literal.
    if ((m[1] ?? "").length > 9 || (m[3] ?? "").length > 9) return null;
    return { min, max, end: at + m[0].length };
  }

  /** `(?` : look-around (refused), named groups, flags and non-capturing groups. */
  private perlFlags(): void {
    const t = this.p.slice(this.i);
    if ((t.length > 3 && (t[2] === "=" || t[2] === "!")) || (t.length > 4 && t[2] === "<" && (t[3] === "=" || t[3] === "!"))) {
      fail("invalid perl operator", t.slice(0, t[2] === "<" ? 4 : 3));
    }
    if ((t.length > 4 && t[2] === "P" && t[3] === "<") || (t.length > 3 && t[2] === "<")) {
      const begin = t[2] === "P" ? 4 : 3;
      const end = t.indexOf(">", begin);
      if (end === -1) fail("invalid named capture group", t);
      const name = t.slice(begin, end);
      if (!CAPTURE_NAME.test(name)) fail("invalid named capture group", t.slice(0, end + 1));
      this.open(true, name, this.flags);
      this.i += end + 1;
      return;
    }
    const start = this.i;
    let j = this.i + 2;
    const next: Flags = { ...this.flags };
    let negated = false;
    let sawFlags = false;
    for (;;) {
      if (j >= this.p.length) fail("invalid perl operator", this.p.slice(start, j));
      const c = String.fromCodePoint(this.p.codePointAt(j) ?? 0);
      j += c.length;
      const on = !negated;
      if (c === "i") next.fold = on;
      else if (c === "m") next.multiLine = on;
      else if (c === "s") next.dotNL = on;
      else if (c === "U") next.ungreedy = on;
      else if (c === "-" && !negated) {
        negated = true;
        sawFlags = false;
        continue;
      } else if (c === ":") {
        this.open(false, null, this.flags);
        break;
      } else if (c === ")") break;
      else fail("invalid perl operator", this.p.slice(start, j));
      sawFlags = true;
    }
    if (negated && !sawFlags) fail("invalid perl operator", this.p.slice(start, j));
    this.flags = next;
    this.i = j;
  }

  private escape(): void {
    const p = this.p;
    const c = p[this.i + 1];
    if (c === "b" || c === "B") {
      this.push({ t: "assert", kind: c === "b" ? "word" : "notWord" });
      this.i += 2;
      return;
    }
    if (c === "A" || c === "z") {
      this.push({ t: "assert", kind: c === "A" ? "textStart" : "textEnd" });
      this.i += 2;
      return;
    }
    if (c === "C") {
      this.push({ t: "dot", nl: true });
      this.i += 2;
      return;
    }
    if (c === "Q") {
      this.i += 2;
      while (this.i < p.length) {
        if (p.startsWith("\\E", this.i)) {
          this.i += 2;
          break;
        }
        this.pushLiteral(this.rune());
      }
      return;
    }
    if (c === "p" || c === "P") {
      this.push({ t: "class", items: [this.unicodeGroup()], negated: false, fold: this.flags.fold });
      return;
    }
    const perl = PERL_GROUPS[p.slice(this.i, this.i + 2)];
    if (perl) {
      this.push({ t: "class", items: [{ kind: "ascii", ...perl }], negated: false, fold: this.flags.fold });
      this.i += 2;
      return;
    }
    this.pushLiteral(this.escapedRune());
  }

  /** `\p{Name}`, `\pL`, `\P…`, `\p{^…}`: RE2's Unicode groups. */
  private unicodeGroup(): ClassItem {
    const p = this.p;
    const start = this.i;
    let negated = p[this.i + 1] === "P";
    this.i += 2;
    let name: string;
    if (p[this.i] === "{") {
      const end = p.indexOf("}", this.i + 1);
      if (end === -1) fail("invalid character class range", p.slice(start));
      name = p.slice(this.i + 1, end);
      this.i = end + 1;
    } else {
      name = this.i < p.length ? this.runeText() : "";
    }
    const seq = p.slice(start, this.i);
    if (name.startsWith("^")) {
      negated = !negated;
      name = name.slice(1);
    }
    const js = unicodeGroup(name, negated);
    if (js === undefined) fail("invalid character class range", seq);
    return { kind: "unicode", js };
  }

  private runeText(): string {
    return String.fromCodePoint(this.rune());
  }

  /** An escape that stands for one character (RE2's ParseEscape). */
  private escapedRune(): number {
    const p = this.p;
    const begin = this.i;
    if (this.i + 1 >= p.length) fail("trailing \\", "");
    this.i++;
    const bad = (): never => fail("invalid escape sequence", p.slice(begin, this.i));
    const c = this.runeText();
    if (/^[1-7]$/.test(c) && !/^[0-7]$/.test(p[this.i] ?? "")) bad();
    if (/^[0-7]$/.test(c)) {
      let code = Number(c);
      for (let k = 0; k < 2 && /^[0-7]$/.test(p[this.i] ?? ""); k++) code = code * 8 + Number(p[this.i++]);
      return code;
    }
    if (c === "x") {
      if (this.i >= p.length) bad();
      const first = this.runeText();
      if (first === "{") {
        // RE2 reads past the end here and reports the missing character as bad UTF-8.
        if (this.i >= p.length) fail("invalid UTF-8", "");
        let d = this.runeText();
        let digits = 0;
        let code = 0;
        while (/^[0-9A-Fa-f]$/.test(d)) {
          digits++;
          code = code * 16 + parseInt(d, 16);
          if (code > MAX_RUNE || this.i >= p.length) bad();
          d = this.runeText();
        }
        if (d !== "}" || digits === 0) bad();
        return code;
      }
      if (this.i >= p.length) bad();
      const second = this.runeText();
      if (!/^[0-9A-Fa-f]{2}$/.test(first + second)) bad();
      return parseInt(first + second, 16);
    }
    const simple: Record<string, number> = { n: 10, r: 13, t: 9, a: 7, f: 12, v: 11 };
    if (Object.hasOwn(simple, c)) return simple[c] ?? 0;
    const cp = c.codePointAt(0) ?? 0;
    // Escaped ASCII punctuation stands for itself; letters, digits and other characters do not.
    if (cp < 0x80 && !/^[0-9A-Za-z]$/.test(c)) return cp;
    return bad();
  }

  /** `[...]`, with ranges, POSIX classes, Unicode groups and Perl classes. */
  private charClass(): Re2Node {
    const p = this.p;
    const whole = p.slice(this.i);
    this.i++;
    const negated = p[this.i] === "^";
    if (negated) this.i++;
    const items: ClassItem[] = [];
    let first = true;
    while (this.i < p.length && (p[this.i] !== "]" || first)) {
      first = false;
      const rest = p.length - this.i;
      if (rest > 2 && p[this.i] === "[" && p[this.i + 1] === ":") {
        const close = p.indexOf(":]", this.i + 2);
        if (close !== -1) {
          const name = p.slice(this.i, close + 2);
          const group = posixGroup(name);
          if (!group) fail("invalid character class range", name);
          items.push({ kind: "ascii", ...group });
          this.i = close + 2;
          continue;
        }
      }
      if (rest > 2 && p[this.i] === "\\" && (p[this.i + 1] === "p" || p[this.i + 1] === "P")) {
        items.push(this.unicodeGroup());
        continue;
      }
      const perl = PERL_GROUPS[p.slice(this.i, this.i + 2)];
      if (perl) {
        items.push({ kind: "ascii", ...perl });
        this.i += 2;
        continue;
      }
      const start = this.i;
      const lo = this.classRune(whole);
      let hi = lo;
      if (p.length - this.i >= 2 && p[this.i] === "-" && p[this.i + 1] !== "]") {
        this.i++;
        hi = this.classRune(whole);
        if (hi < lo) fail("invalid character class range", p.slice(start, this.i));
      }
      items.push({ kind: "range", lo, hi });
    }
    if (this.i >= p.length) fail("missing ]", whole);
    this.i++;
    return { t: "class", items, negated, fold: this.flags.fold };
  }

  private classRune(whole: string): number {
    if (this.i >= this.p.length) fail("missing ]", whole);
    return this.p[this.i] === "\\" ? this.escapedRune() : this.rune();
  }
}

function concat(items: Re2Node[]): Re2Node {
  return items.length === 1 && items[0] ? items[0] : { t: "concat", items };
}

/**
 * RE2's RepetitionWalker: the budget left after dividing MAX_REPEAT by each nested counted
 * repetition's count; 0 means the nesting would copy its innermost part too many times.
 */
function repeatBudget(node: Re2Node, budget: number): number {
  let arg = budget;
  if (node.t === "repeat" && node.counted) {
    const m = node.max < 0 ? node.min : node.max;
    if (m > 0) arg = Math.floor(arg / m);
  }
  const children = node.t === "repeat" || node.t === "group" ? [node.body] : node.t === "concat" || node.t === "alt" ? node.items : [];
  let least = arg;
  for (const child of children) least = Math.min(least, repeatBudget(child, arg));
  return least;
}
