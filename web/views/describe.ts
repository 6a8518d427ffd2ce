import { canonicalOperator } from "../state/narrow.js";
import type { State, Term } from "../state/types.js";
import { dmKeyIds, userName } from "../state/conversation.js";

/** A human description of a narrow, for the header and the page title. */
export function describeNarrow(terms: readonly Term[], s: State): string {
  if (terms.length === 0) return "Combined feed";
  const parts: string[] = [];
  for (const t of terms) {
    const op = canonicalOperator(t.operator);
    const neg = t.negated ? "not " : "";
    if (op === "channel") parts.push(`${neg}#${s.streams.get(Number(t.operand))?.name ?? t.operand}`);
    else if (op === "topic") parts.push(`${neg}› ${t.operand}`);
    else if (op === "dm") parts.push(`${neg}DMs with ${dmKeyIds(t.operand).map((id) => userName(s, id)).join(", ")}`);
    else if (op === "sender") parts.push(`${neg}sent by ${/^\d+$/.test(t.operand) ? userName(s, Number(t.operand)) : t.operand}`);
    else if (op === "is" && t.operand === "starred" && !t.negated) parts.push("Starred messages");
    else if (op === "is" && t.operand === "mentioned" && !t.negated) parts.push("Mentions");
    else if (op === "near" || op === "with") continue;
    else if (op === "search") parts.push(`${neg}“${t.operand}”`);
    else parts.push(`${neg}${op}:${t.operand}`);
  }
  return parts.join(" ") || "Messages";
}
