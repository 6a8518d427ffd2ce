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
  [
    "python",
    "Python",
    ["a = \"x %s %(n)5.2f %% {} {0!r:>10} {a.b[1]} {{ }} \\\" \\x41 \\N{DASH} \\q\"", "b = r\"\\d \\\" \\\\ %s {}\" + b\"\\u1234 \\x41\" + u\"\\u1234\" + rb'\\'' + '{{}}'", "c = \"\"\"%d", "{x} \\", "\"\"\""],
    [
      "<span class=\"n\">a</span> <span class=\"o\">=</span> <span class=\"s2\">&quot;x </span><span class=\"si\">%s</span><span class=\"s2\"> </span><span class=\"si\">%(n)5.2f</span><span class=\"s2\"> </span><span class=\"si\">%%</span><span class=\"s2\"> </span><span class=\"si\">{}</span><span class=\"s2\"> </span><span class=\"si\">{0!r:&gt;10}</span><span class=\"s2\"> </span><span class=\"si\">{a.b[1]}</span><span class=\"s2\"> {{ }} </span><span class=\"se\">\\&quot;</span><span class=\"s2\"> </span><span class=\"se\">\\x41</span><span class=\"s2\"> </span><span class=\"se\">\\N{DASH}</span><span class=\"s2\"> \\q&quot;</span>",
      "<span class=\"n\">b</span> <span class=\"o\">=</span> <span class=\"sa\">r</span><span class=\"s2\">&quot;\\d </span><span class=\"se\">\\&quot;</span><span class=\"s2\"> </span><span class=\"se\">\\\\</span><span class=\"s2\"> </span><span class=\"si\">%s</span><span class=\"s2\"> </span><span class=\"si\">{}</span><span class=\"s2\">&quot;</span> <span class=\"o\">+</span> <span class=\"sa\">b</span><span class=\"s2\">&quot;\\u1234 </span><span class=\"se\">\\x41</span><span class=\"s2\">&quot;</span> <span class=\"o\">+</span> <span class=\"sa\">u</span><span class=\"s2\">&quot;</span><span class=\"se\">\\u1234</span><span class=\"s2\">&quot;</span> <span class=\"o\">+</span> <span class=\"sa\">rb</span><span class=\"s1\">&#39;</span><span class=\"se\">\\&#39;</span><span class=\"s1\">&#39;</span> <span class=\"o\">+</span> <span class=\"s1\">&#39;{{}}&#39;</span>",
      "<span class=\"n\">c</span> <span class=\"o\">=</span> <span class=\"s2\">&quot;&quot;&quot;</span><span class=\"si\">%d</span>",
      "<span class=\"si\">{x}</span><span class=\"s2\"> </span><span class=\"se\">\\</span>",
      "<span class=\"s2\">&quot;&quot;&quot;</span>",
    ],
  ],
  [
    "python",
    "Python",
    ["print('it\\'s %d%%' % 3, \"a\\", "b\")"],
    [
      "<span class=\"nb\">print</span><span class=\"p\">(</span><span class=\"s1\">&#39;it</span><span class=\"se\">\\&#39;</span><span class=\"s1\">s </span><span class=\"si\">%d%%</span><span class=\"s1\">&#39;</span> <span class=\"o\">%</span> <span class=\"mi\">3</span><span class=\"p\">,</span> <span class=\"s2\">&quot;a</span><span class=\"se\">\\</span>",
      "<span class=\"s2\">b&quot;</span><span class=\"p\">)</span>",
    ],
  ],
];

const javascript: [string, string, string[], string[]][] = [
  [
    "js",
    "JavaScript",
    ["const x = 42, y = 3.5, z = 0x1F;", "let s = `a ${b + 1} c ${`in ${d}`}`;", "function f(a) {", "  return a > 10 ? \"big\" : 'small'; // note", "}"],
    [
      "<span class=\"kd\">const</span><span class=\"w\"> </span><span class=\"nx\">x</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"mf\">42</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"nx\">y</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"mf\">3.5</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"nx\">z</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"mh\">0x1F</span><span class=\"p\">;</span>",
      "<span class=\"kd\">let</span><span class=\"w\"> </span><span class=\"nx\">s</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"sb\">`a </span><span class=\"si\">${</span><span class=\"nx\">b</span><span class=\"w\"> </span><span class=\"o\">+</span><span class=\"w\"> </span><span class=\"mf\">1</span><span class=\"si\">}</span><span class=\"sb\"> c </span><span class=\"si\">${</span><span class=\"sb\">`in </span><span class=\"si\">${</span><span class=\"nx\">d</span><span class=\"si\">}</span><span class=\"sb\">`</span><span class=\"si\">}</span><span class=\"sb\">`</span><span class=\"p\">;</span>",
      "<span class=\"kd\">function</span><span class=\"w\"> </span><span class=\"nx\">f</span><span class=\"p\">(</span><span class=\"nx\">a</span><span class=\"p\">)</span><span class=\"w\"> </span><span class=\"p\">{</span>",
      "<span class=\"w\">  </span><span class=\"k\">return</span><span class=\"w\"> </span><span class=\"nx\">a</span><span class=\"w\"> </span><span class=\"o\">&gt;</span><span class=\"w\"> </span><span class=\"mf\">10</span><span class=\"w\"> </span><span class=\"o\">?</span><span class=\"w\"> </span><span class=\"s2\">&quot;big&quot;</span><span class=\"w\"> </span><span class=\"o\">:</span><span class=\"w\"> </span><span class=\"s1\">&#39;small&#39;</span><span class=\"p\">;</span><span class=\"w\"> </span><span class=\"c1\">// note</span>",
      "<span class=\"p\">}</span>",
    ],
  ],
  [
    "js",
    "JavaScript",
    ["/* block */", "class A extends B { static m() { return new A(); } }"],
    [
      "<span class=\"cm\">/* block */</span>",
      "<span class=\"kd\">class</span><span class=\"w\"> </span><span class=\"nx\">A</span><span class=\"w\"> </span><span class=\"k\">extends</span><span class=\"w\"> </span><span class=\"nx\">B</span><span class=\"w\"> </span><span class=\"p\">{</span><span class=\"w\"> </span><span class=\"k\">static</span><span class=\"w\"> </span><span class=\"nx\">m</span><span class=\"p\">()</span><span class=\"w\"> </span><span class=\"p\">{</span><span class=\"w\"> </span><span class=\"k\">return</span><span class=\"w\"> </span><span class=\"ow\">new</span><span class=\"w\"> </span><span class=\"nx\">A</span><span class=\"p\">();</span><span class=\"w\"> </span><span class=\"p\">}</span><span class=\"w\"> </span><span class=\"p\">}</span>",
    ],
  ],
  [
    "js",
    "JavaScript",
    ["var re = /ab+c/gi, q = x / y / z;", "if (/^\\d+$/.test(s)) { a = b ? c : d; }"],
    [
      "<span class=\"kd\">var</span><span class=\"w\"> </span><span class=\"nx\">re</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"sr\">/ab+c/gi</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"nx\">q</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"nx\">x</span><span class=\"w\"> </span><span class=\"o\">/</span><span class=\"w\"> </span><span class=\"nx\">y</span><span class=\"w\"> </span><span class=\"o\">/</span><span class=\"w\"> </span><span class=\"nx\">z</span><span class=\"p\">;</span>",
      "<span class=\"k\">if</span><span class=\"w\"> </span><span class=\"p\">(</span><span class=\"sr\">/^\\d+$/</span><span class=\"p\">.</span><span class=\"nx\">test</span><span class=\"p\">(</span><span class=\"nx\">s</span><span class=\"p\">))</span><span class=\"w\"> </span><span class=\"p\">{</span><span class=\"w\"> </span><span class=\"nx\">a</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"nx\">b</span><span class=\"w\"> </span><span class=\"o\">?</span><span class=\"w\"> </span><span class=\"nx\">c</span><span class=\"w\"> </span><span class=\"o\">:</span><span class=\"w\"> </span><span class=\"nx\">d</span><span class=\"p\">;</span><span class=\"w\"> </span><span class=\"p\">}</span>",
    ],
  ],
  [
    "js",
    "JavaScript",
    ["// comment", "let big = 10n + 0b101 + 0o17 + 017 + .5e-3;", "const fn = async (...args) => { await foo?.bar ?? baz; };"],
    [
      "<span class=\"c1\">// comment</span>",
      "<span class=\"kd\">let</span><span class=\"w\"> </span><span class=\"nx\">big</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"mi\">10n</span><span class=\"w\"> </span><span class=\"o\">+</span><span class=\"w\"> </span><span class=\"mb\">0b101</span><span class=\"w\"> </span><span class=\"o\">+</span><span class=\"w\"> </span><span class=\"mo\">0o17</span><span class=\"w\"> </span><span class=\"o\">+</span><span class=\"w\"> </span><span class=\"mo\">017</span><span class=\"w\"> </span><span class=\"o\">+</span><span class=\"w\"> </span><span class=\"mf\">.5e-3</span><span class=\"p\">;</span>",
      "<span class=\"kd\">const</span><span class=\"w\"> </span><span class=\"nx\">fn</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"k\">async</span><span class=\"w\"> </span><span class=\"p\">(...</span><span class=\"nx\">args</span><span class=\"p\">)</span><span class=\"w\"> </span><span class=\"p\">=&gt;</span><span class=\"w\"> </span><span class=\"p\">{</span><span class=\"w\"> </span><span class=\"k\">await</span><span class=\"w\"> </span><span class=\"nx\">foo</span><span class=\"o\">?</span><span class=\"p\">.</span><span class=\"nx\">bar</span><span class=\"w\"> </span><span class=\"o\">??</span><span class=\"w\"> </span><span class=\"nx\">baz</span><span class=\"p\">;</span><span class=\"w\"> </span><span class=\"p\">};</span>",
    ],
  ],
  [
    "js",
    "JavaScript",
    ["label: for (const k of obj) { continue label; }", "throw new TypeError(`bad ${k}`);"],
    [
      "<span class=\"nx\">label</span><span class=\"o\">:</span><span class=\"w\"> </span><span class=\"k\">for</span><span class=\"w\"> </span><span class=\"p\">(</span><span class=\"kd\">const</span><span class=\"w\"> </span><span class=\"nx\">k</span><span class=\"w\"> </span><span class=\"k\">of</span><span class=\"w\"> </span><span class=\"nx\">obj</span><span class=\"p\">)</span><span class=\"w\"> </span><span class=\"p\">{</span><span class=\"w\"> </span><span class=\"k\">continue</span><span class=\"w\"> </span><span class=\"nx\">label</span><span class=\"p\">;</span><span class=\"w\"> </span><span class=\"p\">}</span>",
      "<span class=\"k\">throw</span><span class=\"w\"> </span><span class=\"ow\">new</span><span class=\"w\"> </span><span class=\"ne\">TypeError</span><span class=\"p\">(</span><span class=\"sb\">`bad </span><span class=\"si\">${</span><span class=\"nx\">k</span><span class=\"si\">}</span><span class=\"sb\">`</span><span class=\"p\">);</span>",
    ],
  ],
  [
    "js",
    "JavaScript",
    ["x = \"multi\\", "line\" + 'it\\'s'"],
    [
      "<span class=\"nx\">x</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"s2\">&quot;multi\\</span>",
      "<span class=\"s2\">line&quot;</span><span class=\"w\"> </span><span class=\"o\">+</span><span class=\"w\"> </span><span class=\"s1\">&#39;it\\&#39;s&#39;</span>",
    ],
  ],
  [
    "js",
    "JavaScript",
    ["const o = { a: 1, \"b\": [2, 3] }; o.a **= 2;"],
    [
      "<span class=\"kd\">const</span><span class=\"w\"> </span><span class=\"nx\">o</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"p\">{</span><span class=\"w\"> </span><span class=\"nx\">a</span><span class=\"o\">:</span><span class=\"w\"> </span><span class=\"mf\">1</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"s2\">&quot;b&quot;</span><span class=\"o\">:</span><span class=\"w\"> </span><span class=\"p\">[</span><span class=\"mf\">2</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"mf\">3</span><span class=\"p\">]</span><span class=\"w\"> </span><span class=\"p\">};</span><span class=\"w\"> </span><span class=\"nx\">o</span><span class=\"p\">.</span><span class=\"nx\">a</span><span class=\"w\"> </span><span class=\"o\">**=</span><span class=\"w\"> </span><span class=\"mf\">2</span><span class=\"p\">;</span>",
    ],
  ],
  [
    "ts",
    "TypeScript",
    ["interface P { name: string; n: number; ok?: boolean }", "function g(x: any, y: unknown): void { let v: Array<string> = []; }", "type T = string | null;", "const a: number = 1;"],
    [
      "<span class=\"kd\">interface</span><span class=\"w\"> </span><span class=\"nx\">P</span><span class=\"w\"> </span><span class=\"p\">{</span><span class=\"w\"> </span><span class=\"nx\">name</span><span class=\"o\">:</span><span class=\"w\"> </span><span class=\"kt\">string</span><span class=\"p\">;</span><span class=\"w\"> </span><span class=\"nx\">n</span><span class=\"o\">:</span><span class=\"w\"> </span><span class=\"kt\">number</span><span class=\"p\">;</span><span class=\"w\"> </span><span class=\"nx\">ok?</span><span class=\"o\">:</span><span class=\"w\"> </span><span class=\"kt\">boolean</span><span class=\"w\"> </span><span class=\"p\">}</span>",
      "<span class=\"kd\">function</span><span class=\"w\"> </span><span class=\"nx\">g</span><span class=\"p\">(</span><span class=\"nx\">x</span><span class=\"o\">:</span><span class=\"w\"> </span><span class=\"kt\">any</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"nx\">y</span><span class=\"o\">:</span><span class=\"w\"> </span><span class=\"kt\">unknown</span><span class=\"p\">)</span><span class=\"o\">:</span><span class=\"w\"> </span><span class=\"ow\">void</span><span class=\"w\"> </span><span class=\"p\">{</span><span class=\"w\"> </span><span class=\"kd\">let</span><span class=\"w\"> </span><span class=\"nx\">v</span><span class=\"o\">:</span><span class=\"w\"> </span><span class=\"kt\">Array</span><span class=\"o\">&lt;</span><span class=\"kt\">string</span><span class=\"o\">&gt;</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"p\">[];</span><span class=\"w\"> </span><span class=\"p\">}</span>",
      "<span class=\"kr\">type</span><span class=\"w\"> </span><span class=\"nx\">T</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"kt\">string</span><span class=\"w\"> </span><span class=\"o\">|</span><span class=\"w\"> </span><span class=\"kc\">null</span><span class=\"p\">;</span>",
      "<span class=\"kd\">const</span><span class=\"w\"> </span><span class=\"nx\">a</span><span class=\"o\">:</span><span class=\"w\"> </span><span class=\"kt\">number</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"mf\">1</span><span class=\"p\">;</span>",
    ],
  ],
  [
    "ts",
    "TypeScript",
    ["export abstract class C<T> implements I { private readonly x: number = 1; @dec() m(a?: string): Promise<void> {} }"],
    [
      "<span class=\"k\">export</span><span class=\"w\"> </span><span class=\"k\">abstract</span><span class=\"w\"> </span><span class=\"kd\">class</span><span class=\"w\"> </span><span class=\"nx\">C</span><span class=\"o\">&lt;</span><span class=\"nx\">T</span><span class=\"o\">&gt;</span><span class=\"w\"> </span><span class=\"k\">implements</span><span class=\"w\"> </span><span class=\"nx\">I</span><span class=\"w\"> </span><span class=\"p\">{</span><span class=\"w\"> </span><span class=\"k\">private</span><span class=\"w\"> </span><span class=\"k\">readonly</span><span class=\"w\"> </span><span class=\"nx\">x</span><span class=\"o\">:</span><span class=\"w\"> </span><span class=\"kt\">number</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"mf\">1</span><span class=\"p\">;</span><span class=\"w\"> </span><span class=\"kd\">@dec</span><span class=\"p\">()</span><span class=\"w\"> </span><span class=\"nx\">m</span><span class=\"p\">(</span><span class=\"nx\">a?</span><span class=\"o\">:</span><span class=\"w\"> </span><span class=\"kt\">string</span><span class=\"p\">)</span><span class=\"o\">:</span><span class=\"w\"> </span><span class=\"nb\">Promise</span><span class=\"o\">&lt;</span><span class=\"ow\">void</span><span class=\"o\">&gt;</span><span class=\"w\"> </span><span class=\"p\">{}</span><span class=\"w\"> </span><span class=\"p\">}</span>",
    ],
  ],
  [
    "ts",
    "TypeScript",
    ["declare module Foo { export type U = { k: boolean }; }", "enum E { A = 1, B }", "let t = cond ? a : b;"],
    [
      "<span class=\"kr\">declare</span><span class=\"w\"> </span><span class=\"kr\">module</span><span class=\"w\"> </span><span class=\"nx\">Foo</span><span class=\"w\"> </span><span class=\"p\">{</span><span class=\"w\"> </span><span class=\"k\">export</span><span class=\"w\"> </span><span class=\"kr\">type</span><span class=\"w\"> </span><span class=\"nx\">U</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"p\">{</span><span class=\"w\"> </span><span class=\"nx\">k</span><span class=\"o\">:</span><span class=\"w\"> </span><span class=\"kt\">boolean</span><span class=\"w\"> </span><span class=\"p\">};</span><span class=\"w\"> </span><span class=\"p\">}</span>",
      "<span class=\"kd\">enum</span><span class=\"w\"> </span><span class=\"nx\">E</span><span class=\"w\"> </span><span class=\"p\">{</span><span class=\"w\"> </span><span class=\"nx\">A</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"mf\">1</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"nx\">B</span><span class=\"w\"> </span><span class=\"p\">}</span>",
      "<span class=\"kd\">let</span><span class=\"w\"> </span><span class=\"nx\">t</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"nx\">cond</span><span class=\"w\"> </span><span class=\"o\">?</span><span class=\"w\"> </span><span class=\"nx\">a</span><span class=\"w\"> </span><span class=\"o\">:</span><span class=\"w\"> </span><span class=\"kt\">b</span><span class=\"p\">;</span>",
    ],
  ],
  [
    "js",
    "JavaScript",
    ["x = (/a\\", "b/g); y = [/c/gi, /d/ge]", "z = a / b / c"],
    [
      "<span class=\"nx\">x</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"p\">(</span><span class=\"sr\">/a\\</span>",
      "<span class=\"sr\">b/g</span><span class=\"p\">);</span><span class=\"w\"> </span><span class=\"nx\">y</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"p\">[</span><span class=\"sr\">/c/gi</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"err\">/d/ge]</span>",
      "<span class=\"nx\">z</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"nx\">a</span><span class=\"w\"> </span><span class=\"o\">/</span><span class=\"w\"> </span><span class=\"nx\">b</span><span class=\"w\"> </span><span class=\"o\">/</span><span class=\"w\"> </span><span class=\"nx\">c</span>",
    ],
  ],
];

describe("Python as Pygments 2.18 does: docstrings, f-strings, escapes and formatting fields", () => {
  for (const [lang, name, code, lines] of python) {
    it(`highlights ${code[0] ?? ""}`, () => {
      expect(html(`\`\`\`${lang}\n${code.join("\n")}\n\`\`\``)).toBe(
        `<div class="codehilite" data-code-language="${name}"><pre><span></span><code>${lines.join("\n")}\n</code></pre></div>`,
      );
    });
  }
});

describe("JavaScript and TypeScript as Pygments 2.18 does: whitespace, numbers, regexes, templates, types", () => {
  for (const [lang, name, code, lines] of javascript) {
    it(`highlights ${name}: ${code[0] ?? ""}`, () => {
      expect(html(`\`\`\`${lang}\n${code.join("\n")}\n\`\`\``)).toBe(
        `<div class="codehilite" data-code-language="${name}"><pre><span></span><code>${lines.join("\n")}\n</code></pre></div>`,
      );
    });
  }
});
