/** Highlighted code blocks are safe and fast whatever the code: escaping, hostile input, the rule dispatch. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../src/markdown/index.js";
import { firstChars } from "../../src/markdown/highlight/first-chars.js";
import { checkHtml } from "./markdown-html-check.js";
import { testContext } from "./markdown-fixtures.js";
import { bestCpuMs } from "../harness/cpu.js";

const render = (content: string) => renderMarkdown(content, testContext()).html;

// One name for each highlighted language.
const languages = ["python", "js", "ts", "tex", "json", "bash", "c", "cpp", "java", "go", "rust", "sql", "html", "xml", "css", "yaml", "ruby", "diff"];

// The code of a rendered block, tags stripped and entities decoded: it must be the code that went in.
function codeOf(html: string): string {
  const m = /^<div class="codehilite"[^>]*><pre><span><\/span><code>([\s\S]*)<\/code><\/pre><\/div>$/.exec(html);
  if (m === null) throw new Error(`not a code block: ${html.slice(0, 80)}`);
  const body = m[1] ?? "";
  for (const tag of body.matchAll(/<[^>]*>/g)) {
    if (!/^<span class="[a-zA-Z0-9 -]+">$|^<\/span>$/.test(tag[0])) throw new Error(`unexpected tag ${tag[0]}`);
  }
  return body
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
}

// The fence is longer than any run of backticks in the code, so no line of the code can close it.
function fenced(lang: string, code: string): string {
  const longest = Math.max(0, ...(code.match(/`+/g) ?? []).map((run) => run.length));
  const fence = "`".repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${code}\n${fence}`;
}

describe("highlighted code is escaped", () => {
  const hostile = [
    "</code><script>alert(1)</script>",
    "\"><img src=x onerror=alert(1)>",
    "'; </pre></div><iframe src=javascript:alert(1)>",
    "<!-- --> <![CDATA[ ]]> <?php ?> &lt; &amp;amp; &#x3c;",
    "x = \"</span><script>\" + '<b>' // </code>",
    "${'<'}script>#{'<'}/script> $(echo '<a>') `<b>`",
    "<style>a{background:url(javascript:x)}</style><script>var s = '</script>';</script>",
  ];
  for (const lang of languages) {
    it(`in ${lang}`, () => {
      for (const code of hostile) {
        const html = render(fenced(lang, code));
        expect(checkHtml(html), html).toBeNull();
        expect(html).not.toMatch(/<(?!\/?(?:span|div|pre|code)\b)/);
        expect(codeOf(html)).toBe(`${code}\n`);
      }
    });
  }

  it("for any code, in every language", () => {
    const pieces = ["<", ">", "&", "\"", "'", "`", "\\", "/", "*", "#", "$", "{", "}", "(", ")", "[", "]", ":", ";", "-", "+", "=", "@", "%",
      "!", "?", "|", ".", ",", " ", "  ", "\t", "\n", "\n\n", "x", "_a1", "9", "0x1F", "1.5e3", "if", "def", "class", "fn", "let", "SELECT",
      "true", "null", "<a href='x'>", "</a>", "<!--", "-->", "/*", "*/", "//", "#{", "${", "$(", "<<EOF", "EOF", "---", "+++", "@@", "é", "💩"];
    const code = fc.array(fc.constantFrom(...pieces), { maxLength: 40 }).map((p) => p.join(""));
    fc.assert(
      fc.property(fc.constantFrom(...languages), code, (lang, source) => {
        const html = render(fenced(lang, source));
        expect(checkHtml(html), html).toBeNull();
        // Blank lines at the ends and trailing blanks are dropped, and tabs expanded, before highlighting.
        const expected = source.replace(/\t/g, "    ");
        const lines = expected.split("\n").map((l) => l.trimEnd());
        while (lines.length > 0 && lines[0] === "") lines.shift();
        while (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
        if (lines.length > 0 && !/\t/.test(source)) expect(codeOf(html)).toBe(lines.join("\n") + "\n");
      }),
      { numRuns: 1500 },
    );
  });
});

describe("hostile code stays fast", () => {
  // A message is at most 10,000 characters; these fill one.
  const size = 10_000;
  const fill = (unit: string) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
  const inputs: Record<string, string> = {
    "nested brackets": "(".repeat(size / 6) + "[".repeat(size / 6) + "{".repeat(size / 6) + "}".repeat(size / 6) + "]".repeat(size / 6) + ")".repeat(size / 6),
    "unclosed comments": fill("/*<!--"),
    "unclosed tags": fill("<a "),
    "declarations without end": fill("ab cd ("),
    "labels": fill("a: "),
    "dashes": fill("-"),
    "interpolations": fill("\"#{${$("),
    "dotted lines": fill("x.\n"),
    "processing instructions": fill("<?\n"),
    "unclosed quotes": fill("\"'`"),
    "quotes after interpolations": fill("#{\"'`"),
    "interpolations in quotes": fill("\"#{'`"),
    "heredocs": fill("<<~A\n\"'`"),
    "percent literals": fill("%q(\"'`"),
    "slashes and quotes": fill("/\"'`"),
    "backslashes and quotes": fill("\\\"'"),
    "CDATA": fill("<![CDATA["),
    "generics": fill("a<b<"),
    "dotted words": fill("a."),
    "template literals": fill("`${`"),
    "triple quotes": fill(`'''"""`),
    "f-string fields": fill('f"{x:{(f\'\'\'{'),
    "regexes without end": fill("(/[\\"),
    "nested templates": "`${".repeat(3333),
    "names and colons": fill("a?: "),
  };
  for (const lang of languages) {
    it(`in ${lang}: a message full of hostile code renders in at most 100 ms`, () => {
      for (const [name, code] of Object.entries(inputs)) {
        const input = fenced(lang, code);
        render(input); // warm-up
        expect(bestCpuMs(() => render(input)), name).toBeLessThanOrEqual(100);
        expect(checkHtml(render(input)), name).toBeNull();
      }
    });
  }

  // Prism takes apart and re-matches greedy tokens that overlap (strings, characters, comments),
  // which cascades on a line of mixed unclosed quotes (Ruby took seconds); the languages that use
  // Prism match theirs as one token.
  it("a message of nested unclosed strings renders in at most 100 ms in Ruby", () => {
    for (const code of ["#{".repeat(2500) + "\"".repeat(5000), "\"#{".repeat(3333), "%(".repeat(5000), "\"#{%q(/'`".repeat(1000)]) {
      const input = fenced("ruby", code);
      render(input);
      expect(bestCpuMs(() => render(input))).toBeLessThanOrEqual(100);
    }
  });

  it("a 1 MB line is escaped, not highlighted, and fast", () => {
    for (const lang of languages) {
      const line = "<a b='c'>(".repeat(100_000);
      let html = "";
      expect(bestCpuMs(() => (html = render(fenced(lang, line)))), lang).toBeLessThanOrEqual(300);
      expect(html).not.toContain("<span class=");
      expect(codeOf(html)).toBe(`${line}\n`);
    }
  });
});

describe("the first-character dispatch", () => {
  // Rules of the shapes the lexers use: lookbehinds, optional prefixes, classes, words, escapes.
  const rules = [
    /(?<=^[^\S\n]*)([rRuUbB]{0,2})("""[\s\S]*?(?:"""|$))/my,
    /([rRuUbBfF]{0,2})("(?:\\.|[^"\\\n])*"?)/y,
    /(?:assert|async|await|break|continue)(?![\p{L}\p{N}_])/uy,
    /[\p{L}_][\p{L}\p{N}_]*/uy,
    /!=|==|<<|>>|:=|[-~+/*%=<>&^|.@]/y,
    /\\(?:[\\abfnrtv"']|x[a-fA-F0-9]{2,4})/y,
    /(?:\d[\d_]*\.\d*|\.\d+)(?:[eE][+-]?\d+)?j?|\d[\d_]*[eE][+-]?\d+j?/y,
    /(?<![\s\S])#!.+\n/y,
    /\b(if|fi|else)(\s*)\b/y,
    /(\.)?(?:x|y)?z+/y,
    /(?:)/y,
    /[^=\s[\]{}()$"'`\\<&|;]+/y,
    /(?:select|from)\b/iy,
    /\$\{#?/y,
    /#.*\n?/y,
    /<<-?\s*('?)\\?(\w+)[\s\S]+?\2/y,
    /(x?)\1a/y,
    /(?:.|\n)b/y,
  ];
  it("never leaves out a rule that matches", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."ab_ \n\t\"'#!.\\xyz09rRfé{}$=<>-+|@KSſ".split("")), maxLength: 12 }), (text) => {
        for (const re of rules) {
          re.lastIndex = 0;
          const m = re.exec(text);
          if (m === null || m[0] === "") continue;
          const set = firstChars(re);
          const code = text.charCodeAt(0);
          expect(code < 128 ? set.ascii[code] : set.other, `${re} on ${JSON.stringify(text)}`).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
