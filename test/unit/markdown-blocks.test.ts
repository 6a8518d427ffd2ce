import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../src/markdown/index.js";
import { testContext } from "./markdown-fixtures.js";

const html = (content: string) => renderMarkdown(content, testContext()).html;

// Block structure as Zulip builds it (Python-Markdown with Zulip's list, quote and fence rules):
// each case is one nesting shape, with the exact HTML, newlines included.
describe("Quotes", () => {
  it("nests quotes written as > > >", () => {
    expect(html("> > > x")).toBe(
      "<blockquote>\n<blockquote>\n<blockquote>\n<p>x</p>\n</blockquote>\n</blockquote>\n</blockquote>",
    );
  });

  it("nests quotes written as >>>", () => {
    expect(html(">>> x")).toBe(
      "<blockquote>\n<blockquote>\n<blockquote>\n<p>x</p>\n</blockquote>\n</blockquote>\n</blockquote>",
    );
  });

  it("keeps a quote going over a bare > line, as separate paragraphs", () => {
    expect(html("> a\n>\n> b")).toBe(
      "<blockquote>\n<p>a</p>\n<p>b</p>\n</blockquote>",
    );
  });

  it("nests a deeper quote inside the quote it continues", () => {
    expect(html("> a\n> > b")).toBe(
      "<blockquote>\n<p>a</p>\n<blockquote>\n<p>b</p>\n</blockquote>\n</blockquote>",
    );
  });

  it("continues the inner quote with lazy lines", () => {
    expect(html("> a\n> > b\n> c")).toBe(
      "<blockquote>\n<p>a</p>\n<blockquote>\n<p>b<br>\nc</p>\n</blockquote>\n</blockquote>",
    );
  });

  it("continues a quote with an unmarked line", () => {
    expect(html("> a\nb")).toBe(
      "<blockquote>\n<p>a<br>\nb</p>\n</blockquote>",
    );
  });

  it("keeps the line break of a trailing bare > line", () => {
    expect(html("> a\n>")).toBe(
      "<blockquote>\n<p>a<br>\n</p>\n</blockquote>",
    );
  });

  it("starts a quote after text in the same block", () => {
    expect(html("text\n> quote")).toBe(
      "<p>text</p>\n<blockquote>\n<p>quote</p>\n</blockquote>",
    );
  });

  it("keeps quoted fences as quotes inside quotes", () => {
    expect(html("> a\n\n~~~quote\nb\n~~~")).toBe(
      "<blockquote>\n<p>a</p>\n</blockquote>\n<blockquote>\n<p>b</p>\n</blockquote>",
    );
  });
});

describe("Lists", () => {
  it("nests bullets by two spaces, as Zulip's help shows", () => {
    expect(html("* bulleted lists\n  * with sub-bullets too\n  * sub-bullets start with 2 spaces\n    * start sub-sub-bullets with 4 spaces\n* multi\nline\nbullet\n- dashes and\n+ pluses are ok too")).toBe(
      "<ul>\n<li>bulleted lists<ul>\n<li>with sub-bullets too</li>\n<li>sub-bullets start with 2 spaces<ul>\n<li>start sub-sub-bullets with 4 spaces</li>\n</ul>\n</li>\n</ul>\n</li>\n<li>\n<p>multi<br>\nline<br>\nbullet</p>\n</li>\n<li>\n<p>dashes and</p>\n</li>\n<li>pluses are ok too</li>\n</ul>",
    );
  });

  it("treats four more spaces than the parent as item text", () => {
    expect(html("* a\n    * b")).toBe(
      "<ul>\n<li>a<br>\n    * b</li>\n</ul>",
    );
  });

  it("nests by three spaces like by two", () => {
    expect(html("* a\n   * b")).toBe(
      "<ul>\n<li>a<ul>\n<li>b</li>\n</ul>\n</li>\n</ul>",
    );
  });

  it("numbers lists and nests them by two or three spaces, as Zulip's help shows", () => {
    expect(html("1. numbered lists\n1. increment automatically\n   1. use nested lists if you like\n   3. delete or reorder lines without fixing the numbering\n1. one more\n   17. lists can start at any number\n   18. so you can continue a list after some other text")).toBe(
      "<ol>\n<li>numbered lists</li>\n<li>increment automatically<ol>\n<li>use nested lists if you like</li>\n<li>delete or reorder lines without fixing the numbering</li>\n</ol>\n</li>\n<li>one more<ol start=\"17\">\n<li>lists can start at any number</li>\n<li>so you can continue a list after some other text</li>\n</ol>\n</li>\n</ol>",
    );
  });

  it("keeps a list's start number", () => {
    expect(html("3. a\n4. b")).toBe(
      "<ol start=\"3\">\n<li>a</li>\n<li>b</li>\n</ol>",
    );
  });

  it("keeps a nested list's start number", () => {
    expect(html("1. a\n  5. b\n  6. c\n2. d")).toBe(
      "<ol>\n<li>a<ol start=\"5\">\n<li>b</li>\n<li>c</li>\n</ol>\n</li>\n<li>d</li>\n</ol>",
    );
  });

  it("nests bullets under numbers", () => {
    expect(html("1. a\n  * b\n2. c")).toBe(
      "<ol>\n<li>\n<p>a</p>\n<ul>\n<li>b</li>\n</ul>\n</li>\n<li>\n<p>c</p>\n</li>\n</ol>",
    );
  });

  it("starts a new list when the marker type changes", () => {
    expect(html("* a\n1. b")).toBe(
      "<ul>\n<li>a</li>\n</ul>\n<ol>\n<li>b</li>\n</ol>",
    );
  });

  it("makes items loose around a blank line", () => {
    expect(html("* a\n\n* b")).toBe(
      "<ul>\n<li>\n<p>a</p>\n</li>\n<li>\n<p>b</p>\n</li>\n</ul>",
    );
  });

  it("keeps a second paragraph of an item in the item", () => {
    expect(html("* a\n\n  b")).toBe(
      "<ul>\n<li>\n<p>a</p>\n<p>b</p>\n</li>\n</ul>",
    );
  });

  it("makes a nested list loose inside a tight item", () => {
    expect(html("* a\n  * b\n\n  * c")).toBe(
      "<ul>\n<li>\n<p>a</p>\n<ul>\n<li>\n<p>b</p>\n</li>\n<li>\n<p>c</p>\n</li>\n</ul>\n</li>\n</ul>",
    );
  });

  it("continues an item with an unmarked line", () => {
    expect(html("* a\nb")).toBe(
      "<ul>\n<li>a<br>\nb</li>\n</ul>",
    );
  });

  it("keeps the indent of an item's continuation line", () => {
    expect(html("* a\n  b")).toBe(
      "<ul>\n<li>a<br>\n  b</li>\n</ul>",
    );
  });

  it("puts text after a nested list into the item", () => {
    expect(html("* a\n  * b\n  c")).toBe(
      "<ul>\n<li>a<ul>\n<li>b<br>\nc</li>\n</ul>\n</li>\n</ul>",
    );
  });

  it("does not start a list indented by two spaces after text", () => {
    expect(html("a\n  * b")).toBe(
      "<p>a</p>\n<p>* b</p>",
    );
  });
});

describe("Lists with quotes and code blocks", () => {
  it("renders a list inside a quote", () => {
    expect(html("> * a\n> * b")).toBe(
      "<blockquote>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n</blockquote>",
    );
  });

  it("nests a list inside a quote by two spaces", () => {
    expect(html("> * a\n>   * b")).toBe(
      "<blockquote>\n<ul>\n<li>a<ul>\n<li>b</li>\n</ul>\n</li>\n</ul>\n</blockquote>",
    );
  });

  it("keeps list markers after quoted text as text (a lone * and the newline before it stay text)", () => {
    expect(html("> a\n> * b\n> * c")).toBe(
      "<blockquote>\n<p>a\n* b\n* c</p>\n</blockquote>",
    );
  });

  it("puts a quote in a tight list item", () => {
    expect(html("* a\n> b")).toBe(
      "<ul>\n<li>a<blockquote>\n<p>b</p>\n</blockquote>\n</li>\n</ul>",
    );
  });

  it("puts an indented quote in a list item", () => {
    expect(html("* a\n\n  > q")).toBe(
      "<ul>\n<li>\n<p>a</p>\n<blockquote>\n<p>q</p>\n</blockquote>\n</li>\n</ul>",
    );
  });

  it("ends a list before a fenced code block right after it", () => {
    expect(html("* a\n```\ncode\n```")).toBe(
      "<ul>\n<li>a</li>\n</ul>\n<div class=\"codehilite\"><pre><span></span><code>code\n</code></pre></div>",
    );
  });

  it("ends a list before a fenced code block after a blank line", () => {
    expect(html("* a\n\n```\ncode\n```\n* b")).toBe(
      "<ul>\n<li>a</li>\n</ul>\n<div class=\"codehilite\"><pre><span></span><code>code\n</code></pre></div>\n<ul>\n<li>b</li>\n</ul>",
    );
  });

  it("reads an indented fence in a list item as inline code", () => {
    expect(html("* a\n  ```\n  code\n  ```")).toBe(
      "<ul>\n<li>a<br>\n<code>\n  code\n  </code></li>\n</ul>",
    );
  });

  it("reads an indented fence in a numbered item as inline code", () => {
    expect(html("1. a\n  ```\n  code\n  ```\n2. b")).toBe(
      "<ol>\n<li>\n<p>a<br>\n<code>\n  code\n  </code></p>\n</li>\n<li>\n<p>b</p>\n</li>\n</ol>",
    );
  });
});

describe("Blocks around quotes and lists", () => {
  it("silences mentions in a list inside a quote", () => {
    const result = renderMarkdown("> * @**King Hamlet**", testContext());
    expect(result.html).toBe('<blockquote>\n<ul>\n<li><span class="user-mention silent" data-user-id="10">King Hamlet</span></li>\n</ul>\n</blockquote>');
    expect([...result.mentionedUserIds]).toEqual([]);
  });

  it("renders a block indented by four spaces as code", () => {
    expect(html("text\n\n    code\n\n    more")).toBe(
      '<p>text</p>\n<div class="codehilite"><pre><span></span><code>code\n\nmore\n</code></pre></div>',
    );
  });

  it("renders nothing for a message of blanks", () => {
    expect(html("  \n\n ")).toBe("");
  });

  it("drops a fence with nothing inside", () => {
    expect(html("a\n```quote\n```\nb")).toBe("<p>a<br>\nb</p>");
  });
});

describe("Fence lines", () => {
  it("opens no fence when what follows the backticks is no language", () => {
    expect(html("``` :::\nx")).toBe("<p>``` :::<br>\nx</p>");
  });

  it("takes a comma as part of the language", () => {
    expect(html("```c,d\nx\n```")).toBe('<div class="codehilite" data-code-language="c,d"><pre><span></span><code>x\n</code></pre></div>');
  });
});
