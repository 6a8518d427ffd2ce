/** Inline math (`$$…$$`) and global times (`<time:…>`). */
import { renderTex } from "../tex.js";
import { parseTimestamp } from "../timestamp.js";
import { regexPattern, type InlineEnv, type InlinePattern } from "./engine.js";
import { placeholderClose } from "./node.js";

const notWord = String.raw`[^\p{L}\p{N}_]`;

/** `$$…$$`, which must not touch a word or another `$` on either side. */
export const texPattern: InlinePattern = regexPattern(
  "tex",
  new RegExp(String.raw`(?<!\$)(?<![\p{L}\p{N}_])\$\$([^\n_$\u0002\u0003](?:\\\$|[^$\n\u0002\u0003])*)\$\$(?!\$)(?=${notWord}|$)`, "gu"),
  (m, env) => {
    const body = m[1] ?? "";
    const html = renderTex(body, false);
    if (html !== null) return env.stash.put({ kind: "raw", html });
    const text = env.stash.put({ kind: "text", text: `$$${body}$$` });
    return env.stash.put({ kind: "element", tag: "span", attrs: [["class", "tex-error"]], children: text });
  },
  "$$",
);

function renderTime(input: string, env: InlineEnv): string {
  const iso = parseTimestamp(input, env.ctx.now?.() ?? Date.now());
  if (iso === null) {
    const text = env.stash.put({ kind: "text", text: `Invalid time format: ${input}` });
    return env.stash.put({ kind: "element", tag: "span", attrs: [["class", "timestamp-error"]], children: text });
  }
  return env.stash.put({ kind: "element", tag: "time", attrs: [["datetime", iso]], children: env.stash.put({ kind: "text", text: input }) });
}

/** `<time:…>`, rendered as a `<time>` element every client localises. */
export const timestampPattern: InlinePattern = {
  name: "timestamp",
  // A scan rather than a lazy regex: with no closing ">" a regex would rescan the rest from every "<time:".
  apply(text, env) {
    let out = "";
    let last = 0;
    for (let i = text.indexOf("<time:"); i !== -1; i = text.indexOf("<time:", last)) {
      const close = text.indexOf(">", i + 6);
      if (close === -1) break;
      // A time may not contain other markup; every "<time:" before that markup fails alike.
      const markup = text.lastIndexOf(placeholderClose, close);
      if (markup > i) {
        out += text.slice(last, markup + 1);
        last = markup + 1;
        continue;
      }
      const input = text.slice(i + 6, close);
      out += text.slice(last, i) + renderTime(input, env);
      last = close + 1;
    }
    return last === 0 ? text : out + text.slice(last);
  },
};
