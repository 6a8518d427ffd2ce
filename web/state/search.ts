/** Zulip's search language: a query ("channel:design -is:starred sender:me hello") to terms and back, and suggestions. */
import { canonicalOperator } from "./narrow.js";
import type { State, Term } from "./types.js";

/** Operators the search box understands (Zulip's, with synonyms). */
export const OPERATORS = ["channel", "topic", "dm", "sender", "is", "has", "near", "id", "with", "dm-including", "channels", "search"] as const;
const SYNONYMS: Record<string, string> = { stream: "channel", subject: "topic", "pm-with": "dm", from: "sender", streams: "channels" };
const IS_VALUES = ["dm", "starred", "mentioned", "unread", "alerted", "resolved", "followed", "muted"];
const HAS_VALUES = ["link", "image", "attachment", "reaction"];

function tokens(query: string): string[] {
  const out: string[] = [];
  const re = /(-?[a-z-]+:)?"([^"]*)"?|\S+/g;
  for (let m = re.exec(query); m; m = re.exec(query)) out.push(m[1] !== undefined || m[0].startsWith('"') ? `${m[1] ?? ""}${m[2] ?? ""}` : m[0]);
  return out;
}

/** A user id for "me", an email, a full name, or a numeric id; the text itself when nobody matches. */
export function personOperand(text: string, s: State): string {
  const t = text.trim().toLowerCase();
  if (t === "me") return String(s.me);
  if (/^\d+$/.test(t)) return t;
  for (const u of s.users.values()) if (u.email.toLowerCase() === t || u.full_name.toLowerCase() === t) return String(u.user_id);
  return text;
}

/** Turns a query into narrow terms; words that are not operators form one search term. */
export function parseQuery(query: string, s: State): Term[] {
  const terms: Term[] = [];
  const words: string[] = [];
  for (const token of tokens(query)) {
    const m = /^(-?)([a-z-]+):(.*)$/s.exec(token);
    const op = m ? (SYNONYMS[m[2] ?? ""] ?? m[2] ?? "") : "";
    if (!m || !(OPERATORS as readonly string[]).includes(op) || m[3] === "") {
      words.push(token);
      continue;
    }
    const negated = m[1] === "-";
    let operand = m[3] ?? "";
    if (op === "channel") {
      const found = [...s.streams.values()].find((c) => c.name.toLowerCase() === operand.toLowerCase());
      operand = found ? String(found.stream_id) : operand;
    } else if (op === "sender" || op === "dm-including") operand = personOperand(operand, s);
    else if (op === "dm") {
      const ids = operand.split(",").map((p) => personOperand(p, s));
      operand = ids.every((p) => /^\d+$/.test(p)) ? ids.join(",") : operand;
    }
    if (op === "search") words.push(operand);
    else terms.push(negated ? { operator: op, operand, negated } : { operator: op, operand });
  }
  if (words.length > 0) terms.push({ operator: "search", operand: words.join(" ") });
  return terms;
}

const quote = (v: string) => (/\s/.test(v) ? `"${v}"` : v);

/** The query text that names `terms` (what the search box shows for the open narrow). */
export function termsToQuery(terms: readonly Term[], s: State): string {
  return terms
    .map((t) => {
      const op = canonicalOperator(t.operator);
      let v = t.operand;
      if (op === "channel") v = s.streams.get(Number(v))?.name ?? v;
      else if (op === "sender" || op === "dm-including" || op === "dm") v = v.split(",").map((id) => (/^\d+$/.test(id) ? (s.users.get(Number(id))?.email ?? id) : id)).join(",");
      return op === "search" ? v : `${t.negated ? "-" : ""}${op}:${quote(v)}`;
    })
    .join(" ");
}

/** One suggestion: the full query it would make, and how to show it. */
export type Suggestion = { query: string; label: string };

/** Suggestions for what is being typed (the last word of the query). */
export function suggest(query: string, s: State, limit = 8): Suggestion[] {
  const cut = query.search(/\S*$/);
  const head = query.slice(0, cut);
  const last = query.slice(cut);
  const out: Suggestion[] = [];
  const push = (word: string, label: string) => {
    if (out.length < limit && !out.some((x) => x.query === head + word)) out.push({ query: head + word, label });
  };
  const m = /^(-?)([a-z-]+):(.*)$/.exec(last);
  if (m) {
    const neg = m[1] ?? "";
    const op = SYNONYMS[m[2] ?? ""] ?? m[2] ?? "";
    const part = (m[3] ?? "").replace(/^"/, "").toLowerCase();
    if (op === "channel") for (const c of [...s.streams.values()].sort((a, b) => a.name.localeCompare(b.name))) if (c.name.toLowerCase().includes(part)) push(`${neg}channel:${quote(c.name)} `, `${neg ? "Exclude" : "Channel"} #${c.name}`);
    if (op === "sender" || op === "dm" || op === "dm-including") {
      if ("me".startsWith(part)) push(`${neg}${op}:me `, op === "sender" ? "Sent by me" : "Direct messages with me");
      for (const u of s.users.values()) if (u.is_active && (u.full_name.toLowerCase().includes(part) || u.email.toLowerCase().includes(part))) push(`${neg}${op}:${u.email} `, `${op === "sender" ? "Sent by" : "Direct messages with"} ${u.full_name}`);
    }
    if (op === "topic") {
      const channel = parseQuery(head, s).find((t) => t.operator === "channel");
      const streamIds = channel ? [Number(channel.operand)] : [...s.subs.keys()];
      for (const id of streamIds) for (const t of s.topics.get(id)?.keys() ?? []) if (t.toLowerCase().includes(part)) push(`${neg}topic:${quote(t)} `, `Topic ${t}`);
    }
    if (op === "is") for (const v of IS_VALUES) if (v.startsWith(part)) push(`${neg}is:${v} `, `${neg ? "Not " : ""}${v === "dm" ? "direct messages" : v} messages`);
    if (op === "has") for (const v of HAS_VALUES) if (v.startsWith(part)) push(`${neg}has:${v} `, `${neg ? "Without" : "With"} ${v}s`);
    return out;
  }
  const word = last.toLowerCase();
  if (word === "") {
    for (const [q, label] of [["is:mentioned ", "Mentions"], ["is:starred ", "Starred messages"], ["is:dm ", "Direct messages"], ["is:unread ", "Unread messages"], ["sender:me ", "Sent by me"], ["has:link ", "With links"], ["has:image ", "With images"]] as const) push(q, label);
    return out;
  }
  for (const op of OPERATORS) if (op.startsWith(word)) push(`${op}:`, `${op}:`);
  for (const c of s.subs.values()) if (c.name.toLowerCase().includes(word)) push(`channel:${quote(c.name)} `, `Channel #${c.name}`);
  for (const u of s.users.values()) if (u.is_active && u.full_name.toLowerCase().includes(word)) push(`sender:${u.email} `, `Sent by ${u.full_name}`);
  return out;
}
