/** Bold, italic and strikethrough: asterisks only, never across lines (Zulip's regexes). */
import { regexPattern, type InlinePattern } from "./engine.js";

function wrap(tags: string[], name: string, re: RegExp, group: number): InlinePattern {
  return regexPattern(
    name,
    re,
    (m, env, index) => {
      let children = env.process(m[group] ?? "", index + 1);
      for (let t = tags.length - 1; t >= 0; t--) {
        children = env.stash.put({ kind: "element", tag: tags[t] ?? "span", attrs: [], children });
      }
      return children;
    },
    name === "del" ? "~~" : "*",
  );
}

// `^` is excluded inside single and triple asterisks, as in Zulip's own patterns.
/** `***text***`. */
export const strongEmPattern = wrap(["strong", "em"], "strong_em", /\*\*\*(?!\s)([^*^\n]+)(?<!\s)\*\*\*/g, 1);
/** `**text**`. */
export const strongPattern = wrap(["strong"], "strong", /\*\*([^\n]+?)\*\*/g, 1);
/** `*text*`. */
export const emphasisPattern = wrap(["em"], "emphasis", /\*(?!\s)([^*^\n]+)(?<!\s)\*/g, 1);
/** `~~text~~`. */
export const delPattern = wrap(["del"], "del", /(?<!~)~~([^~\n]+?)~~(?!~)/g, 1);

/**
 * A lone `*` or `_` between blanks (or at either end) is text, and so are the
 * blanks around it: a newline taken this way gives no `<br>` (Python-Markdown's
 * "not strong" rule, as Zulip keeps it).
 */
export const notStrongPattern: InlinePattern = regexPattern("not_strong", /(^|\s)[*_](\s|$)/g, (m, env) =>
  env.stash.put({ kind: "text", text: m[0] }),
);

/** Zulip's line-break rule: every newline inside a paragraph is a `<br>`. */
export const newlinePattern: InlinePattern = regexPattern(
  "nl2br",
  /\n/g,
  (_m, env) => env.stash.put({ kind: "raw", html: "<br>\n" }),
  "\n",
);
