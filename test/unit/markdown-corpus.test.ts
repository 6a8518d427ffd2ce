import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { renderMarkdown, type RenderContext } from "../../src/markdown/index.js";
import { testContext } from "./markdown-fixtures.js";

interface Case {
  name: string;
  input: string;
  expected_output: string;
  needs?: string[];
  translate_emoticons?: boolean;
}

function loadCases(): Case[] {
  const path = new URL("../../../shared/reference/markdown-cases-public.json", import.meta.url);
  const data: unknown = JSON.parse(readFileSync(path, "utf8"));
  if (typeof data !== "object" || data === null || !("cases" in data) || !Array.isArray(data.cases)) {
    throw new Error("unexpected corpus format");
  }
  return data.cases.filter((c: unknown): c is Case => typeof c === "object" && c !== null && "input" in c && "expected_output" in c);
}

// Needs link previews (thumbnailed inline images), which this renderer does not produce.
const outOfScope = new Set(["spoiler_with_inline_image"]);

describe("Zulip's public Markdown corpus", () => {
  for (const c of loadCases()) {
    const run = outOfScope.has(c.name) ? it.skip : it;
    run(c.name, () => {
      const ctx: RenderContext = { ...testContext(), translateEmoticons: c.translate_emoticons === true };
      expect(renderMarkdown(c.input, ctx).html).toBe(c.expected_output);
    });
  }
});
