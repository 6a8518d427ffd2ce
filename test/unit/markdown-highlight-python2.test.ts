/** Python 2 code blocks (`py2`, `python2`): highlighted as Pygments 2.18's Python 2.x lexer does. */
import { describe, expect, it } from "vitest";
import { emptyRenderContext, renderMarkdown } from "../../src/markdown/index.js";

const html = (content: string) => renderMarkdown(content, emptyRenderContext("http://chat.example.com")).html;
const block = (code: string) => `<div class="codehilite" data-code-language="Python 2.x"><pre><span></span><code>${code}\n</code></pre></div>`;

describe("Python 2 code blocks", () => {
  it.each(["py2", "python2", "PY2", "Python2"])("```%s is highlighted, with Python 2's keywords and literals", (lang) => {
    expect(html(`\`\`\`${lang}\nprint "hi %s {x}" % name\nx = 0777 + 10L\nif x is None: exec \`y\`\n\`\`\``)).toBe(
      block(
        '<span class="k">print</span> <span class="s2">&quot;hi </span><span class="si">%s</span><span class="s2"> {x}&quot;</span> <span class="o">%</span> <span class="n">name</span>\n' +
          '<span class="n">x</span> <span class="o">=</span> <span class="mo">0777</span> <span class="o">+</span> <span class="il">10L</span>\n' +
          '<span class="k">if</span> <span class="n">x</span> <span class="ow">is</span> <span class="bp">None</span><span class="p">:</span> <span class="k">exec</span> <span class="sb">`y`</span>',
      ),
    );
  });

  it("shares Python's rules for definitions, imports, decorators, docstrings and comments", () => {
    expect(html('```py2\nfrom os import path\n@dec\ndef f(self):\n    """Doc."""\n    return xrange(3)  # c\n```')).toBe(
      block(
        '<span class="kn">from</span> <span class="nn">os</span> <span class="kn">import</span> <span class="n">path</span>\n' +
          '<span class="nd">@dec</span>\n' +
          '<span class="k">def</span> <span class="nf">f</span><span class="p">(</span><span class="bp">self</span><span class="p">):</span>\n' +
          '<span class="w">    </span><span class="sd">&quot;&quot;&quot;Doc.&quot;&quot;&quot;</span>\n' +
          '    <span class="k">return</span> <span class="nb">xrange</span><span class="p">(</span><span class="mi">3</span><span class="p">)</span>  <span class="c1"># c</span>',
      ),
    );
  });
});
