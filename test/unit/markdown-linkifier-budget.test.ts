import { describe, expect, it } from "vitest";
import { cpuMark, cpuMsSince } from "../../src/base/cpu-time.js";
import { emptyRenderContext, renderMarkdown, type LinkifierMatch, type RenderLinkifier } from "../../src/markdown/index.js";

/** A linkifier of "#<digits>" that spends `costMs` of CPU time on every search. */
function ticketLinkifier(costMs: number): RenderLinkifier {
  return {
    find(text, from): LinkifierMatch | null {
      const started = cpuMark();
      while (cpuMsSince(started) < costMs);
      const re = /(^|\s)(#(\d+))($|[^\p{L}\p{N}])/gu;
      re.lastIndex = from;
      const m = re.exec(text);
      return m === null ? null : { index: m.index, groups: [...m] };
    },
    url: (match) => `https://example.com/${match.groups[3] ?? ""}`,
  };
}

const ctx = (linkifiers: RenderLinkifier[], linkifierBudgetMs?: number) => ({ ...emptyRenderContext("http://chat.example.com"), linkifiers, linkifierBudgetMs });

describe("the time budget of linkifiers in one render", () => {
  it("links as usual within the budget", () => {
    const result = renderMarkdown("see #1 and #2", ctx([ticketLinkifier(0)]));
    expect(result.html).toBe('<p>see <a href="https://example.com/1">#1</a> and <a href="https://example.com/2">#2</a></p>');
    expect(result.linkifiersSkipped).toBe(false);
  });

  it("renders without any linkifier link once the searches of one render pass the budget", () => {
    const result = renderMarkdown("see #1 and #2\n\n**bold** #3", ctx([ticketLinkifier(0), ticketLinkifier(15)], 25));
    expect(result.html).toBe("<p>see #1 and #2</p>\n<p><strong>bold</strong> #3</p>");
    expect(result.links).toEqual([]);
    expect(result.linkifiersSkipped).toBe(true);
  });

  it("counts the budget per render, not per process", () => {
    const slow = ctx([ticketLinkifier(3)], 25);
    for (let i = 0; i < 6; i++) expect(renderMarkdown("#7", slow).html).toBe('<p><a href="https://example.com/7">#7</a></p>');
  });

  it("treats a search that throws as the end of linkifiers for that render", () => {
    const broken: RenderLinkifier = {
      find() {
        throw new RangeError("Maximum call stack size exceeded");
      },
      url: () => "https://example.com/",
    };
    const result = renderMarkdown("#1", ctx([ticketLinkifier(0), broken]));
    expect(result.html).toBe("<p>#1</p>");
    expect(result.linkifiersSkipped).toBe(true);
  });
});
