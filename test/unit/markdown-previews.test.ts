import { describe, expect, it } from "vitest";
import { renderMarkdown, type RenderContext } from "../../src/markdown/index.js";
import type { UploadPreview } from "../../src/markdown/context.js";
import { replacePlaceholders } from "../../src/markdown/previews.js";
import { linkedPathIds, sanitizeName } from "../../src/uploads/paths.js";
import { testContext } from "./markdown-fixtures.js";

const SPINNER = '<img class="image-loading-placeholder" src="/static/images/loading/loader-black.svg">';
const ready: UploadPreview = { width: 1200, height: 800, animated: false, thumbnailUrl: "/user_uploads/thumbnail/2/ab/x/a.png/840x560.webp" };

function withImages(previews: Record<string, UploadPreview>): RenderContext {
  return { ...testContext(), inlineImagePreview: true, uploadPreview: (pathId) => previews[pathId] };
}

describe("image previews of uploads", () => {
  it("follow their paragraph, once per image, in link order", () => {
    const ctx = withImages({ "2/ab/x/a.png": ready, "2/cd/y/b.png": { width: 5, height: 6, animated: false, thumbnailUrl: null } });
    const html = renderMarkdown("two [a](/user_uploads/2/ab/x/a.png) and [b](/user_uploads/2/cd/y/b.png) then [a again](/user_uploads/2/ab/x/a.png)\n\nafter", ctx).html;
    expect(html).toBe(
      '<p>two <a href="/user_uploads/2/ab/x/a.png">a</a> and <a href="/user_uploads/2/cd/y/b.png">b</a> then <a href="/user_uploads/2/ab/x/a.png">a again</a></p>\n' +
        `<div class="message_inline_image"><a href="/user_uploads/2/ab/x/a.png" title="a"><img data-original-dimensions="1200x800" src="${ready.thumbnailUrl}"></a></div>` +
        `<div class="message_inline_image"><a href="/user_uploads/2/cd/y/b.png" title="b">${SPINNER}</a></div><p>after</p>`,
    );
    expect(renderMarkdown("[a](/user_uploads/2/ab/x/a.png)", ctx).hasImage).toBe(true);
  });

  it("replace a paragraph that is only the bare link, and skip files that are not images", () => {
    const ctx = withImages({ "2/ab/x/a.png": ready });
    expect(renderMarkdown("[/user_uploads/2/ab/x/a.png](/user_uploads/2/ab/x/a.png)", ctx).html).toBe(
      `<div class="message_inline_image"><a href="/user_uploads/2/ab/x/a.png"><img data-original-dimensions="1200x800" src="${ready.thumbnailUrl}"></a></div>`,
    );
    const text = renderMarkdown("[notes](/user_uploads/2/ef/z/notes.txt)", ctx);
    expect([text.html, text.hasImage]).toEqual(['<p><a href="/user_uploads/2/ef/z/notes.txt">notes</a></p>', false]);
  });

  it("are left out of messages with more than 24 links", () => {
    const ctx = withImages({ "2/ab/x/a.png": ready });
    const links = Array.from({ length: 24 }, (_, i) => `https://example.com/${i}`).join(" ");
    expect(renderMarkdown(`[a](/user_uploads/2/ab/x/a.png) ${links}`, ctx).html).not.toContain("message_inline_image");
  });

  it("lose their spinner when the thumbnail is made, or go when it cannot be", () => {
    const ctx = withImages({ "2/ab/x/a.png": { ...ready, thumbnailUrl: null } });
    const html = renderMarkdown("see [a](/user_uploads/2/ab/x/a.png)", ctx).html;
    expect(replacePlaceholders(html, "2/ab/x/a.png", { ...ready, animated: true })).toBe(
      `<p>see <a href="/user_uploads/2/ab/x/a.png">a</a></p>\n<div class="message_inline_image"><a href="/user_uploads/2/ab/x/a.png" title="a"><img data-animated="true" data-original-dimensions="1200x800" src="${ready.thumbnailUrl}"></a></div>`,
    );
    expect(replacePlaceholders(html, "2/ab/x/a.png", undefined)).toBe('<p>see <a href="/user_uploads/2/ab/x/a.png">a</a></p>');
  });
});

// Literal HTML from Zulip 9.0's own rendering tests (zerver/tests/test_markdown.py), byte for byte.
const WALLPAPER = "http://cdn.wallpapersafari.com/13/6/16eVjx.jpeg";
const WALLPAPER_PREVIEW =
  '<div class="message_inline_image"><a href="http://cdn.wallpapersafari.com/13/6/16eVjx.jpeg"><img data-src-fullsize="/thumbnail?url=http%3A%2F%2Fcdn.wallpapersafari.com%2F13%2F6%2F16eVjx.jpeg&amp;size=full" src="/thumbnail?url=http%3A%2F%2Fcdn.wallpapersafari.com%2F13%2F6%2F16eVjx.jpeg&amp;size=thumbnail"></a></div>';
const nikon = (n: string): string => `http://imaging.nikon.com/lineup/dslr/df/img/sample/img_0${n}.jpg`;
const nikonLink = (n: string): string => `<a href="${nikon(n)}">${nikon(n)}</a>`;
const nikonPreview = (n: string): string =>
  `<div class="message_inline_image"><a href="${nikon(n)}"><img data-src-fullsize="/thumbnail?url=http%3A%2F%2Fimaging.nikon.com%2Flineup%2Fdslr%2Fdf%2Fimg%2Fsample%2Fimg_0${n}.jpg&amp;size=full" src="/thumbnail?url=http%3A%2F%2Fimaging.nikon.com%2Flineup%2Fdslr%2Fdf%2Fimg%2Fsample%2Fimg_0${n}.jpg&amp;size=thumbnail"></a></div>`;
const GOOGLE = "https://www.google.com/images/srpr/logo4w.png";
const GOOGLE_PREVIEW =
  '<div class="message_inline_image"><a href="https://www.google.com/images/srpr/logo4w.png"><img data-src-fullsize="/thumbnail?url=https%3A%2F%2Fwww.google.com%2Fimages%2Fsrpr%2Flogo4w.png&amp;size=full" src="/thumbnail?url=https%3A%2F%2Fwww.google.com%2Fimages%2Fsrpr%2Flogo4w.png&amp;size=thumbnail"></a></div>';

const previewing: RenderContext = testContext();
const render = (content: string, ctx: RenderContext = previewing): string => renderMarkdown(content, ctx).html;

describe("image previews of other sites, as Zulip 9.0 renders them", () => {
  it("replace a message that is only the link, and are off with the organisation's setting", () => {
    expect(render(WALLPAPER)).toBe(WALLPAPER_PREVIEW);
    const off = renderMarkdown(WALLPAPER, { ...testContext(), inlineImagePreview: false });
    expect([off.html, off.hasImage, off.externalImages]).toEqual([`<p><a href="${WALLPAPER}">${WALLPAPER}</a></p>`, false, []]);
    const on = renderMarkdown(WALLPAPER, previewing);
    expect([on.hasImage, on.externalImages]).toEqual([true, [WALLPAPER]]);
  });

  it("follow their paragraph in link order, without newlines between them", () => {
    expect(render(`${nikon("1")}\n${nikon("2")}\n${nikon("3")}`)).toBe(
      `<p>${nikonLink("1")}<br>\n${nikonLink("2")}<br>\n${nikonLink("3")}</p>\n${nikonPreview("1")}${nikonPreview("2")}${nikonPreview("3")}`,
    );
  });

  it("skip quotes, and end each list item", () => {
    expect(render(`${nikon("1")}\n\n>${nikon("2")}\n\n* ${nikon("3")}\n* ${GOOGLE}`)).toBe(
      `${nikonPreview("1")}<blockquote>\n<p>${nikonLink("2")}</p>\n</blockquote>\n<ul>\n<li>${nikonPreview("3")}</li>\n<li>${GOOGLE_PREVIEW}</li>\n</ul>`,
    );
    expect(render(`>${WALLPAPER}\n\nAwesome!`)).toBe(`<blockquote>\n<p><a href="${WALLPAPER}">${WALLPAPER}</a></p>\n</blockquote>\n<p>Awesome!</p>`);
    expect(render(`>* ${WALLPAPER}\n\nAwesome!`)).toBe(`<blockquote>\n<ul>\n<li><a href="${WALLPAPER}">${WALLPAPER}</a></li>\n</ul>\n</blockquote>\n<p>Awesome!</p>`);
    // An item with more than the link keeps it; its preview still ends the item.
    expect(render(`* see ${GOOGLE} now`)).toBe(`<ul>\n<li>see <a href="${GOOGLE}">${GOOGLE}</a> now${GOOGLE_PREVIEW}</li>\n</ul>`);
  });

  it("keep a named link, titled with its text, and show each URL once", () => {
    expect(render(`[Logo](${GOOGLE}) and [again](${GOOGLE})\n\nthen ${GOOGLE}`)).toBe(
      `<p><a href="${GOOGLE}">Logo</a> and <a href="${GOOGLE}">again</a></p>\n${GOOGLE_PREVIEW.replace(`<a href="${GOOGLE}">`, `<a href="${GOOGLE}" title="Logo">`)}<p>then <a href="${GOOGLE}">${GOOGLE}</a></p>`,
    );
  });

  it("keep a link written without its scheme, titled with what was typed", () => {
    expect(render("www.google.com/images/srpr/logo4w.png")).toBe(
      '<p><a href="http://www.google.com/images/srpr/logo4w.png">www.google.com/images/srpr/logo4w.png</a></p>\n' +
        '<div class="message_inline_image"><a href="http://www.google.com/images/srpr/logo4w.png" title="www.google.com/images/srpr/logo4w.png"><img data-src-fullsize="/thumbnail?url=http%3A%2F%2Fwww.google.com%2Fimages%2Fsrpr%2Flogo4w.png&amp;size=full" src="/thumbnail?url=http%3A%2F%2Fwww.google.com%2Fimages%2Fsrpr%2Flogo4w.png&amp;size=thumbnail"></a></div>',
    );
  });

  it("show GitHub's raw file for a blob page, and Wikipedia's file for its file page", () => {
    expect(render("Test: https://github.com/zulip/zulip/blob/main/static/images/logo/zulip-icon-128x128.png")).toBe(
      '<p>Test: <a href="https://github.com/zulip/zulip/blob/main/static/images/logo/zulip-icon-128x128.png">https://github.com/zulip/zulip/blob/main/static/images/logo/zulip-icon-128x128.png</a></p>\n' +
        '<div class="message_inline_image"><a href="https://github.com/zulip/zulip/blob/main/static/images/logo/zulip-icon-128x128.png"><img data-src-fullsize="/thumbnail?url=https%3A%2F%2Fraw.githubusercontent.com%2Fzulip%2Fzulip%2Fmain%2Fstatic%2Fimages%2Flogo%2Fzulip-icon-128x128.png&amp;size=full" src="/thumbnail?url=https%3A%2F%2Fraw.githubusercontent.com%2Fzulip%2Fzulip%2Fmain%2Fstatic%2Fimages%2Flogo%2Fzulip-icon-128x128.png&amp;size=thumbnail"></a></div>',
    );
    expect(render("https://en.wikipedia.org/wiki/File:Wright_of_Derby,_The_Orrery.jpg")).toBe(
      '<div class="message_inline_image"><a href="https://en.wikipedia.org/wiki/Special:FilePath/File:Wright_of_Derby,_The_Orrery.jpg"><img data-src-fullsize="/thumbnail?url=https%3A%2F%2Fen.wikipedia.org%2Fwiki%2FSpecial%3AFilePath%2FFile%3AWright_of_Derby%2C_The_Orrery.jpg&amp;size=full" src="/thumbnail?url=https%3A%2F%2Fen.wikipedia.org%2Fwiki%2FSpecial%3AFilePath%2FFile%3AWright_of_Derby%2C_The_Orrery.jpg&amp;size=thumbnail"></a></div>',
    );
    expect(render("Look at the new dropbox logo: https://www.dropbox.com/static/images/home_logo.png")).toBe(
      '<p>Look at the new dropbox logo: <a href="https://www.dropbox.com/static/images/home_logo.png">https://www.dropbox.com/static/images/home_logo.png</a></p>\n' +
        '<div class="message_inline_image"><a href="https://www.dropbox.com/static/images/home_logo.png"><img data-src-fullsize="/thumbnail?url=https%3A%2F%2Fwww.dropbox.com%2Fstatic%2Fimages%2Fhome_logo.png&amp;size=full" src="/thumbnail?url=https%3A%2F%2Fwww.dropbox.com%2Fstatic%2Fimages%2Fhome_logo.png&amp;size=thumbnail"></a></div>',
    );
  });

  it("decide by the path's extension alone", () => {
    expect(render("https://example.com/a.PNG?size=2#top")).toContain('src="/thumbnail?url=https%3A%2F%2Fexample.com%2Fa.PNG%3Fsize%3D2%23top&amp;size=thumbnail"');
    for (const url of ["https://example.com/a.png/page", "https://example.com/image", "https://example.com/?file=a.png", "https://pasteboard.co/x.png"]) {
      expect(render(url)).toBe(`<p><a href="${url}">${url}</a></p>`);
    }
    // A local image is shown as it is, not through the proxy.
    expect(render("[foobar](/static/images/cute/turtle.png)")).toBe(
      '<p><a href="/static/images/cute/turtle.png">foobar</a></p>\n<div class="message_inline_image"><a href="/static/images/cute/turtle.png" title="foobar"><img src="/static/images/cute/turtle.png"></a></div>',
    );
  });

  it("encode the URL as Python's urlencode does", () => {
    expect(render("[x](https://example.com/caf%C3%A9%20(1)!.png)")).toContain(
      'src="/thumbnail?url=https%3A%2F%2Fexample.com%2Fcaf%25C3%25A9%2520%281%29%21.png&amp;size=thumbnail"',
    );
    expect(render("[x](https://example.com/é~ *.png)")).toContain('src="/thumbnail?url=https%3A%2F%2Fexample.com%2F%C3%A9~%2520%2A.png&amp;size=thumbnail"');
  });

  it("go inside a spoiler after their paragraph, and to the end of the message from anything but a paragraph or item", () => {
    expect(render("```spoiler header\nContent http://example.com/image.png\n```")).toBe(
      '<div class="spoiler-block"><div class="spoiler-header">\n<p>header</p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>Content <a href="http://example.com/image.png">http://example.com/image.png</a></p>\n<div class="message_inline_image"><a href="http://example.com/image.png"><img data-src-fullsize="/thumbnail?url=http%3A%2F%2Fexample.com%2Fimage.png&amp;size=full" src="/thumbnail?url=http%3A%2F%2Fexample.com%2Fimage.png&amp;size=thumbnail"></a></div></div></div>',
    );
    expect(render(`# ${GOOGLE}\n\nafter`)).toBe(`<h1><a href="${GOOGLE}">${GOOGLE}</a></h1>\n<p>after</p>\n${GOOGLE_PREVIEW}`);
    const titled = GOOGLE_PREVIEW.replace(`<a href="${GOOGLE}">`, `<a href="${GOOGLE}" title="logo">`);
    expect(render(`**[logo](${GOOGLE})**\n\nafter`)).toBe(`<p><strong><a href="${GOOGLE}">logo</a></strong></p>\n<p>after</p>\n${titled}`);
    // Breadth first, as Zulip walks the tree: the paragraph's own link comes before the bold one.
    expect(render(`**[logo](${GOOGLE})**\n\n${GOOGLE}`)).toBe(`<p><strong><a href="${GOOGLE}">logo</a></strong></p>\n${GOOGLE_PREVIEW}`);
  });

  it("are left out of messages with more than 24 previewable links (quoted ones not counted)", () => {
    const images = Array.from({ length: 23 }, (_, i) => `http://cdn.wallpapersafari.com/${i}/6/16eVjx.jpeg`);
    const within = ["```spoiler Check out this PyCon video\nhttps://www.youtube.com/watch?v=0c46YHS3RY8\n```", "> http://cdn.wallpapersafari.com/spoiler/dont_count.jpeg\n", ...images].join("\n");
    expect(render(within).match(/class="message_inline_image"/g)?.length).toBe(23);
    expect(render(`${within}\nhttp://cdn.wallpapersafari.com/above/0/6/16eVjx.jpeg`)).not.toContain("message_inline_image");
  });

  it("mix with uploads in link order", () => {
    const ctx = { ...withImages({ "2/ab/x/a.png": ready }) };
    expect(render(`[a](/user_uploads/2/ab/x/a.png) ${GOOGLE}`, ctx)).toBe(
      `<p><a href="/user_uploads/2/ab/x/a.png">a</a> <a href="${GOOGLE}">${GOOGLE}</a></p>\n` +
        `<div class="message_inline_image"><a href="/user_uploads/2/ab/x/a.png" title="a"><img data-original-dimensions="1200x800" src="${ready.thumbnailUrl}"></a></div>${GOOGLE_PREVIEW}`,
    );
    expect(render("[a](/user_uploads/2/ab/x/a.png)", { ...ctx, inlineImagePreview: false })).toBe('<p><a href="/user_uploads/2/ab/x/a.png">a</a></p>');
  });
});

describe("upload names and links", () => {
  it("sanitises names as Zulip's sanitize_name does", () => {
    expect(sanitizeName("hello world!.txt")).toBe("hello-world.txt");
    expect(sanitizeName("a -- b")).toBe("a-b");
    expect(sanitizeName("...")).toBe("...");
    expect(sanitizeName("<>")).toBe("uploaded-file");
    expect(sanitizeName("ｆｕｌｌ.png")).toBe("full.png");
  });

  it("finds the uploads a message links, relative or on this server", () => {
    const realm = "http://zulip.testserver";
    expect(linkedPathIds(["/user_uploads/2/ab/x/a.png", "user_uploads/2/cd/y/b.txt", `${realm}/user_uploads/2/ab/x/a.png`, "https://other.example/user_uploads/2/q/r/s", "/user_uploads/../etc"], realm)).toEqual([
      "2/ab/x/a.png",
      "2/cd/y/b.txt",
    ]);
  });
});
