/**
 * Zulip's block parser: Python-Markdown's model, where the message is split
 * into blocks at blank lines and each block goes to the first processor that
 * accepts it, with Zulip's choice of processors (lists nest by two spaces,
 * no setext headings, a blank line ends a quote).
 */
import { listIndentProcessor, orderedListProcessor, unorderedListProcessor } from "./lists.js";
import { codeProcessor, emptyProcessor, headingProcessor, hrProcessor, paragraphProcessor } from "./simple.js";
import { quoteProcessor } from "./quote.js";
import { tableProcessor } from "./table.js";
import { element, type BlockElement } from "./tree.js";

/** What a processor sees of the parser: the shared state stack and recursion. */
export interface BlockParser {
  /** Innermost parse state ("list", "looselist", "detabbed", "blockquote"), or undefined. */
  state(): string | undefined;
  withState(state: string, parse: () => void): void;
  /** Splits text at blank lines and parses the blocks into `parent`. */
  parseChunk(parent: BlockElement, text: string): void;
  parseBlocks(parent: BlockElement, blocks: string[]): void;
  /** Whether one more level of nesting is allowed. */
  canNest(): boolean;
}

/**
 * One block processor. `queue` holds the blocks still to parse, the next one
 * last: `run` pops it and may push back what it did not consume.
 */
export interface BlockProcessor {
  test(parser: BlockParser, parent: BlockElement, block: string): boolean;
  run(parser: BlockParser, parent: BlockElement, queue: string[]): void;
}

// In Zulip's priority order.
const processors: readonly BlockProcessor[] = [
  emptyProcessor,
  listIndentProcessor,
  codeProcessor,
  headingProcessor,
  tableProcessor,
  hrProcessor,
  orderedListProcessor,
  unorderedListProcessor,
  quoteProcessor,
  paragraphProcessor,
];

/**
 * Nesting deeper than this (quotes in quotes, lists in lists) stays text.
 * Python-Markdown stops quotes near its recursion limit in the same spirit;
 * the cap also keeps the cost of hostile input linear.
 */
const maxBlockDepth = 64;

class Parser implements BlockParser {
  private readonly states: string[] = [];
  private depth = 0;

  state(): string | undefined {
    return this.states[this.states.length - 1];
  }

  withState(state: string, parse: () => void): void {
    this.states.push(state);
    try {
      parse();
    } finally {
      this.states.pop();
    }
  }

  canNest(): boolean {
    return this.depth < maxBlockDepth;
  }

  parseChunk(parent: BlockElement, text: string): void {
    this.parseBlocks(parent, text.split("\n\n"));
  }

  parseBlocks(parent: BlockElement, blocks: string[]): void {
    const queue = blocks.reverse();
    this.depth++;
    try {
      while (queue.length > 0) {
        const block = queue[queue.length - 1] ?? "";
        const processor = processors.find((p) => p.test(this, parent, block)) ?? paragraphProcessor;
        processor.run(this, parent, queue);
      }
    } finally {
      this.depth--;
    }
  }
}

/** Parses preprocessed message lines into a block tree under a root `div`. */
export function parseBlockTree(lines: readonly string[]): BlockElement {
  const root = element("div");
  new Parser().parseChunk(root, lines.join("\n"));
  return root;
}
