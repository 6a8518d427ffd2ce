import { describe, expect, it } from "vitest";
import { compileRe2, findFrom } from "../../src/algorithms/re2/engine.js";
import { parseRe2 } from "../../src/algorithms/re2/parse.js";

/** RE2's error text for a pattern, or "OK". */
function verdict(pattern: string): string {
  const r = parseRe2(pattern);
  return r.ok ? "OK" : r.error;
}

/** The whole match and its groups, as the linkifier engine finds them in `text`. */
function match(pattern: string, text: string): (string | undefined)[] | null {
  const r = parseRe2(pattern);
  if (!r.ok) throw new Error(r.error);
  const compiled = compileRe2(pattern);
  if (!compiled.ok) throw new Error(compiled.error);
  return findFrom(compiled.re, text, 0)?.groups ?? null;
}

describe("RE2 syntax: RE2's verdicts and error texts", () => {
  it.each([
    ["(foo", "missing ): (foo"],
    ["a)b", "unexpected ): a)b"],
    ["*a", "no argument for repetition operator: *"],
    ["a|*", "no argument for repetition operator: *"],
    ["(?i)*", "no argument for repetition operator: *"],
    ["a**", "bad repetition operator: **"],
    ["ZUL-(?P<id>\\d????)", "bad repetition operator: ????"],
    ["a*{2}", "bad repetition operator: *{2}"],
    ["a{2}*", "bad repetition operator: {2}*"],
    ["a{2}{3}", "bad repetition operator: {2}{3}"],
    ["a{1001}", "invalid repetition size: {1001}"],
    ["a{2,1}", "invalid repetition size: {2,1}"],
    ["(a{100}){11}", "invalid repetition size: {11}"],
    ["((a{10}){10}){11}", "invalid repetition size: {11}"],
    ["\\8", "invalid escape sequence: \\8"],
    ["\\1", "invalid escape sequence: \\1"],
    ["\\x", "invalid escape sequence: \\x"],
    ["\\x4", "invalid escape sequence: \\x4"],
    ["\\xg1", "invalid escape sequence: \\xg1"],
    ["\\x{110000}", "invalid escape sequence: \\x{110000"],
    ["\\x{}", "invalid escape sequence: \\x{}"],
    ["\\x{41", "invalid escape sequence: \\x{41"],
    ["\\x{", "invalid UTF-8"],
    ["\\Z", "invalid escape sequence: \\Z"],
    ["\\é", "invalid escape sequence: \\é"],
    ["a\\", "trailing \\"],
    ["[a", "missing ]: [a"],
    ["[]", "missing ]: []"],
    ["[z-a]", "invalid character class range: z-a"],
    ["[a-\\d]", "invalid escape sequence: \\d"],
    ["[[:foo:]]", "invalid character class range: [:foo:]"],
    ["[[:alpha:]", "missing ]: [[:alpha:]"],
    ["\\pX", "invalid character class range: \\pX"],
    ["\\p{Foo}", "invalid character class range: \\p{Foo}"],
    ["\\p{L", "invalid character class range: \\p{L"],
    ["\\p", "invalid character class range: \\p"],
    ["[\\p]", "invalid character class range: \\p]"],
    ["(?x)", "invalid perl operator: (?x"],
    ["(?i", "invalid perl operator: (?i"],
    ["(?-)", "invalid perl operator: (?-)"],
    ["(?i-)", "invalid perl operator: (?i-)"],
    ["(?i--s)", "invalid perl operator: (?i--"],
    ["(?P=n)", "invalid perl operator: (?P"],
    ["(?#c)", "invalid perl operator: (?#"],
    ["(?!a)", "invalid perl operator: (?!"],
    ["(?=a)", "invalid perl operator: (?="],
    ["(?<=a)b", "invalid perl operator: (?<="],
    ["(?<!a)b", "invalid perl operator: (?<!"],
    ["(?P<n", "invalid named capture group: (?P<n"],
    ["(?P<>a)", "invalid named capture group: (?P<>"],
    ["(?P<a-b>x)", "invalid named capture group: (?P<a-b>"],
  ])("%j: %s", (pattern, error) => {
    expect(verdict(pattern)).toBe(error);
  });

  it.each(["^*", "a{,2}", "a{01}", "a{", "\\12", "[]a]", "[^]a]", "\\Qa.b", "\\Qa\\E*", "(?U)a*?", "x{2}?", "((a{10}){10}){10}", "(?<n>a)", "(?P<名前>a)", "\\_"])(
    "%j is accepted",
    (pattern) => {
      expect(verdict(pattern)).toBe("OK");
    },
  );

  it("names the capture groups in order, unnamed ones as null", () => {
    const r = parseRe2("(?P<org>\\w+)/(\\w+)(?:#(?<id>\\d+))?");
    expect(r.ok && r.groups).toEqual(["org", null, "id"]);
  });
});

describe("RE2 semantics on the linkifier engine", () => {
  it("keeps ^ and $ at the ends of the text unless (?m), and . off newlines unless (?s)", () => {
    expect(match("^b", "a\nb")).toBeNull();
    expect(match("(?m)^b", "a\nb")).toEqual(["b"]);
    expect(match("a$", "a\n")).toBeNull();
    expect(match("a.b", "a\nb")).toBeNull();
    expect(match("(?s:a.b)", "a\nb")).toEqual(["a\nb"]);
    expect(match("a.b", "a\rb")).toEqual(["a\rb"]);
  });

  it("keeps \\d \\s \\w \\b ASCII, and \\p groups Unicode", () => {
    expect(match("\\d", "٣")).toBeNull();
    expect(match("\\s", "\u00a0")).toBeNull();
    expect(match("\\S", "\u00a0")).toEqual(["\u00a0"]);
    expect(match("\\w+", "héllo")).toEqual(["h"]);
    expect(match("\\bé", " é")).toBeNull();
    expect(match("\\pL+", "héllo")).toEqual(["héllo"]);
    expect(match("\\p{Greek}+", "abc αβγ")).toEqual(["αβγ"]);
    expect(match("[[:^alpha:]]+", "ab12cd")).toEqual(["12"]);
  });

  it("scopes flags: folding in part of the pattern, ungreedy repetition", () => {
    expect(match("a(?i)b", "aB")).toEqual(["aB"]);
    expect(match("a(?i)b", "AB")).toBeNull();
    expect(match("(?i:k)K", "\u212aK")).toEqual(["\u212aK"]);
    expect(match("(?i)[^k]", "\u212a")).toBeNull();
    expect(match("(?i)\\W", "\u017f")).toBeNull();
    expect(match("(?U)a+", "aaa")).toEqual(["a"]);
    expect(match("(?U)a+?", "aaa")).toEqual(["aaa"]);
  });

  it("spells literal braces and escapes JavaScript would read otherwise", () => {
    expect(match("a{,2}", "a{,2}")).toEqual(["a{,2}"]);
    expect(match("\\Q(a.b)\\E", "x(a.b)")).toEqual(["(a.b)"]);
    expect(match("\\x{263A}\\101", "☺A")).toEqual(["☺A"]);
    expect(match("(a)|b", "b")).toEqual(["b", undefined]);
  });
});
