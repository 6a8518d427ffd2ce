/**
 * The narrow filter of an event queue (Zulip's narrow predicate for events): every term must match
 * a `message` event; comparisons ignore case; `is:` operands Zulip does not filter on match all.
 */
export function matchesNarrow(narrow: readonly (readonly [string, string])[], event: Record<string, unknown>): boolean {
  if (narrow.length === 0) return true;
  const message = event.message;
  if (typeof message !== "object" || message === null) return true;
  const m = message as Record<string, unknown>;
  const flags = Array.isArray(event.flags) ? (event.flags as unknown[]) : [];
  const topic = String(m.subject ?? m.topic ?? "");
  return narrow.every(([operator, operand]) => {
    const want = operand.toLowerCase();
    switch (operator) {
      case "stream":
      case "channel":
        return m.type === "stream" && String(m.display_recipient ?? "").toLowerCase() === want;
      case "topic":
        return m.type === "stream" && topic.toLowerCase() === want;
      case "sender":
        return String(m.sender_email ?? "").toLowerCase() === want;
      case "is":
        return matchesIs(want, m, flags, topic);
      default:
        return false;
    }
  });
}

/** The operators a queue's narrow may use; anything else is refused at registration. */
export const NARROW_OPERATORS: readonly string[] = ["channel", "stream", "topic", "sender", "is"];

function matchesIs(operand: string, message: Record<string, unknown>, flags: unknown[], topic: string): boolean {
  switch (operand) {
    case "dm":
    case "private":
      return message.type === "private";
    case "starred":
      return flags.includes("starred");
    case "unread":
      return !flags.includes("read");
    case "mentioned":
    case "alerted":
      return flags.includes("mentioned");
    case "resolved":
      return topic.startsWith("✔ ");
    default:
      return true;
  }
}
