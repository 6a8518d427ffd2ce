/**
 * Zulip's inline model: an ordered list of patterns, each applied over the
 * whole paragraph text in turn. A match becomes a placeholder, so later
 * patterns can wrap earlier results (bold around a link) but never look inside
 * them; an element's own content is processed only by the patterns after the
 * one that made it.
 */
import type { RenderContext } from "../context.js";
import type { Collector } from "../collector.js";
import { NodeStash } from "./node.js";

/** What every pattern may read and write while processing one paragraph. */
export interface InlineEnv {
  readonly ctx: RenderContext;
  readonly stash: NodeStash;
  readonly found: Collector;
  readonly inBlockquote: boolean;
  /** Runs the patterns from `from` onwards over `text`. */
  process(text: string, from: number): string;
}

/** One inline pattern: rewrites text, turning matches into placeholders. */
export interface InlinePattern {
  readonly name: string;
  apply(text: string, env: InlineEnv, index: number): string;
}

/** A pattern defined by a global regex and a handler; null leaves the match as text. */
export function regexPattern(
  name: string,
  re: RegExp,
  handle: (m: RegExpExecArray, env: InlineEnv, index: number) => string | null,
  quickCheck?: string,
): InlinePattern {
  return {
    name,
    apply(text, env, index) {
      if (quickCheck !== undefined && !text.includes(quickCheck)) return text;
      re.lastIndex = 0;
      let out = "";
      let last = 0;
      for (let m = re.exec(text); m !== null; m = re.exec(text)) {
        if (m[0] === "") {
          re.lastIndex++;
          continue;
        }
        const replacement = handle(m, env, index);
        if (replacement === null) continue;
        out += text.slice(last, m.index) + replacement;
        last = m.index + m[0].length;
      }
      return last === 0 ? text : out + text.slice(last);
    },
  };
}

/** Renders one paragraph's raw text to HTML with the given pattern list. */
export function renderInline(
  text: string,
  patterns: readonly InlinePattern[],
  ctx: RenderContext,
  found: Collector,
  inBlockquote: boolean,
): string {
  const stash = new NodeStash();
  const env: InlineEnv = {
    ctx,
    stash,
    found,
    inBlockquote,
    process(input, from) {
      let out = input;
      for (let i = from; i < patterns.length; i++) {
        const pattern = patterns[i];
        if (pattern !== undefined) out = pattern.apply(out, env, i);
      }
      return out;
    },
  };
  return stash.toHtml(env.process(text, 0));
}
