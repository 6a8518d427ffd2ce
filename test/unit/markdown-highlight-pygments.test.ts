/**
 * Python, JavaScript and TypeScript (our own lexers) against Pygments 2.18, Zulip 9.0's: each
 * snippet's expected HTML is what Pygments 2.18 gives for it, one line of output per array entry.
 */
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../src/markdown/index.js";
import { testContext } from "./markdown-fixtures.js";

const html = (content: string) => renderMarkdown(content, testContext()).html;

// [fence language, Pygments' name for it, code, the highlighted lines].
const python: [string, string, string[], string[]][] = [
  [
    "python",
    "Python",
    ["def f(x):", "    \"\"\"Doc", "    more \"q\" \\n", "    end\"\"\"", "    y = f\"a{x!r:>{w}} {{b}} \\n{y}\"", "    return x"],
    [
      "<span class=\"k\">def</span> <span class=\"nf\">f</span><span class=\"p\">(</span><span class=\"n\">x</span><span class=\"p\">):</span>",
      "<span class=\"w\">    </span><span class=\"sd\">&quot;&quot;&quot;Doc</span>",
      "<span class=\"sd\">    more &quot;q&quot; \\n</span>",
      "<span class=\"sd\">    end&quot;&quot;&quot;</span>",
      "    <span class=\"n\">y</span> <span class=\"o\">=</span> <span class=\"sa\">f</span><span class=\"s2\">&quot;a</span><span class=\"si\">{</span><span class=\"n\">x</span><span class=\"si\">!r:</span><span class=\"s2\">&gt;</span><span class=\"si\">{</span><span class=\"n\">w</span><span class=\"si\">}}</span><span class=\"s2\"> </span><span class=\"se\">{{</span><span class=\"s2\">b</span><span class=\"se\">}}</span><span class=\"s2\"> </span><span class=\"se\">\\n</span><span class=\"si\">{</span><span class=\"n\">y</span><span class=\"si\">}</span><span class=\"s2\">&quot;</span>",
      "    <span class=\"k\">return</span> <span class=\"n\">x</span>",
    ],
  ],
  [
    "python",
    "Python",
    ["class A:", "    '''One", "    two'''", "    z = rf\"\\d{x}\\\"\" + F'{a[\"k\"]:>10}' + f\"{x=}\" + f\"{ {1: 2}[1] }\""],
    [
      "<span class=\"k\">class</span> <span class=\"nc\">A</span><span class=\"p\">:</span>",
      "<span class=\"w\">    </span><span class=\"sd\">&#39;&#39;&#39;One</span>",
      "<span class=\"sd\">    two&#39;&#39;&#39;</span>",
      "    <span class=\"n\">z</span> <span class=\"o\">=</span> <span class=\"sa\">rf</span><span class=\"s2\">&quot;\\d</span><span class=\"si\">{</span><span class=\"n\">x</span><span class=\"si\">}</span><span class=\"se\">\\&quot;</span><span class=\"s2\">&quot;</span> <span class=\"o\">+</span> <span class=\"sa\">F</span><span class=\"s1\">&#39;</span><span class=\"si\">{</span><span class=\"n\">a</span><span class=\"p\">[</span><span class=\"s2\">&quot;k&quot;</span><span class=\"p\">]</span><span class=\"si\">:</span><span class=\"s1\">&gt;10</span><span class=\"si\">}</span><span class=\"s1\">&#39;</span> <span class=\"o\">+</span> <span class=\"sa\">f</span><span class=\"s2\">&quot;</span><span class=\"si\">{</span><span class=\"n\">x</span><span class=\"si\">=}</span><span class=\"s2\">&quot;</span> <span class=\"o\">+</span> <span class=\"sa\">f</span><span class=\"s2\">&quot;</span><span class=\"si\">{</span><span class=\"w\"> </span><span class=\"p\">{</span><span class=\"mi\">1</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"mi\">2</span><span class=\"p\">}[</span><span class=\"mi\">1</span><span class=\"p\">]</span><span class=\"w\"> </span><span class=\"si\">}</span><span class=\"s2\">&quot;</span>",
    ],
  ],
  [
    "python",
    "Python",
    ["\"\"\"Module doc", "spanning\"\"\"", "import os"],
    [
      "<span class=\"sd\">&quot;&quot;&quot;Module doc</span>",
      "<span class=\"sd\">spanning&quot;&quot;&quot;</span>",
      "<span class=\"kn\">import</span> <span class=\"nn\">os</span>",
    ],
  ],
  [
    "python",
    "Python",
    ["s = f\"\"\"multi {x", "} line", "{y:{w}.{p}}\"\"\""],
    [
      "<span class=\"n\">s</span> <span class=\"o\">=</span> <span class=\"sa\">f</span><span class=\"s2\">&quot;&quot;&quot;multi </span><span class=\"si\">{</span><span class=\"n\">x</span>",
      "<span class=\"si\">}</span><span class=\"s2\"> line</span>",
      "<span class=\"si\">{</span><span class=\"n\">y</span><span class=\"si\">:{</span><span class=\"n\">w</span><span class=\"si\">}</span><span class=\"s2\">.</span><span class=\"si\">{</span><span class=\"n\">p</span><span class=\"si\">}}</span><span class=\"s2\">&quot;&quot;&quot;</span>",
    ],
  ],
  [
    "python",
    "Python",
    ["x = \"\"\"not a", "docstring\"\"\"", "    \"\"\"indented", "  doc\"\"\""],
    [
      "<span class=\"n\">x</span> <span class=\"o\">=</span> <span class=\"s2\">&quot;&quot;&quot;not a</span>",
      "<span class=\"s2\">docstring&quot;&quot;&quot;</span>",
      "<span class=\"w\">    </span><span class=\"sd\">&quot;&quot;&quot;indented</span>",
      "<span class=\"sd\">  doc&quot;&quot;&quot;</span>",
    ],
  ],
  [
    "python",
    "Python",
    ["t = f'{a if b else c}' + f\"{d[1:2]}\" + f\"{lambda: 1}\" + fr'\\n{x}\\''"],
    [
      "<span class=\"n\">t</span> <span class=\"o\">=</span> <span class=\"sa\">f</span><span class=\"s1\">&#39;</span><span class=\"si\">{</span><span class=\"n\">a</span><span class=\"w\"> </span><span class=\"k\">if</span><span class=\"w\"> </span><span class=\"n\">b</span><span class=\"w\"> </span><span class=\"k\">else</span><span class=\"w\"> </span><span class=\"n\">c</span><span class=\"si\">}</span><span class=\"s1\">&#39;</span> <span class=\"o\">+</span> <span class=\"sa\">f</span><span class=\"s2\">&quot;</span><span class=\"si\">{</span><span class=\"n\">d</span><span class=\"p\">[</span><span class=\"mi\">1</span><span class=\"p\">:</span><span class=\"mi\">2</span><span class=\"p\">]</span><span class=\"si\">}</span><span class=\"s2\">&quot;</span> <span class=\"o\">+</span> <span class=\"sa\">f</span><span class=\"s2\">&quot;</span><span class=\"si\">{</span><span class=\"k\">lambda</span><span class=\"si\">:</span><span class=\"s2\"> 1</span><span class=\"si\">}</span><span class=\"s2\">&quot;</span> <span class=\"o\">+</span> <span class=\"sa\">fr</span><span class=\"s1\">&#39;\\n</span><span class=\"si\">{</span><span class=\"n\">x</span><span class=\"si\">}</span><span class=\"se\">\\&#39;</span><span class=\"s1\">&#39;</span>",
    ],
  ],
];

describe("Python as Pygments 2.18 does: docstrings, f-strings", () => {
  for (const [lang, name, code, lines] of python) {
    it(`highlights ${code[0] ?? ""}`, () => {
      expect(html(`\`\`\`${lang}\n${code.join("\n")}\n\`\`\``)).toBe(
        `<div class="codehilite" data-code-language="${name}"><pre><span></span><code>${lines.join("\n")}\n</code></pre></div>`,
      );
    });
  }
});
