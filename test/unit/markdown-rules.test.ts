import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../src/markdown/index.js";
import { testContext } from "./markdown-fixtures.js";

const html = (content: string) => renderMarkdown(content, testContext()).html;

// Zulip rules that differ from CommonMark, beyond what the public corpus shows.
describe("Zulip's Markdown rules", () => {
  it("uses asterisks only for emphasis", () => {
    expect(html("_a_ __b__ *c* **d** ***e***")).toBe(
      "<p>_a_ __b__ <em>c</em> <strong>d</strong> <strong><em>e</em></strong></p>",
    );
  });

  it("shows link text as typed", () => {
    expect(html("[**x**](https://example.com)")).toBe('<p><a href="https://example.com">**x**</a></p>');
  });

  it("keeps a lone asterisk and the blanks around it as text, without a line break", () => {
    expect(html("2 * 3 = 6 *\nnext")).toBe("<p>2 * 3 = 6 *\nnext</p>");
    expect(html("a\n_ b")).toBe("<p>a\n_ b</p>");
  });

  it("does not treat 1) as a list marker", () => {
    expect(html("1) one\n2) two")).toBe("<p>1) one<br>\n2) two</p>");
  });

  it("needs text after a heading's hashes, in the first column", () => {
    expect(html("#")).toBe("<p>#</p>");
    expect(html("# Title")).toBe("<h1>Title</h1>");
  });

  it("nests lists indented by two spaces", () => {
    expect(html("1. a\n  1. b\n2. c")).toBe("<ol>\n<li>a<ol>\n<li>b</li>\n</ol>\n</li>\n<li>c</li>\n</ol>");
  });

  it("decides per item whether its text is a paragraph", () => {
    expect(html("* a\n* b\n\n* c")).toBe("<ul>\n<li>a</li>\n<li>\n<p>b</p>\n</li>\n<li>\n<p>c</p>\n</li>\n</ul>");
  });

  it("renders a block of bare > markers as text", () => {
    expect(html(">")).toBe("<p>&gt;</p>");
  });

  it("tags code blocks with Pygments' language name, even unknown ones", () => {
    expect(html("```js\nlet x = 1;\n```")).toContain('data-code-language="JavaScript"');
    expect(html("```c++\nint x;\n```")).toContain('data-code-language="C++"');
    expect(html("```mylang\nx\n```")).toBe(
      '<div class="codehilite" data-code-language="mylang"><pre><span></span><code>x\n</code></pre></div>',
    );
  });

  it("keeps text after an unclosed fence inside the code block", () => {
    expect(html("```\n**not bold**")).toBe('<div class="codehilite"><pre><span></span><code>**not bold**\n</code></pre></div>');
  });

  it("renders several display formulas from one math fence", () => {
    const out = html("```math\na\n\nb\n```");
    expect(out.startsWith('<p><span class="katex-display">')).toBe(true);
    expect(out.split('class="katex-display"').length).toBe(3);
  });

  it("marks bad TeX as an error instead of failing", () => {
    expect(html("$$\\frac{1}$$")).toBe('<p><span class="tex-error">$$\\frac{1}$$</span></p>');
  });

  it("turns emoticons into emoji only when the sender asked for it", () => {
    expect(html("hi :)")).toBe("<p>hi :)</p>");
    const translated = renderMarkdown("hi :)", { ...testContext(), translateEmoticons: true }).html;
    expect(translated).toContain('class="emoji emoji-1f642"');
  });

  it("renders custom emoji as images", () => {
    expect(html(":green_tick:")).toBe(
      '<p><img alt=":green_tick:" class="emoji" src="/user_avatars/2/emoji/images/1.png" title="green tick"></p>',
    );
  });

  it("parses global times in common formats", () => {
    expect(html("<time:2024-05-01T15:00:00+02:00>")).toBe(
      '<p><time datetime="2024-05-01T13:00:00Z">2024-05-01T15:00:00+02:00</time></p>',
    );
    expect(html("<time:July 4, 2021 3:30 PM>")).toContain('datetime="2021-07-04T15:30:00Z"');
    expect(html("<time:not a time>")).toBe('<p><span class="timestamp-error">Invalid time format: not a time</span></p>');
  });
});
