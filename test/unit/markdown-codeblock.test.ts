/** Code blocks: the language name data-code-language shows, and the first-line language forms. */
import { describe, expect, it } from "vitest";
import { renderMarkdown } from "../../src/markdown/index.js";
import { languageName } from "../../src/markdown/highlight/index.js";
import { testContext } from "./markdown-fixtures.js";

const html = (content: string) => renderMarkdown(content, testContext()).html;

// [alias as typed, Pygments 2.18's lexer name]: find_lexer_class_by_name(alias).name.
const aliases: [string, string][] = [
  ["py2", "Python 2.x"],
  ["python2", "Python 2.x"],
  ["py", "Python"],
  ["python3", "Python"],
  ["PY3", "Python"],
  ["js", "JavaScript"],
  ["javascript", "JavaScript"],
  ["ts", "TypeScript"],
  ["c++", "C++"],
  ["cpp", "C++"],
  ["c#", "C#"],
  ["csharp", "C#"],
  ["sh", "Bash"],
  ["zsh", "Bash"],
  ["console", "Bash Session"],
  ["shell-session", "Bash Session"],
  ["ps1", "PowerShell"],
  ["text", "Text only"],
  ["md", "Markdown"],
  ["yaml", "YAML"],
  ["golang", "Go"],
  ["rs", "Rust"],
  ["objective-c", "Objective-C"],
  ["html+django", "HTML+Django/Jinja"],
  ["jinja", "Django/Jinja"],
  ["tex", "TeX"],
  ["latex", "TeX"],
  ["postgresql", "PostgreSQL SQL dialect"],
  ["psql", "PostgreSQL console (psql)"],
  ["dockerfile", "Docker"],
  ["hs", "Haskell"],
  ["elixir", "Elixir"],
  ["coq", "Coq"],
  ["jsx", "JSX"],
  ["typst", "Typst"],
  ["diff", "Diff"],
  ["json", "JSON"],
  ["toml", "TOML"],
];

describe("data-code-language", () => {
  for (const [alias, name] of aliases) {
    it(`shows ${JSON.stringify(name)} for ${alias}`, () => {
      expect(languageName(alias)).toBe(name);
      expect(html(`\`\`\`${alias}\nx\n\`\`\``)).toContain(` data-code-language="${name}"`);
    });
  }

  it("keeps a language Pygments does not know as typed, including ones newer than 2.18", () => {
    for (const lang of ["mylang", "vue", "gleam", "tsx", "yml"]) {
      expect(languageName(lang)).toBeUndefined();
      expect(html(`\`\`\`${lang}\nx\n\`\`\``)).toBe(`<div class="codehilite" data-code-language="${lang}"><pre><span></span><code>x\n</code></pre></div>`);
    }
  });
});

describe("a language named on the code's first line", () => {
  it("highlights with the :::lang or #! language, keeps the line, and records no language", () => {
    for (const first of [":::python", "::: python", "::Python", "#!/usr/bin/python3", "#!/usr/bin/env python"]) {
      const out = html(`\`\`\`\n${first}\nx = 1\n\`\`\``);
      expect(out).not.toContain("data-code-language");
      expect(out).toContain('<span class="n">x</span>');
      expect(out.toLowerCase()).toContain("python");
    }
  });

  it("ignores it when the fence names a language, or when it names none", () => {
    expect(html("```text\n:::python\nx = 1\n```")).toBe(
      '<div class="codehilite" data-code-language="Text only"><pre><span></span><code>:::python\nx = 1\n</code></pre></div>',
    );
    expect(html("```\n:::\nx = 1\n```")).toBe('<div class="codehilite"><pre><span></span><code>:::\nx = 1\n</code></pre></div>');
    expect(html("```\n: python\nx = 1\n```")).toBe('<div class="codehilite"><pre><span></span><code>: python\nx = 1\n</code></pre></div>');
  });
});
