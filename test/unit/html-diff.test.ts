import { describe, expect, it } from "vitest";
import { highlightHtmlDifferences } from "../../src/algorithms/html-diff/diff.js";

const ins = (text: string) => `<span class="highlight_text_inserted">${text}</span>`;
const del = (text: string) => `<span class="highlight_text_deleted">${text}</span>`;

describe("highlightHtmlDifferences (content_html_diff)", () => {
  it.each([
    ["a changed word: the insertion first, then the deletion", "<p>content before edit</p>", "<p>content after edit</p>", `<div><p>content ${ins("after")} ${del("before")} edit</p></div>`],
    ["a changed paragraph: each marker moved inside its paragraph", "<p>Hello!</p>", "<p>Howdy!</p>", `<div><p>${ins("Howdy!")}</p> <p>${del("Hello!")}</p></div>`],
    [
      "paragraphs joined into lines",
      "<p>content before edit, line 1</p>\n<p>content before edit, line 3</p>",
      "<p>content before edit, line 1<br>\ncontent after edit, line 2<br>\ncontent before edit, line 3</p>",
      `<div><p>content before edit, line 1<br> content ${ins("after edit, line 2<br> content")} before edit, line 3</p></div>`,
    ],
    ["nothing on either side", "", "", "<div></div>"],
    [
      "a link's new target, named as a word",
      '<p>Here is a link to <a href="http://www.zulip.org">zulip</a>.</p>',
      '<p>Here is a link to <a href="http://www.zulipchat.com">zulip</a>.</p>',
      `<div><p>Here is a link to <a href="http://www.zulipchat.com">zulip ${ins(" Link: http://www.zulipchat.com .")} ${del(" Link: http://www.zulip.org .")} </a></p></div>`,
    ],
  ])("%s (Zulip's own expectations)", (_name, before, after, expected) => {
    expect(highlightHtmlDifferences(before, after)).toBe(expected);
  });

  // Expectations computed with lxml's htmldiff (the version Zulip 9.0 uses) on our renderer's output.
  it.each([
    ['<ul>\n<li>café <strong>of "quoted"</strong></li>\n</ul>', '<p>café "quoted"**</p>', `<div><p>café ${ins('"quoted"**')} </p> ${del('<strong>of "quoted"</strong>')}</div>`],
    [
      '<ul>\n<li><strong>x the</strong> x</li>\n<li>"quoted"</li>\n</ul>',
      "<p>zulip * <strong>x the</strong> x<br>\n*</p>",
      `<div><p> ${ins("zulip *")} <strong>x the</strong> x ${ins("<br> *")} </p> <li>${del('"quoted"')}</li></div>`,
    ],
    [
      "<ul>\n<li><code>zulip</code> zulip <strong>zulip gamma</strong> x</li>\n</ul>",
      "<ul>\n<li><code>zulip</code> zulip **zulip x</li>\n</ul>",
      `<div><ul><li><code>zulip</code> zulip ${ins("**zulip x")} ${del("<strong>zulip gamma</strong> x")} </li> </ul></div>`,
    ],
  ])("%j → %j", (before, after, expected) => {
    expect(highlightHtmlDifferences(before, after)).toBe(expected);
  });

  it("leaves strikethrough out, as lxml drops <del> and <ins> before diffing", () => {
    expect(highlightHtmlDifferences("<p><del>old</del> text</p>", "<p><del>new</del> text</p>")).toBe(`<div><p> ${ins("new")} ${del("old")} text</p></div>`);
  });

  it("writes link targets percent-encoded, as libxml2 does", () => {
    expect(highlightHtmlDifferences('<p><a href="https://example.com/é">x</a></p>', '<p><a href="https://example.com/é">x</a> y</p>')).toBe(
      `<div><p><a href="https://example.com/%C3%A9">x</a> ${ins("y")} </p></div>`,
    );
  });
});
