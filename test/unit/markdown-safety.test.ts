import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../src/markdown/index.js";
import { testContext } from "./markdown-fixtures.js";
import { checkHtml } from "./markdown-html-check.js";
import { bestCpuMs } from "../harness/cpu.js";

// Fragments that exercise every syntax the renderer knows, plus hostile ones.
const fragments = [
  "*", "**", "***", "_", "`", "```", "~~~", "~~", "\n", "\n\n", " ", "  ", "    ", ">", "> ", "#", "# ", "[", "]",
  "(", ")", "<", ">", "&", "&amp;", "&#106;", "\"", "'", "\\", "|", "-", "- ", "* ", "1. ", "3. ", "$$", "$",
  ":", "::", ":smile:", ":zulip:", ":)", "💩", "🍋\u200d🟩", "@**", "@_**", "@*", "#**", ">", "King Hamlet",
  "all", "topic", "support", "Denmark", "<time:", "2017-12-31", "1496701800", "<script>", "</script>",
  "javascript:", "data:text/html,", "vbscript:", "http://", "https://", "a.com", "www.zulip.com", "/path",
  "user_uploads/", "onerror=", "alert(1)", "spoiler", "quote", "math", "python", "\\frac{1}{2}", "\\href{javascript:alert(1)}{x}",
  "<img src=x onerror=alert(1)>", "[x](javascript:alert(1))", "[x](  )", "[](http://a.com)", "\t", "\u0000", "\u0002", "\u0003",
  "\r\n", "text", "word", "x", "\n  ", "\n   ", "+ ", ">>", "> > ", "\n> ", "\n* ", "\n  * ", "\n1. ", "  1. ", "---",
];
const markdownish = fc.array(fc.constantFrom(...fragments), { maxLength: 60 }).map((parts) => parts.join(""));
const anyText = fc.string({ unit: "binary", maxLength: 200 });

function render(input: string): string {
  return renderMarkdown(input, testContext()).html;
}

describe("rendering is safe for any input", () => {
  it("never throws and always produces safe, balanced HTML", () => {
    fc.assert(
      fc.property(fc.oneof(markdownish, anyText), (input) => {
        const html = render(input);
        expect(checkHtml(html), `input ${JSON.stringify(input)} gave ${html}`).toBeNull();
      }),
      { numRuns: 3000 },
    );
  });

  it("renders one-line messages the same on the fast path as on the full path", () => {
    const oneLine = fc.tuple(fc.constantFrom("a", "@", ":", "é"), markdownish).map(([head, rest]) => head + rest.replace(/[\r\n]/g, " "));
    fc.assert(
      fc.property(oneLine, (input) => {
        // A trailing newline sends the same paragraph through the block parser.
        expect(render(input)).toBe(render(input + "\n"));
      }),
      { numRuns: 2000 },
    );
  });

  it("escapes raw HTML instead of passing it through", () => {
    const html = render('<script>alert(1)</script> <img src=x onerror="alert(1)"> <a href="javascript:x">y</a>');
    expect(html).not.toMatch(/<script|<img|<a /);
    expect(checkHtml(html)).toBeNull();
  });

  it("refuses dangerous link schemes", () => {
    for (const url of ["javascript:alert(1)", "JaVaScRiPt:alert(1)", "data:text/html,<b>x</b>", "vbscript:x", "java\tscript:x"]) {
      const html = render(`[x](${url})`);
      // Either no link at all, or (for the tab, which becomes spaces) a harmless http URL.
      expect(html, url).not.toMatch(/href="(?!http:\/\/)/);
    }
  });
});

// The inputs the issue names (10,000 nested brackets, asterisks, backticks, `>`),
// and more of the same spirit sized near Zulip's 10,000-character message limit.
const pathological: Record<string, string> = {
  "nested brackets": "[".repeat(10_000) + "]".repeat(10_000),
  "open brackets": "[".repeat(10_000),
  "link chains": "[a](".repeat(5_000),
  asterisks: "*".repeat(10_000),
  "asterisk words": "*a ".repeat(10_000),
  backticks: "`".repeat(10_000),
  "backtick runs": Array.from({ length: 500 }, (_v, i) => "`".repeat(i % 40 + 1) + "x").join(""),
  "quote markers": ">".repeat(10_000) + " deep",
  "quote lines": Array.from({ length: 800 }, (_v, i) => ">".repeat(i % 50) + " x").join("\n"),
  parentheses: "(".repeat(10_000) + "http://a.com/" + ")".repeat(10_000),
  "url starts": "(a.co/".repeat(2_000),
  dollars: "$$".repeat(5_000),
  tildes: "~".repeat(10_000),
  "quote fences": "~~~ quote\n".repeat(1_000),
  "spoiler fences": "```spoiler\n".repeat(1_000),
  "code fences": "```\n~~~\n".repeat(1_250),
  "list nesting": Array.from({ length: 800 }, (_v, i) => " ".repeat(i % 20) + "* x").join("\n"),
  "spaced quote markers": "> ".repeat(5_000) + "deep",
  "quote with lazy lines": "> ".repeat(1_000) + "x\n" + "y\n".repeat(4_000),
  "bare quote marker lines": ">\n".repeat(5_000) + "> x",
  "quote marker staircase": Array.from({ length: 400 }, (_v, i) => "> ".repeat(i % 60) + "x").join("\n"),
  "list staircase": Array.from({ length: 700 }, (_v, i) => " ".repeat((2 * i) % 60) + "* x").join("\n"),
  "bullets on one line": "* ".repeat(5_000) + "x",
  "numbers on one line": "1. ".repeat(3_300) + "x",
  "bullets and quotes on one line": "* > ".repeat(2_500) + "x",
  "loose items": "* a\n\n".repeat(2_000),
  "loose nested items": "* a\n\n  * b\n\n".repeat(1_000),
  "item continuation lines": "* a\n" + "  b\n".repeat(2_500),
  "rules in one block": "---\n".repeat(2_500) + "# x",
  "headings in one block": "# a\n".repeat(2_500) + "---",
  "heading of hashes": "# " + "#".repeat(10_000) + "x",
  "rule-like line": "- ".repeat(5_000) + "x",
  "indented code blocks": "    x\n\n".repeat(1_500),
  "table of code spans": "|a|b|\n|-|-|\n" + "|`x|y`|\n".repeat(1_200),
  mentions: "@**".repeat(5_000),
  emoji: ":a".repeat(10_000),
  "time tags": "<time:".repeat(3_000),
  "plain lines": "x\n".repeat(10_000),
  "nested TeX groups": "$$" + "\\frac{1}{".repeat(1_000) + "x" + "}".repeat(1_000) + "$$",
  "python code": "```python\n" + "'''\"\\x(".repeat(2_000),
  "unicode emoji": "👍🏽💩".repeat(3_000),
  "table pipes": "|".repeat(10_000) + "\n" + "|-".repeat(5_000),
};

describe("hostile input stays fast", () => {
  for (const [name, input] of Object.entries(pathological)) {
    it(`${name} renders in at most 50 ms`, () => {
      render(input); // warm-up
      expect(bestCpuMs(() => render(input))).toBeLessThanOrEqual(50);
      expect(checkHtml(render(input))).toBeNull();
    });
  }
});
