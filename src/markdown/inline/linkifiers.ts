/**
 * Realm linkifiers. Zulip registers them right after bare URLs and before bold (priority 45), one
 * inline pattern each in the realm's order, so an earlier linkifier's link hides its text from
 * later ones, and text already inside a link, code or a mention is never linkified.
 */
import { cpuMark, cpuMsSince } from "../../base/cpu-time.js";
import type { LinkifierMatch, RenderLinkifier } from "../context.js";
import { localizeUrl, sanitizeUrl } from "../urls.js";
import type { InlinePattern } from "./engine.js";
import { placeholderClose, placeholderOpen } from "./node.js";

/** More replacements than this in one paragraph means a pattern that keeps matching its own output. */
const MAX_STEPS = 10_000;
/**
 * CPU time one render may spend in linkifiers unless the context says otherwise. This thread's CPU
 * time, not wall time nor the process's: on a busy machine, or with other threads at work, a render
 * must not lose its links because other work ran meanwhile.
 */
const DEFAULT_BUDGET_MS = 25;

/**
 * One linkifier as an inline pattern. Like Python-Markdown, each link restarts the search from
 * the start of the paragraph (the link now a placeholder, which no linkifier can follow directly);
 * a match whose URL is refused moves the search on by the match's end. Every search's CPU time
 * counts against the render's budget: once it is spent, linkifiers stop and the render is made again
 * without them (the engine is linear-time, so one search is short).
 */
export function linkifierPattern(linkifier: RenderLinkifier, index: number): InlinePattern {
  return {
    name: `linkifier-${index}`,
    apply(text, env) {
      const found = env.found;
      const budget = env.ctx.linkifierBudgetMs ?? DEFAULT_BUDGET_MS;
      let data = text;
      let from = 0;
      for (let step = 0; step < MAX_STEPS && from <= data.length; step++) {
        if (found.linkifiersOverBudget) return text;
        const started = cpuMark();
        let m: LinkifierMatch | null;
        try {
          m = linkifier.find(data, from);
        } catch {
          m = null;
          found.linkifiersOverBudget = true;
        }
        found.linkifierMs += cpuMsSince(started);
        if (found.linkifierMs > budget) found.linkifiersOverBudget = true;
        if (m === null) break;
        const matched = m.groups[2] ?? "";
        const start = m.index + (m.groups[1] ?? "").length;
        const link = usable(matched) ? linkTo(linkifier.url(m), matched, env) : null;
        if (link === null) {
          const end = m.index + (m.groups[0] ?? "").length;
          from = end === 0 ? 1 : from + end;
          continue;
        }
        env.found.links.push(link.href);
        data = data.slice(0, start) + link.node + data.slice(start + matched.length);
        from = 0;
      }
      return data;
    },
  };
}

// An empty match would be linked again at the same place forever; one spanning earlier output
// would tear that output apart.
function usable(matched: string): boolean {
  return matched !== "" && !matched.includes(placeholderOpen) && !matched.includes(placeholderClose);
}

function linkTo(url: string, text: string, env: Parameters<InlinePattern["apply"]>[1]): { href: string; node: string } | null {
  const safe = sanitizeUrl(url);
  if (safe === null) return null;
  const href = localizeUrl(safe, env.ctx.realmUrl);
  const label = env.stash.put({ kind: "text", text });
  return { href, node: env.stash.put({ kind: "element", tag: "a", attrs: [["href", href]], children: label }) };
}
