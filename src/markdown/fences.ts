/**
 * Zulip's fence pass, run on raw lines before block parsing: ``` and ~~~
 * blocks become code, math or spoilers (stashed HTML standing on a line of its
 * own), and quote fences become `> ` lines. Fences nest; an unclosed fence
 * runs to the end of the message.
 */

// Opening or closing fence: the fence, then optionally `.lang`/`{lang}` and, only after a
// language, a header. Zulip's language class runs from "+" to "." (so it takes commas too).
const fenceRe = /^(~{3,}|`{3,})[ ]*(?:\{?\.?([a-zA-Z0-9_+,\-./#]+)[ ]*([^ ~`][^~`]*)?\}?)?$/;
/** Fences nested deeper than this are plain text: no use, and each level costs a pass. */
export const maxFenceDepth = 10;

/** A fence line, split into its parts. */
export interface FenceLine {
  fence: string;
  lang: string;
  header: string;
}

/** Parses a fence line, or returns null. */
export function parseFence(line: string): FenceLine | null {
  const m = fenceRe.exec(line);
  if (!m) return null;
  return { fence: m[1] ?? "", lang: m[2] ?? "", header: (m[3] ?? "").trim() };
}

/** How stashed blocks are produced; the renderer supplies these. */
export interface FenceOutput {
  code(lang: string, text: string): string; // returns an HTML block
  math(text: string): string;
  /** Stores block HTML and returns the line that stands for it. */
  stash(html: string): string;
}

type Kind = "code" | "math" | "quote" | "spoiler";

interface OpenFence {
  kind: Kind;
  fence: string;
  lang: string;
  header: string;
  lines: string[];
}

function kindOf(lang: string): Kind {
  const l = lang.toLowerCase();
  if (l === "quote" || l === "quoted") return "quote";
  if (l === "spoiler") return "spoiler";
  if (l === "math") return "math";
  return "code";
}

function finish(block: OpenFence, out: FenceOutput): string[] {
  // A fence with nothing inside leaves nothing behind.
  if (block.lines.length === 0) return [];
  if (block.kind === "code") return ["", out.stash(out.code(block.lang, block.lines.join("\n"))), ""];
  if (block.kind === "math") return ["", out.stash(out.math(block.lines.join("\n"))), ""];
  if (block.kind === "quote") return [""].concat(block.lines.map((l) => "> " + l), [""]);
  return [
    "",
    out.stash('<div class="spoiler-block"><div class="spoiler-header">'),
    "",
    block.header,
    "",
    out.stash('</div><div class="spoiler-content" aria-hidden="true">'),
    "",
  ].concat(block.lines, ["", out.stash("</div></div>"), ""]);
}

/** Runs the fence pass over the message's lines. */
export function processFences(lines: readonly string[], out: FenceOutput): string[] {
  const result: string[] = [];
  const stack: OpenFence[] = [];
  const emit = (produced: string[]): void => {
    const target = stack[stack.length - 1]?.lines ?? result;
    // A loop, not push(...spread): a long block would overflow the argument limit.
    for (const l of produced) target.push(l);
  };
  for (const line of lines) {
    const top = stack[stack.length - 1];
    if (top !== undefined && (top.kind === "code" || top.kind === "math")) {
      if (line.trimEnd() === top.fence) {
        stack.pop();
        emit(finish(top, out));
      } else top.lines.push(line);
      continue;
    }
    const fence = parseFence(line);
    if (fence === null || stack.length >= maxFenceDepth) {
      emit([line]);
      continue;
    }
    if (top !== undefined && fence.lang === "" && fence.header === "" && fence.fence === top.fence) {
      stack.pop();
      emit(finish(top, out));
      continue;
    }
    stack.push({ kind: kindOf(fence.lang), fence: fence.fence, lang: fence.lang, header: fence.header, lines: [] });
  }
  while (stack.length > 0) {
    const block = stack.pop();
    if (block) emit(finish(block, out));
  }
  // Zulip's pass ends its output with a blank line unless the line before last is blank.
  if (result.length > 2 && result[result.length - 2] !== "") result.push("");
  return result;
}
