/** Narrows: Zulip's #narrow/... URLs to search terms and back, the API's narrow parameter, and matching a message locally. */
import { dmKeyIds, dmKeyOf } from "./conversation.js";
import type { Message, State, Term } from "./types.js";

/** What the middle of the screen shows. A "feed" is a message list; terms [] is the combined feed. */
export type Route = { view: "inbox" } | { view: "recent" } | { view: "drafts" } | { view: "channels" } | { view: "feed"; terms: Term[] } | { view: "settings" | "organization"; section: string; id?: number };

const replacements: Record<string, string> = { "%": ".", "(": ".28", ")": ".29", ".": ".2E" };

/** Zulip's hash encoding: percent-encoding with "." in place of "%" (browsers decode % in fragments). */
export function encodeHashComponent(s: string): string {
  return encodeURIComponent(s).replace(/[%().]/g, (c) => replacements[c] ?? c);
}

export function decodeHashComponent(s: string): string {
  return decodeURIComponent(s.replace(/\./g, "%"));
}

const slug = (name: string) => name.replace(/ /g, "-");
const channelOperators = new Set(["channel", "stream"]);
const peopleOperators = new Set(["dm", "pm-with", "sender", "dm-including", "group-pm-with"]);

/** The hash for a list of terms. */
export function termsToHash(terms: readonly Term[], state: State): string {
  if (terms.length === 0) return "#feed";
  let hash = "#narrow";
  for (const t of terms) {
    const op = t.operator === "stream" ? "channel" : t.operator;
    hash += `/${t.negated ? "-" : ""}${encodeHashComponent(op)}/${encodeOperand(op, t.operand, state)}`;
  }
  return hash;
}

function encodeOperand(op: string, operand: string, state: State): string {
  if (channelOperators.has(op)) {
    const id = Number(operand);
    return encodeHashComponent(`${id}-${slug(state.streams.get(id)?.name ?? "unknown")}`);
  }
  if (peopleOperators.has(op) && /^\d+(,\d+)*$/.test(operand)) {
    const ids = dmKeyIds(operand);
    const others = ids.filter((id) => id !== state.me);
    const named = others.length <= 1 ? (others[0] ?? state.me) : null;
    const name = named === null ? "group" : (state.users.get(named)?.full_name ?? "user");
    return `${ids.join(",")}-${encodeHashComponent(slug(name))}`;
  }
  return encodeHashComponent(operand);
}

/** The route a location hash names; unknown hashes give the default view (Inbox). */
/** The view the page opens with no hash: the user's home view setting. */
function homeRoute(state: State): Route {
  const home = state.settings.web_home_view;
  if (home === "all_messages") return { view: "feed", terms: [] };
  if (home === "recent_topics") return { view: "recent" };
  return { view: "inbox" };
}

export function parseHash(hash: string, state: State): Route {
  const h = hash.replace(/^#/, "");
  if (h === "") return homeRoute(state);
  if (h === "inbox") return { view: "inbox" };
  if (h === "recent" || h === "recent_topics") return { view: "recent" };
  if (h === "drafts") return { view: "drafts" };
  if (h.startsWith("channels")) return { view: "channels" };
  const panel = /^(settings|organization)(?:\/([a-z-]+))?(?:\/(\d+))?/.exec(h);
  if (panel) return { view: panel[1] === "settings" ? "settings" : "organization", section: panel[2] ?? "", ...(panel[3] ? { id: Number(panel[3]) } : {}) };
  if (h === "feed" || h === "all_messages") return { view: "feed", terms: [] };
  if (!h.startsWith("narrow/")) return { view: "inbox" };
  const parts = h.split("/");
  const terms: Term[] = [];
  for (let i = 1; i + 1 < parts.length; i += 2) {
    let operator: string;
    let raw: string;
    try {
      operator = decodeHashComponent(parts[i] ?? "");
      raw = parts[i + 1] ?? "";
    } catch {
      return { view: "inbox" };
    }
    if (operator === "") break;
    const negated = operator.startsWith("-");
    if (negated) operator = operator.slice(1);
    const operand = decodeOperand(operator, raw, state);
    if (operand === null) return { view: "inbox" };
    terms.push(negated ? { operator, operand, negated } : { operator, operand });
  }
  return { view: "feed", terms };
}

function decodeOperand(op: string, raw: string, state: State): string | null {
  if (peopleOperators.has(op)) {
    const m = /^(\d+(?:,\d+)*)(?:-.*)?$/.exec(raw);
    if (m?.[1]) return m[1];
  }
  let text: string;
  try {
    text = decodeHashComponent(raw);
  } catch {
    return null;
  }
  if (channelOperators.has(op)) {
    const m = /^(\d+)(?:-.*)?$/.exec(text);
    if (m?.[1] && state.streams.has(Number(m[1]))) return m[1];
    for (const s of state.streams.values()) if (s.name === text || slug(s.name) === text) return String(s.stream_id);
    return m?.[1] ?? text;
  }
  if (peopleOperators.has(op)) {
    const ids: number[] = [];
    for (const email of text.split(",")) {
      const user = [...state.users.values()].find((u) => u.email.toLowerCase() === email.toLowerCase());
      if (!user) return text;
      ids.push(user.user_id);
    }
    return ids.join(",");
  }
  return text;
}

/** Canonical operator names (Zulip's synonyms folded). */
export function canonicalOperator(op: string): string {
  if (op === "stream") return "channel";
  if (op === "pm-with") return "dm";
  if (op === "subject") return "topic";
  return op;
}

/**
 * A stable key for a narrow's message list. An anchor (near:/with:) makes a list of its own: a
 * list is one contiguous run of messages, and the anchor may be far from what another list holds.
 */
export function narrowKey(terms: readonly Term[]): string {
  return JSON.stringify(terms.map((t) => [t.negated ? 1 : 0, canonicalOperator(t.operator), t.operand.toLowerCase()]));
}

export const isAnchorOperator = (op: string) => op === "near" || op === "with";

/** The message the narrow is opened at (near:/with:), if any. */
export function anchorOf(terms: readonly Term[]): number | null {
  const t = terms.find((x) => isAnchorOperator(x.operator));
  return t && /^\d+$/.test(t.operand) ? Number(t.operand) : null;
}

/** The narrow parameter for GET /messages: ids as numbers, anchors left out. */
export function apiNarrow(terms: readonly Term[]): { operator: string; operand: string | number | number[]; negated: boolean }[] {
  return terms
    .filter((t) => !isAnchorOperator(t.operator))
    .map((t) => {
      const op = canonicalOperator(t.operator);
      let operand: string | number | number[] = t.operand;
      if ((op === "channel" || op === "sender" || op === "id") && /^\d+$/.test(t.operand)) operand = Number(t.operand);
      else if ((op === "dm" || op === "dm-including") && /^\d+(,\d+)*$/.test(t.operand)) operand = op === "dm" ? dmKeyIds(t.operand) : Number(t.operand);
      return { operator: op, operand, negated: t.negated === true };
    });
}

/**
 * Whether a message belongs in the narrow: true, false, or null when only the server can tell
 * (full-text search, has:...). Used to place live messages and moves into open lists.
 */
export function matches(terms: readonly Term[], m: Message, me: number): boolean | null {
  let known = true;
  for (const t of terms) {
    const r = matchTerm(t, m, me);
    if (r === null) {
      known = false;
      continue;
    }
    if (r === (t.negated === true)) return false;
  }
  return known ? true : null;
}

function matchTerm(t: Term, m: Message, me: number): boolean | null {
  const op = canonicalOperator(t.operator);
  const operand = t.operand;
  switch (op) {
    case "channel":
      return m.type === "stream" && String(m.stream_id) === operand;
    case "topic":
      return m.type === "stream" && m.subject.toLowerCase() === operand.toLowerCase();
    case "dm": {
      if (m.type !== "private" || !Array.isArray(m.display_recipient)) return false;
      return dmKeyOf(m.display_recipient.map((r) => r.id), me) === dmKeyOf(dmKeyIds(operand), me);
    }
    case "dm-including":
      return m.type === "private" && Array.isArray(m.display_recipient) && m.display_recipient.some((r) => String(r.id) === operand);
    case "sender":
      return String(m.sender_id) === operand;
    case "id":
      return String(m.id) === operand;
    case "near":
    case "with":
      return true;
    case "is":
      return matchIs(operand, m);
    default:
      return null;
  }
}

function matchIs(operand: string, m: Message): boolean | null {
  switch (operand) {
    case "dm":
    case "private":
      return m.type === "private";
    case "starred":
      return m.flags.includes("starred");
    case "mentioned":
      return m.flags.some((f) => f === "mentioned" || f === "stream_wildcard_mentioned" || f === "topic_wildcard_mentioned" || f === "wildcard_mentioned");
    case "unread":
      return !m.flags.includes("read");
    case "alerted":
      return m.flags.includes("has_alert_word");
    case "resolved":
      return m.type === "stream" && m.subject.startsWith("✔ ");
    default:
      return null;
  }
}
