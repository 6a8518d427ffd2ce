import { describe, expect, it } from "vitest";
import { renderMarkdown, type RenderContext } from "../../src/markdown/index.js";
import type { UploadPreview } from "../../src/markdown/context.js";
import { replacePlaceholders } from "../../src/markdown/previews.js";
import { linkedPathIds, sanitizeName } from "../../src/uploads/paths.js";
import { testContext } from "./markdown-fixtures.js";

const SPINNER = '<img class="image-loading-placeholder" src="/static/images/loading/loader-black.svg">';
const ready: UploadPreview = { width: 1200, height: 800, animated: false, thumbnailUrl: "/user_uploads/thumbnail/2/ab/x/a.png/840x560.webp" };

function withImages(previews: Record<string, UploadPreview>): RenderContext {
  return { ...testContext(), uploadPreview: (pathId) => previews[pathId] };
}

describe("image previews of uploads", () => {
  it("follow their paragraph, once per image, in link order", () => {
    const ctx = withImages({ "2/ab/x/a.png": ready, "2/cd/y/b.png": { width: 5, height: 6, animated: false, thumbnailUrl: null } });
    const html = renderMarkdown("two [a](/user_uploads/2/ab/x/a.png) and [b](/user_uploads/2/cd/y/b.png) then [a again](/user_uploads/2/ab/x/a.png)\n\nafter", ctx).html;
    expect(html).toBe(
      '<p>two <a href="/user_uploads/2/ab/x/a.png">a</a> and <a href="/user_uploads/2/cd/y/b.png">b</a> then <a href="/user_uploads/2/ab/x/a.png">a again</a></p>\n' +
        `<div class="message_inline_image"><a href="/user_uploads/2/ab/x/a.png" title="a"><img data-original-dimensions="1200x800" src="${ready.thumbnailUrl}"></a></div>\n` +
        `<div class="message_inline_image"><a href="/user_uploads/2/cd/y/b.png" title="b">${SPINNER}</a></div>\n<p>after</p>`,
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
