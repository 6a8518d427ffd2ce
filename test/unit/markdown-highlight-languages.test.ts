/**
 * Highlighting for the languages Prism tokenizes (and Bash and CSS): each snippet's expected HTML is
 * what Pygments 2.18 (Zulip 9.0's) gives for it, one line of output per array entry.
 */
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../src/markdown/index.js";
import { languageName, lexerFor } from "../../src/markdown/highlight/index.js";
import { pygmentsLanguages } from "../../src/markdown/highlight/languages.js";
import { testContext } from "./markdown-fixtures.js";

const html = (content: string) => renderMarkdown(content, testContext()).html;

// [fence language, Pygments' name for it, code, the highlighted lines]. Tabs are expanded to four
// spaces before highlighting, as Zulip's Markdown does.
const cases: [string, string, string[], string[]][] = [
  [
    "json",
    "JSON",
    [
      "{\"name\": \"rookery\", \"tags\": [\"a\", \"b\"],",
      " \"n\": -1.5e3, \"ok\": true, \"none\": null}",
    ],
    [
      "<span class=\"p\">{</span><span class=\"nt\">&quot;name&quot;</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"s2\">&quot;rookery&quot;</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"nt\">&quot;tags&quot;</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"p\">[</span><span class=\"s2\">&quot;a&quot;</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"s2\">&quot;b&quot;</span><span class=\"p\">],</span>",
      "<span class=\"w\"> </span><span class=\"nt\">&quot;n&quot;</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"mf\">-1.5e3</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"nt\">&quot;ok&quot;</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"kc\">true</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"nt\">&quot;none&quot;</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"kc\">null</span><span class=\"p\">}</span>",
    ],
  ],
  [
    "bash",
    "Bash",
    [
      "#!/bin/bash",
      "# build",
      "export DIR=\"$(dirname \"$0\")\"",
      "for f in *.txt; do",
      "  echo \"file: $f\" | grep -v '^#' >> out.log",
      "done",
    ],
    [
      "<span class=\"ch\">#!/bin/bash</span>",
      "<span class=\"c1\"># build</span>",
      "<span class=\"nb\">export</span><span class=\"w\"> </span><span class=\"nv\">DIR</span><span class=\"o\">=</span><span class=\"s2\">&quot;</span><span class=\"k\">$(</span>dirname<span class=\"w\"> </span><span class=\"s2\">&quot;</span><span class=\"nv\">$0</span><span class=\"s2\">&quot;</span><span class=\"k\">)</span><span class=\"s2\">&quot;</span>",
      "<span class=\"k\">for</span><span class=\"w\"> </span>f<span class=\"w\"> </span><span class=\"k\">in</span><span class=\"w\"> </span>*.txt<span class=\"p\">;</span><span class=\"w\"> </span><span class=\"k\">do</span>",
      "<span class=\"w\">  </span><span class=\"nb\">echo</span><span class=\"w\"> </span><span class=\"s2\">&quot;file: </span><span class=\"nv\">$f</span><span class=\"s2\">&quot;</span><span class=\"w\"> </span><span class=\"p\">|</span><span class=\"w\"> </span>grep<span class=\"w\"> </span>-v<span class=\"w\"> </span><span class=\"s1\">&#39;^#&#39;</span><span class=\"w\"> </span>&gt;&gt;<span class=\"w\"> </span>out.log",
      "<span class=\"k\">done</span>",
    ],
  ],
  [
    "c",
    "C",
    [
      "#include <stdio.h>",
      "",
      "/* entry */",
      "int main(int argc, char **argv) {",
      "    printf(\"%d\\n\", argc);",
      "    return 0;",
      "}",
    ],
    [
      "<span class=\"cp\">#include</span><span class=\"w\"> </span><span class=\"cpf\">&lt;stdio.h&gt;</span>",
      "",
      "<span class=\"cm\">/* entry */</span>",
      "<span class=\"kt\">int</span><span class=\"w\"> </span><span class=\"nf\">main</span><span class=\"p\">(</span><span class=\"kt\">int</span><span class=\"w\"> </span><span class=\"n\">argc</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"kt\">char</span><span class=\"w\"> </span><span class=\"o\">**</span><span class=\"n\">argv</span><span class=\"p\">)</span><span class=\"w\"> </span><span class=\"p\">{</span>",
      "<span class=\"w\">    </span><span class=\"n\">printf</span><span class=\"p\">(</span><span class=\"s\">&quot;%d</span><span class=\"se\">\\n</span><span class=\"s\">&quot;</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"n\">argc</span><span class=\"p\">);</span>",
      "<span class=\"w\">    </span><span class=\"k\">return</span><span class=\"w\"> </span><span class=\"mi\">0</span><span class=\"p\">;</span>",
      "<span class=\"p\">}</span>",
    ],
  ],
  [
    "cpp",
    "C++",
    [
      "#include <vector>",
      "",
      "namespace app {",
      "class Stack {",
      "public:",
      "    void push(int x) { items_.push_back(x); }",
      "private:",
      "    std::vector<int> items_;",
      "};",
      "}",
    ],
    [
      "<span class=\"cp\">#include</span><span class=\"w\"> </span><span class=\"cpf\">&lt;vector&gt;</span>",
      "",
      "<span class=\"k\">namespace</span><span class=\"w\"> </span><span class=\"nn\">app</span><span class=\"w\"> </span><span class=\"p\">{</span>",
      "<span class=\"k\">class</span><span class=\"w\"> </span><span class=\"nc\">Stack</span><span class=\"w\"> </span><span class=\"p\">{</span>",
      "<span class=\"k\">public</span><span class=\"o\">:</span>",
      "<span class=\"w\">    </span><span class=\"kt\">void</span><span class=\"w\"> </span><span class=\"n\">push</span><span class=\"p\">(</span><span class=\"kt\">int</span><span class=\"w\"> </span><span class=\"n\">x</span><span class=\"p\">)</span><span class=\"w\"> </span><span class=\"p\">{</span><span class=\"w\"> </span><span class=\"n\">items_</span><span class=\"p\">.</span><span class=\"n\">push_back</span><span class=\"p\">(</span><span class=\"n\">x</span><span class=\"p\">);</span><span class=\"w\"> </span><span class=\"p\">}</span>",
      "<span class=\"k\">private</span><span class=\"o\">:</span>",
      "<span class=\"w\">    </span><span class=\"n\">std</span><span class=\"o\">::</span><span class=\"n\">vector</span><span class=\"o\">&lt;</span><span class=\"kt\">int</span><span class=\"o\">&gt;</span><span class=\"w\"> </span><span class=\"n\">items_</span><span class=\"p\">;</span>",
      "<span class=\"p\">};</span>",
      "<span class=\"p\">}</span>",
    ],
  ],
  [
    "java",
    "Java",
    [
      "import java.util.List;",
      "",
      "public class Greeter {",
      "    @Override",
      "    public String greet(String name) {",
      "        return \"Hello, \" + name; // greet",
      "    }",
      "}",
    ],
    [
      "<span class=\"kn\">import</span><span class=\"w\"> </span><span class=\"nn\">java.util.List</span><span class=\"p\">;</span>",
      "",
      "<span class=\"kd\">public</span><span class=\"w\"> </span><span class=\"kd\">class</span> <span class=\"nc\">Greeter</span><span class=\"w\"> </span><span class=\"p\">{</span>",
      "<span class=\"w\">    </span><span class=\"nd\">@Override</span>",
      "<span class=\"w\">    </span><span class=\"kd\">public</span><span class=\"w\"> </span><span class=\"n\">String</span><span class=\"w\"> </span><span class=\"nf\">greet</span><span class=\"p\">(</span><span class=\"n\">String</span><span class=\"w\"> </span><span class=\"n\">name</span><span class=\"p\">)</span><span class=\"w\"> </span><span class=\"p\">{</span>",
      "<span class=\"w\">        </span><span class=\"k\">return</span><span class=\"w\"> </span><span class=\"s\">&quot;Hello, &quot;</span><span class=\"w\"> </span><span class=\"o\">+</span><span class=\"w\"> </span><span class=\"n\">name</span><span class=\"p\">;</span><span class=\"w\"> </span><span class=\"c1\">// greet</span>",
      "<span class=\"w\">    </span><span class=\"p\">}</span>",
      "<span class=\"p\">}</span>",
    ],
  ],
  [
    "go",
    "Go",
    [
      "package main",
      "",
      "import \"fmt\"",
      "",
      "func main() {",
      "\tx := []int{1, 2}",
      "\tfmt.Println(len(x), nil)",
      "}",
    ],
    [
      "<span class=\"kn\">package</span><span class=\"w\"> </span><span class=\"nx\">main</span>",
      "",
      "<span class=\"kn\">import</span><span class=\"w\"> </span><span class=\"s\">&quot;fmt&quot;</span>",
      "",
      "<span class=\"kd\">func</span><span class=\"w\"> </span><span class=\"nx\">main</span><span class=\"p\">()</span><span class=\"w\"> </span><span class=\"p\">{</span>",
      "<span class=\"w\">    </span><span class=\"nx\">x</span><span class=\"w\"> </span><span class=\"o\">:=</span><span class=\"w\"> </span><span class=\"p\">[]</span><span class=\"kt\">int</span><span class=\"p\">{</span><span class=\"mi\">1</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"mi\">2</span><span class=\"p\">}</span>",
      "<span class=\"w\">    </span><span class=\"nx\">fmt</span><span class=\"p\">.</span><span class=\"nx\">Println</span><span class=\"p\">(</span><span class=\"nb\">len</span><span class=\"p\">(</span><span class=\"nx\">x</span><span class=\"p\">),</span><span class=\"w\"> </span><span class=\"kc\">nil</span><span class=\"p\">)</span>",
      "<span class=\"p\">}</span>",
    ],
  ],
  [
    "rust",
    "Rust",
    [
      "use std::fmt;",
      "",
      "#[derive(Debug)]",
      "struct Point { x: f64 }",
      "",
      "fn main() {",
      "    let p = Point { x: 1.0 };",
      "    println!(\"{:?}\", p); // show",
      "}",
    ],
    [
      "<span class=\"k\">use</span><span class=\"w\"> </span><span class=\"n\">std</span><span class=\"p\">::</span><span class=\"n\">fmt</span><span class=\"p\">;</span>",
      "",
      "<span class=\"cp\">#[derive(Debug)]</span>",
      "<span class=\"k\">struct</span><span class=\"w\"> </span><span class=\"nc\">Point</span><span class=\"w\"> </span><span class=\"p\">{</span><span class=\"w\"> </span><span class=\"n\">x</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"kt\">f64</span><span class=\"w\"> </span><span class=\"p\">}</span>",
      "",
      "<span class=\"k\">fn</span><span class=\"w\"> </span><span class=\"nf\">main</span><span class=\"p\">()</span><span class=\"w\"> </span><span class=\"p\">{</span>",
      "<span class=\"w\">    </span><span class=\"kd\">let</span><span class=\"w\"> </span><span class=\"n\">p</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"n\">Point</span><span class=\"w\"> </span><span class=\"p\">{</span><span class=\"w\"> </span><span class=\"n\">x</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"mf\">1.0</span><span class=\"w\"> </span><span class=\"p\">};</span>",
      "<span class=\"w\">    </span><span class=\"fm\">println!</span><span class=\"p\">(</span><span class=\"s\">&quot;{:?}&quot;</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"n\">p</span><span class=\"p\">);</span><span class=\"w\"> </span><span class=\"c1\">// show</span>",
      "<span class=\"p\">}</span>",
    ],
  ],
  [
    "sql",
    "SQL",
    [
      "-- users",
      "SELECT id, COUNT(*) AS n",
      "FROM users WHERE name = 'x' AND age > 21",
      "GROUP BY id;",
    ],
    [
      "<span class=\"c1\">-- users</span>",
      "<span class=\"k\">SELECT</span><span class=\"w\"> </span><span class=\"n\">id</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"k\">COUNT</span><span class=\"p\">(</span><span class=\"o\">*</span><span class=\"p\">)</span><span class=\"w\"> </span><span class=\"k\">AS</span><span class=\"w\"> </span><span class=\"n\">n</span>",
      "<span class=\"k\">FROM</span><span class=\"w\"> </span><span class=\"n\">users</span><span class=\"w\"> </span><span class=\"k\">WHERE</span><span class=\"w\"> </span><span class=\"n\">name</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"s1\">&#39;x&#39;</span><span class=\"w\"> </span><span class=\"k\">AND</span><span class=\"w\"> </span><span class=\"n\">age</span><span class=\"w\"> </span><span class=\"o\">&gt;</span><span class=\"w\"> </span><span class=\"mi\">21</span>",
      "<span class=\"k\">GROUP</span><span class=\"w\"> </span><span class=\"k\">BY</span><span class=\"w\"> </span><span class=\"n\">id</span><span class=\"p\">;</span>",
    ],
  ],
  [
    "html",
    "HTML",
    [
      "<!DOCTYPE html>",
      "<div class=\"box\" id='main'>",
      "  <p>Hi &amp; bye</p><br/>",
      "  <!-- note -->",
      "</div>",
    ],
    [
      "<span class=\"cp\">&lt;!DOCTYPE html&gt;</span>",
      "<span class=\"p\">&lt;</span><span class=\"nt\">div</span> <span class=\"na\">class</span><span class=\"o\">=</span><span class=\"s\">&quot;box&quot;</span> <span class=\"na\">id</span><span class=\"o\">=</span><span class=\"s\">&#39;main&#39;</span><span class=\"p\">&gt;</span>",
      "  <span class=\"p\">&lt;</span><span class=\"nt\">p</span><span class=\"p\">&gt;</span>Hi <span class=\"ni\">&amp;amp;</span> bye<span class=\"p\">&lt;/</span><span class=\"nt\">p</span><span class=\"p\">&gt;&lt;</span><span class=\"nt\">br</span><span class=\"p\">/&gt;</span>",
      "  <span class=\"cm\">&lt;!-- note --&gt;</span>",
      "<span class=\"p\">&lt;/</span><span class=\"nt\">div</span><span class=\"p\">&gt;</span>",
    ],
  ],
  [
    "xml",
    "XML",
    [
      "<?xml version=\"1.0\"?>",
      "<config debug=\"true\">",
      "  <item>x &lt; y</item>",
      "  <empty/>",
      "</config>",
    ],
    [
      "<span class=\"cp\">&lt;?xml version=&quot;1.0&quot;?&gt;</span>",
      "<span class=\"nt\">&lt;config</span><span class=\"w\"> </span><span class=\"na\">debug=</span><span class=\"s\">&quot;true&quot;</span><span class=\"nt\">&gt;</span>",
      "<span class=\"w\">  </span><span class=\"nt\">&lt;item&gt;</span>x<span class=\"w\"> </span><span class=\"ni\">&amp;lt;</span><span class=\"w\"> </span>y<span class=\"nt\">&lt;/item&gt;</span>",
      "<span class=\"w\">  </span><span class=\"nt\">&lt;empty/&gt;</span>",
      "<span class=\"nt\">&lt;/config&gt;</span>",
    ],
  ],
  [
    "css",
    "CSS",
    [
      "/* theme */",
      ".box > a:hover, #main {",
      "  color: #fff;",
      "  margin: 0 10px;",
      "  font-family: \"Helvetica\", sans-serif;",
      "}",
      "@media (max-width: 600px) { p { display: none; } }",
    ],
    [
      "<span class=\"c\">/* theme */</span>",
      "<span class=\"p\">.</span><span class=\"nc\">box</span><span class=\"w\"> </span><span class=\"o\">&gt;</span><span class=\"w\"> </span><span class=\"nt\">a</span><span class=\"p\">:</span><span class=\"nd\">hover</span><span class=\"o\">,</span><span class=\"w\"> </span><span class=\"p\">#</span><span class=\"nn\">main</span><span class=\"w\"> </span><span class=\"p\">{</span>",
      "<span class=\"w\">  </span><span class=\"k\">color</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"mh\">#fff</span><span class=\"p\">;</span>",
      "<span class=\"w\">  </span><span class=\"k\">margin</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"mi\">0</span><span class=\"w\"> </span><span class=\"mi\">10</span><span class=\"kt\">px</span><span class=\"p\">;</span>",
      "<span class=\"w\">  </span><span class=\"k\">font-family</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"s2\">&quot;Helvetica&quot;</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"kc\">sans-serif</span><span class=\"p\">;</span>",
      "<span class=\"p\">}</span>",
      "<span class=\"p\">@</span><span class=\"k\">media</span><span class=\"w\"> </span><span class=\"o\">(</span><span class=\"nt\">max-width</span><span class=\"o\">:</span><span class=\"w\"> </span><span class=\"nt\">600px</span><span class=\"o\">)</span><span class=\"w\"> </span><span class=\"p\">{</span><span class=\"w\"> </span><span class=\"nt\">p</span><span class=\"w\"> </span><span class=\"p\">{</span><span class=\"w\"> </span><span class=\"k\">display</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"kc\">none</span><span class=\"p\">;</span><span class=\"w\"> </span><span class=\"p\">}</span><span class=\"w\"> </span><span class=\"p\">}</span>",
    ],
  ],
  [
    "yaml",
    "YAML",
    [
      "# config",
      "name: app",
      "version: 1.2",
      "list: [a, b]",
      "steps:",
      "  - run: npm test",
      "    env: {CI: \"true\"}",
      "text: |",
      "  line one",
      "  line two",
    ],
    [
      "<span class=\"c1\"># config</span>",
      "<span class=\"nt\">name</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"l l-Scalar l-Scalar-Plain\">app</span>",
      "<span class=\"nt\">version</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"l l-Scalar l-Scalar-Plain\">1.2</span>",
      "<span class=\"nt\">list</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"p p-Indicator\">[</span><span class=\"nv\">a</span><span class=\"p p-Indicator\">,</span><span class=\"w\"> </span><span class=\"nv\">b</span><span class=\"p p-Indicator\">]</span>",
      "<span class=\"nt\">steps</span><span class=\"p\">:</span>",
      "<span class=\"w\">  </span><span class=\"p p-Indicator\">-</span><span class=\"w\"> </span><span class=\"nt\">run</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"l l-Scalar l-Scalar-Plain\">npm test</span>",
      "<span class=\"w\">    </span><span class=\"nt\">env</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"p p-Indicator\">{</span><span class=\"nt\">CI</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"s\">&quot;true&quot;</span><span class=\"p p-Indicator\">}</span>",
      "<span class=\"nt\">text</span><span class=\"p\">:</span><span class=\"w\"> </span><span class=\"p p-Indicator\">|</span>",
      "<span class=\"w\">  </span><span class=\"no\">line one</span>",
      "<span class=\"w\">  </span><span class=\"no\">line two</span>",
    ],
  ],
  [
    "ruby",
    "Ruby",
    [
      "require 'json'",
      "",
      "class User < Base",
      "  attr_reader :name",
      "",
      "  def greet(other)",
      "    puts \"Hi #{other.name}!\" if @name",
      "  end",
      "end",
    ],
    [
      "<span class=\"nb\">require</span><span class=\"w\"> </span><span class=\"s1\">&#39;json&#39;</span>",
      "",
      "<span class=\"k\">class</span><span class=\"w\"> </span><span class=\"nc\">User</span><span class=\"w\"> </span><span class=\"o\">&lt;</span><span class=\"w\"> </span><span class=\"no\">Base</span>",
      "<span class=\"w\">  </span><span class=\"kp\">attr_reader</span><span class=\"w\"> </span><span class=\"ss\">:name</span>",
      "",
      "<span class=\"w\">  </span><span class=\"k\">def</span><span class=\"w\"> </span><span class=\"nf\">greet</span><span class=\"p\">(</span><span class=\"n\">other</span><span class=\"p\">)</span>",
      "<span class=\"w\">    </span><span class=\"nb\">puts</span><span class=\"w\"> </span><span class=\"s2\">&quot;Hi </span><span class=\"si\">#{</span><span class=\"n\">other</span><span class=\"o\">.</span><span class=\"n\">name</span><span class=\"si\">}</span><span class=\"s2\">!&quot;</span><span class=\"w\"> </span><span class=\"k\">if</span><span class=\"w\"> </span><span class=\"vi\">@name</span>",
      "<span class=\"w\">  </span><span class=\"k\">end</span>",
      "<span class=\"k\">end</span>",
    ],
  ],
  [
    "diff",
    "Diff",
    [
      "diff --git a/x.py b/x.py",
      "index 1234567..89abcde 100644",
      "--- a/x.py",
      "+++ b/x.py",
      "@@ -1,3 +1,3 @@",
      " import os",
      "-x = 1",
      "+x = 2",
    ],
    [
      "<span class=\"gh\">diff --git a/x.py b/x.py</span>",
      "<span class=\"gh\">index 1234567..89abcde 100644</span>",
      "<span class=\"gd\">--- a/x.py</span>",
      "<span class=\"gi\">+++ b/x.py</span>",
      "<span class=\"gu\">@@ -1,3 +1,3 @@</span>",
      "<span class=\"w\"> </span>import os",
      "<span class=\"gd\">-x = 1</span>",
      "<span class=\"gi\">+x = 2</span>",
    ],
  ],
];

// Strings, characters and comments inside one another: whichever starts first wins.
const nested: [string, string, string[], string[]][] = [
  [
    "c",
    "C",
    [
      "char *a = \"/* no */ // no\"; // \"no\"",
      "char b = '\"', c = '\\''; /* 'x' \"y\" */",
      "puts(\"it's\");",
    ],
    [
      "<span class=\"kt\">char</span><span class=\"w\"> </span><span class=\"o\">*</span><span class=\"n\">a</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"s\">&quot;/* no */ // no&quot;</span><span class=\"p\">;</span><span class=\"w\"> </span><span class=\"c1\">// &quot;no&quot;</span>",
      "<span class=\"kt\">char</span><span class=\"w\"> </span><span class=\"n\">b</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"sc\">&#39;&quot;&#39;</span><span class=\"p\">,</span><span class=\"w\"> </span><span class=\"n\">c</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"sc\">&#39;\\&#39;&#39;</span><span class=\"p\">;</span><span class=\"w\"> </span><span class=\"cm\">/* &#39;x&#39; &quot;y&quot; */</span>",
      "<span class=\"n\">puts</span><span class=\"p\">(</span><span class=\"s\">&quot;it&#39;s&quot;</span><span class=\"p\">);</span>",
    ],
  ],
  [
    "java",
    "Java",
    [
      "String a = \"/* no */\"; // \"no\"",
      "char b = '\"'; /* 'x' \"y\" */",
      "String c = \"it's \\\"q\\\"\";",
    ],
    [
      "<span class=\"n\">String</span><span class=\"w\"> </span><span class=\"n\">a</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"s\">&quot;/* no */&quot;</span><span class=\"p\">;</span><span class=\"w\"> </span><span class=\"c1\">// &quot;no&quot;</span>",
      "<span class=\"kt\">char</span><span class=\"w\"> </span><span class=\"n\">b</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"sc\">&#39;&quot;&#39;</span><span class=\"p\">;</span><span class=\"w\"> </span><span class=\"cm\">/* &#39;x&#39; &quot;y&quot; */</span>",
      "<span class=\"n\">String</span><span class=\"w\"> </span><span class=\"n\">c</span><span class=\"w\"> </span><span class=\"o\">=</span><span class=\"w\"> </span><span class=\"s\">&quot;it&#39;s \\&quot;q\\&quot;&quot;</span><span class=\"p\">;</span>",
    ],
  ],
  [
    "go",
    "Go",
    [
      "a := \"/* no */ `x`\" // \"no\"",
      "b := '\"' /* 'x' */",
      "c := `raw \"s\" 'r'`",
    ],
    [
      "<span class=\"nx\">a</span><span class=\"w\"> </span><span class=\"o\">:=</span><span class=\"w\"> </span><span class=\"s\">&quot;/* no */ `x`&quot;</span><span class=\"w\"> </span><span class=\"c1\">// &quot;no&quot;</span>",
      "<span class=\"nx\">b</span><span class=\"w\"> </span><span class=\"o\">:=</span><span class=\"w\"> </span><span class=\"sc\">&#39;&quot;&#39;</span><span class=\"w\"> </span><span class=\"cm\">/* &#39;x&#39; */</span>",
      "<span class=\"nx\">c</span><span class=\"w\"> </span><span class=\"o\">:=</span><span class=\"w\"> </span><span class=\"s\">`raw &quot;s&quot; &#39;r&#39;`</span>",
    ],
  ],
];

describe("highlighting as Pygments does", () => {
  for (const [lang, name, code, lines] of [...cases, ...nested]) {
    it(`highlights ${name}: ${code[0] ?? ""}`, () => {
      expect(html(`\`\`\`${lang}\n${code.join("\n")}\n\`\`\``)).toBe(
        `<div class="codehilite" data-code-language="${name}"><pre><span></span><code>${lines.join("\n")}\n</code></pre></div>`,
      );
    });
  }
});

// Every alias Pygments gives each of these languages, from the alias table.
function aliasesOf(name: string): string[] {
  const line = pygmentsLanguages.split("\n").find((l) => l.startsWith(`${name}|`));
  return line === undefined ? [] : line.slice(name.length + 1).split(" ");
}

describe("aliases", () => {
  it("knows the aliases Pygments 2.18 has for these languages", () => {
    const all = Object.fromEntries(cases.map(([, name]) => [name, aliasesOf(name)]));
    expect(all).toEqual({
      JSON: ["json", "json-object"],
      Bash: ["bash", "sh", "ksh", "zsh", "shell", "openrc"],
      C: ["c"],
      "C++": ["cpp", "c++"],
      Java: ["java"],
      Go: ["go", "golang"],
      Rust: ["rust", "rs"],
      SQL: ["sql"],
      HTML: ["html"],
      XML: ["xml"],
      CSS: ["css"],
      YAML: ["yaml"],
      Ruby: ["ruby", "rb", "duby"],
      Diff: ["diff", "udiff"],
    });
  });

  for (const [lang, name, code, lines] of cases) {
    it(`highlights ${name} under each of its aliases, in any case`, () => {
      for (const alias of [...aliasesOf(name), lang.toUpperCase()]) {
        expect(lexerFor(alias)?.name, alias).toBe(name);
        expect(languageName(alias), alias).toBe(name);
        expect(html(`\`\`\`${alias}\n${code.join("\n")}\n\`\`\``), alias).toBe(
          `<div class="codehilite" data-code-language="${name}"><pre><span></span><code>${lines.join("\n")}\n</code></pre></div>`,
        );
      }
    });
  }

  it("leaves languages it does not highlight as escaped text, still named", () => {
    for (const [lang, name] of [
      ["kotlin", "Kotlin"],
      ["haskell", "Haskell"],
      ["console", "Bash Session"],
      ["jsonld", "JSON-LD"],
    ]) {
      expect(lexerFor(lang ?? "")).toBeUndefined();
      expect(html(`\`\`\`${lang}\nif (a < b) { "x" }\n\`\`\``)).toBe(
        `<div class="codehilite" data-code-language="${name}"><pre><span></span><code>if (a &lt; b) { &quot;x&quot; }\n</code></pre></div>`,
      );
    }
    expect(html("```nosuchlang\n<b>&\n```")).toBe('<div class="codehilite" data-code-language="nosuchlang"><pre><span></span><code>&lt;b&gt;&amp;\n</code></pre></div>');
  });
});
