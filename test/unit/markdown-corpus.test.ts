import { describe, expect, it } from "vitest";
import { renderMarkdown, type RenderContext } from "../../src/markdown/index.js";
import { readReference, REFERENCE_VARIABLE, referenceDir } from "../harness/reference.js";
import { testContext } from "./markdown-fixtures.js";

interface Case {
  name: string;
  input: string;
  expected_output: string;
  needs?: string[];
  translate_emoticons?: boolean;
}

function loadCases(): Case[] {
  const text = readReference("markdown-cases-public.json");
  if (text === undefined) return [];
  const data: unknown = JSON.parse(text);
  if (typeof data !== "object" || data === null || !("cases" in data) || !Array.isArray(data.cases)) {
    throw new Error("unexpected corpus format");
  }
  return data.cases.filter((c: unknown): c is Case => typeof c === "object" && c !== null && "input" in c && "expected_output" in c);
}

describe("Zulip's public Markdown corpus", () => {
  // Without the reference directory there are no cases: skipped, not failed.
  if (referenceDir === undefined) it.skip(`needs ${REFERENCE_VARIABLE}`, () => {});
  for (const c of loadCases()) {
    it(c.name, () => {
      const ctx: RenderContext = { ...testContext(), translateEmoticons: c.translate_emoticons === true };
      expect(renderMarkdown(c.input, ctx).html).toBe(c.expected_output);
    });
  }
});
