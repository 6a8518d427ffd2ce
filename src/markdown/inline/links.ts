/** `[text](url "title")` links and bare URLs, by Zulip's URL rules. */
import { AutolinkScanner, localizeUrl, sanitizeUrl } from "../urls.js";
import type { InlineEnv, InlinePattern } from "./engine.js";

// Matching bracket for every `[` / `(` computed in one pass, so that deeply
// nested brackets cost linear time instead of a rescan per opener.
function matchPairs(text: string, open: string, close: string): Int32Array {
  const pairs = new Int32Array(text.length).fill(-1);
  const stack: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === open) stack.push(i);
    else if (c === close) {
      const o = stack.pop();
      if (o !== undefined) pairs[o] = i;
    }
  }
  return pairs;
}

function makeLink(env: InlineEnv, url: string, textHtml: string | null, title: string | null): string | null {
  const safe = sanitizeUrl(url);
  if (safe === null) return null;
  const href = localizeUrl(safe, env.ctx.realmUrl);
  env.found.links.push(href);
  const label = textHtml ?? env.stash.put({ kind: "text", text: href });
  const attrs: [string, string][] = [["href", href]];
  if (title !== null) attrs.push(["title", title]);
  return env.stash.put({ kind: "element", tag: "a", attrs, children: label });
}

function splitDestination(inner: string): { url: string; title: string | null } {
  const titled = /^([\s\S]*?)\s+(?:"([^"]*)"|'([^']*)')\s*$/.exec(inner);
  if (titled) return { url: (titled[1] ?? "").trim(), title: titled[2] ?? titled[3] ?? "" };
  const angled = /^<([^<>]*)>$/.exec(inner.trim());
  return { url: angled ? (angled[1] ?? "") : inner.trim(), title: null };
}

/** Markdown links; their text is shown as typed, without further formatting. */
export const linkPattern: InlinePattern = {
  name: "link",
  apply(text, env) {
    if (!text.includes("](")) return text;
    const brackets = matchPairs(text, "[", "]");
    const parens = matchPairs(text, "(", ")");
    let out = "";
    let last = 0;
    for (let i = text.indexOf("["); i !== -1 && i < text.length; i = text.indexOf("[", i + 1)) {
      if (i < last) continue;
      const close = brackets[i] ?? -1;
      if (close === -1 || text[close + 1] !== "(") continue;
      const end = parens[close + 1] ?? -1;
      if (end === -1) continue;
      const { url, title } = splitDestination(text.slice(close + 2, end));
      const label = text.slice(i + 1, close);
      // An empty label shows the URL itself.
      const link = makeLink(env, url, label.trim() === "" ? null : label, title);
      if (link === null) continue;
      out += text.slice(last, i) + link;
      last = end + 1;
      i = end;
    }
    return last === 0 ? text : out + text.slice(last);
  },
};

/** Bare URLs, `www.` hosts, domains with a known TLD, and e-mail addresses. */
export const autolinkPattern: InlinePattern = {
  name: "autolink",
  apply(text, env) {
    if (!AutolinkScanner.worthScanning(text)) return text;
    const scanner = new AutolinkScanner(text);
    let out = "";
    let last = 0;
    for (let m = scanner.next(0); m !== null; m = scanner.next(m.end)) {
      const link = makeLink(env, m.url, env.stash.put({ kind: "text", text: m.url }), null);
      if (link === null) continue;
      out += text.slice(last, m.start) + link;
      last = m.end;
    }
    return last === 0 ? text : out + text.slice(last);
  },
};
