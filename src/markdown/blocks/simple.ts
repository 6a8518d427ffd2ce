/** The one-block processors: blank lines, indented code, headings, rules, paragraphs. */
import type { BlockProcessor } from "./parser.js";
import { codeOf, dedentLines, element, isBlank, lastChild } from "./tree.js";

const codeIndent = "    ";

function pop(queue: string[]): string {
  return queue.pop() ?? "";
}

/** A block that is empty or starts with a blank line; blank lines inside indented code are kept. */
export const emptyProcessor: BlockProcessor = {
  test: (_p, _parent, block) => block === "" || block.startsWith("\n"),
  run(_p, parent, queue) {
    const block = pop(queue);
    let filler = "\n\n";
    if (block !== "") {
      filler = "\n";
      const rest = block.slice(1);
      if (rest !== "") queue.push(rest);
    }
    const code = codeOf(lastChild(parent));
    if (code) code.text += filler;
  },
};

// Splits off the leading lines indented by four spaces (or blank).
function detab(block: string): [string, string] {
  const lines = block.split("\n");
  const taken: string[] = [];
  for (const line of lines) {
    if (line.startsWith(codeIndent)) taken.push(line.slice(codeIndent.length));
    else if (isBlank(line)) taken.push("");
    else break;
  }
  return [taken.join("\n"), lines.slice(taken.length).join("\n")];
}

/** Lines indented by four spaces are code (Zulip keeps Python-Markdown's indented code blocks). */
export const codeProcessor: BlockProcessor = {
  test: (_p, _parent, block) => block.startsWith(codeIndent),
  run(_p, parent, queue) {
    const [code, rest] = detab(pop(queue));
    const previous = codeOf(lastChild(parent));
    if (previous) previous.text = `${previous.text}\n${code.trimEnd()}\n`;
    else element("code", element("pre", parent), `${code.trimEnd()}\n`);
    if (rest !== "") queue.push(rest);
  },
};

interface Found {
  start: number;
  end: number;
}

/**
 * Finds the first `#{1,6}` heading line: hashes in the first column, then a
 * whitespace character (possibly the newline, so the heading text is then
 * the next line), then text up to the line's end minus any closing hashes.
 * A backslash escapes the next character; a line ending in a lone backslash
 * is no heading.
 */
function findHeading(block: string): (Found & { level: number; text: string }) | null {
  for (let line = 0; line < block.length; ) {
    const next = block.indexOf("\n", line);
    const found = headingAt(block, line);
    if (found) return found;
    if (next === -1) break;
    line = next + 1;
  }
  return null;
}

function headingAt(block: string, at: number): (Found & { level: number; text: string }) | null {
  let hashes = 0;
  while (block[at + hashes] === "#") hashes++;
  const space = block[at + hashes];
  if (hashes < 1 || hashes > 6 || space === undefined || !/\s/.test(space)) return null;
  const textStart = at + hashes + 1;
  let pos = textStart;
  for (;;) {
    let end = pos;
    while (block[end] === "#") end++;
    if (end === block.length) return { start: Math.max(0, at - 1), end, level: hashes, text: block.slice(textStart, pos).trim() };
    if (block[end] === "\n") return { start: Math.max(0, at - 1), end: end + 1, level: hashes, text: block.slice(textStart, pos).trim() };
    // The run of hashes is text after all; go on after it.
    pos = end;
    if (block[pos] === "\\") {
      const escaped = block[pos + 1];
      if (escaped === undefined || escaped === "\n") return null;
      pos += 2;
    } else pos++;
  }
}

/** `# Heading` anywhere in a block: the lines before and after are blocks of their own. */
export const headingProcessor: BlockProcessor = {
  test: (_p, _parent, block) => block.includes("#") && findHeading(block) !== null,
  run(parser, parent, queue) {
    const block = pop(queue);
    const h = findHeading(block);
    if (!h) return;
    const before = block.slice(0, h.start);
    const after = block.slice(h.end);
    if (before !== "") parser.parseBlocks(parent, [before]);
    element(`h${h.level}`, parent, h.text);
    // In a later item of a loose list the lines after the heading are still indented (Python-Markdown 3.6).
    if (after !== "") queue.push(parser.state() === "looselist" ? dedentLines(after, codeIndent) : after);
  },
};

/** A thematic break line: three or more of one of `-`, `_`, `*`, at most two spaces between. */
function isRuleLine(line: string): boolean {
  let i = 0;
  while (line[i] === " ") i++;
  const mark = line[i];
  if (i > 3 || (mark !== "-" && mark !== "_" && mark !== "*")) return false;
  let end = line.length;
  while (end > i && line[end - 1] === " ") end--;
  let marks = 0;
  let gap = 0;
  for (const ch of line.slice(i, end)) {
    if (ch === mark) {
      marks++;
      gap = 0;
    } else if (ch === " " && ++gap <= 2) continue;
    else return false;
  }
  return marks >= 3;
}

function findRule(block: string): Found | null {
  for (let start = 0; start < block.length; ) {
    const newline = block.indexOf("\n", start);
    const end = newline === -1 ? block.length : newline;
    // Cheap first look: at most three spaces, then a rule character.
    let i = start;
    while (i < end && i - start < 4 && block[i] === " ") i++;
    const c = block[i];
    if (i - start < 4 && (c === "-" || c === "_" || c === "*") && isRuleLine(block.slice(start, end))) return { start, end };
    start = end + 1;
  }
  return null;
}

/** A rule line anywhere in a block splits it. */
export const hrProcessor: BlockProcessor = {
  test: (_p, _parent, block) => findRule(block) !== null,
  run(parser, parent, queue) {
    const block = pop(queue);
    const rule = findRule(block);
    if (!rule) return;
    const before = block.slice(0, rule.start).replace(/\n+$/, "");
    if (before !== "") parser.parseBlocks(parent, [before]);
    element("hr", parent);
    const after = block.slice(rule.end).replace(/^\n+/, "");
    if (after !== "") queue.push(after);
  },
};

/**
 * Everything else is a paragraph; inside a tight list item the text goes
 * straight into the item (or after its last child) instead.
 */
export const paragraphProcessor: BlockProcessor = {
  test: () => true,
  run(parser, parent, queue) {
    const block = pop(queue);
    if (isBlank(block)) return;
    if (parser.state() !== "list") {
      element("p", parent, block.trimStart());
      return;
    }
    const sibling = lastChild(parent);
    if (sibling) sibling.tail = sibling.tail === "" ? `\n${block}` : `${sibling.tail}\n${block}`;
    else parent.text = parent.text === "" ? block.trimStart() : `${parent.text}\n${block}`;
  },
};
