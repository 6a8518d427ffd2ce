/**
 * Typeahead for the compose text (Zulip's syntax: @**Name**, @_**Name**, @*group*, #**channel**,
 * #**channel>topic**, :emoji:) and for the recipient fields. Suggestions are computed from the state;
 * the popup is a listbox the keyboard drives.
 */
import type { EmojiEntry } from "../../api/emoji.js";
import type { State } from "../../state/types.js";
import { sameOrigin } from "../avatar.js";
import { emojiChar } from "../format.js";

export type Suggestion = { key: string; label: string; detail?: string; insert: string; icon?: { kind: "img" | "char"; value: string } };
export type Found = { start: number; items: Suggestion[] };

const LIMIT = 8;

const rank = (name: string, q: string): number => {
  const n = name.toLowerCase();
  if (q === "") return 1;
  if (n.startsWith(q)) return 0;
  if (n.split(/[\s_-]+/).some((w) => w.startsWith(q))) return 1;
  return n.includes(q) ? 2 : -1;
};

function best<T>(items: Iterable<T>, q: string, names: (t: T) => string[]): T[] {
  const scored: [number, string, T][] = [];
  for (const t of items) {
    let r = -1;
    for (const n of names(t)) {
      const x = rank(n, q);
      if (x >= 0 && (r < 0 || x < r)) r = x;
    }
    if (r >= 0) scored.push([r, names(t)[0] ?? "", t]);
  }
  scored.sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]));
  return scored.slice(0, LIMIT).map((x) => x[2]);
}

/** People you can mention or write to (active, not yourself unless asked). */
export function matchPeople(s: State, q: string, includeMe = true): Suggestion[] {
  const people = [...s.users.values()].filter((u) => u.is_active && (includeMe || u.user_id !== s.me));
  const dup = new Map<string, number>();
  for (const u of people) dup.set(u.full_name, (dup.get(u.full_name) ?? 0) + 1);
  return best(people, q.toLowerCase(), (u) => [u.full_name, u.email]).map((u) => ({
    key: `u${u.user_id}`,
    label: u.full_name,
    detail: u.email,
    insert: (dup.get(u.full_name) ?? 0) > 1 ? `${u.full_name}|${u.user_id}` : u.full_name,
    // Zulip's system bots' pictures are at /static/images/ paths this server does not have.
    icon: sameOrigin(u.avatar_url) && !u.avatar_url.includes("/static/images/") ? { kind: "img", value: u.avatar_url } : { kind: "char", value: u.is_bot ? "🤖" : "👤" },
  }));
}

export function matchChannels(s: State, q: string): Suggestion[] {
  const pool = s.subs.size > 0 ? [...s.subs.values(), ...[...s.streams.values()].filter((x) => !s.subs.has(x.stream_id))] : [...s.streams.values()];
  return best(pool, q.toLowerCase(), (c) => [c.name]).map((c) => ({ key: `c${c.stream_id}`, label: c.name, detail: c.description, insert: c.name, icon: { kind: "char", value: c.invite_only ? "🔒" : "#" } }));
}

export function matchTopics(topics: readonly string[], q: string): Suggestion[] {
  return best(topics, q.toLowerCase(), (t) => [t]).map((t) => ({ key: `t${t}`, label: t === "" ? "general chat" : t, insert: t }));
}

function matchEmoji(s: State, unicode: readonly EmojiEntry[], q: string): Suggestion[] {
  const custom = Object.entries(s.realmEmoji)
    .filter(([, e]) => e.deactivated !== true)
    .map(([id, e]) => ({ name: String(e.name), code: id, url: String(e.source_url), aliases: [String(e.name)] }));
  const all: { name: string; aliases: string[]; code: string; url?: string }[] = [...custom, ...unicode];
  return best(all, q.toLowerCase(), (e) => e.aliases).map((e) => ({ key: `e${e.code}`, label: `:${e.name}:`, insert: `:${e.name}:`, icon: e.url ? { kind: "img", value: e.url } : { kind: "char", value: emojiChar(e.code) } }));
}

/**
 * The suggestions for the text before the caret, with where the replaced token starts; null when the
 * caret is not in a mention, channel, topic or emoji token. `topicsOf` gives a channel's known topics.
 */
export function suggest(s: State, before: string, unicode: readonly EmojiEntry[], topicsOf: (streamId: number) => string[]): Found | null {
  let m = /(?:^|[\s(])#\*\*([^*>\n]+)>([^*\n]{0,60})$/.exec(before);
  if (m) {
    const name = m[1] ?? "";
    const channel = [...s.streams.values()].find((c) => c.name.toLowerCase() === name.toLowerCase());
    if (!channel) return null;
    const start = before.length - m[0].length + (m[0].startsWith("#") ? 0 : 1);
    const items = matchTopics(topicsOf(channel.stream_id), m[2] ?? "").map((t) => ({ ...t, insert: `#**${channel.name}>${t.insert}** ` }));
    return items.length ? { start, items } : null;
  }
  m = /(?:^|[\s(])#(?:\*\*)?([^#*>\n]{0,40})$/.exec(before);
  if (m) {
    const start = before.lastIndexOf("#");
    const items = matchChannels(s, m[1] ?? "").map((c) => ({ ...c, insert: `#**${c.insert}** ` }));
    return items.length ? { start, items } : null;
  }
  m = /(?:^|[\s(])@(_?)(?:\*\*?)?([^@*\n]{0,40})$/.exec(before);
  if (m) {
    const silent = m[1] ?? "";
    const q = (m[2] ?? "").trimStart();
    const start = before.lastIndexOf("@");
    const people = matchPeople(s, q).map((p) => ({ ...p, insert: `@${silent}**${p.insert}** ` }));
    const groups = best(
      [...s.groups.values()].filter((g) => !g.is_system_group),
      q.toLowerCase(),
      (g) => [g.name],
    ).map((g) => ({ key: `g${g.id}`, label: g.name, detail: `${g.description} (group)`, insert: `@${silent}*${g.name}* `, icon: { kind: "char" as const, value: "👥" } }));
    const wildcards = silent ? [] : ["all", "everyone", "channel", "topic"].filter((w) => q !== "" && w.startsWith(q.toLowerCase())).map((w) => ({ key: `w${w}`, label: w, detail: w === "topic" ? "Notify topic" : "Notify channel", insert: `@**${w}** ` }));
    const items = [...people, ...groups, ...wildcards].slice(0, LIMIT);
    return items.length ? { start, items } : null;
  }
  m = /(?:^|[\s(]):([a-z0-9_+-]{2,30})$/i.exec(before);
  if (m) {
    const items = matchEmoji(s, unicode, m[1] ?? "").map((e) => ({ ...e, insert: `${e.insert} ` }));
    return items.length ? { start: before.length - (m[1] ?? "").length - 1, items } : null;
  }
  return null;
}

/** The suggestion list under (or above) a field. */
export function TypeaheadList({ id, items, active, onPick }: { id: string; items: Suggestion[]; active: number; onPick: (s: Suggestion) => void }) {
  return (
    <ul class="typeahead" id={id} role="listbox">
      {items.map((it, i) => (
        <li
          key={it.key}
          id={`${id}-${i}`}
          role="option"
          aria-selected={i === active}
          class={i === active ? "active" : ""}
          onMouseDown={(e) => {
            e.preventDefault();
            onPick(it);
          }}
        >
          {it.icon?.kind === "img" ? <img src={it.icon.value} alt="" width={20} height={20} /> : it.icon ? <span class="icon">{it.icon.value}</span> : null}
          <span class="label">{it.label}</span>
          {it.detail ? <span class="detail">{it.detail}</span> : null}
        </li>
      ))}
    </ul>
  );
}
