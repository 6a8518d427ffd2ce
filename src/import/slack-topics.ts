import { child, text, type SlackObject } from "./slack-export.js";

/** Topic of unthreaded channel messages (Zulip's converter). */
export const UNTHREADED_TOPIC = "imported from Slack";
const MAX_TOPIC_LENGTH = 60;

/**
 * Zulip's converter: unthreaded messages go to one topic; each thread (keyed by its first
 * message's time and sender) gets "YYYY-MM-DD <start of its first message>", cut at 60
 * characters with "…", and " (2)", " (3)"… when that name is taken. Remembers one name per
 * thread and one count per name: it grows with the number of threads, not of messages.
 */
export class ThreadTopics {
  private readonly topics = new Map<string, string>();
  private readonly counts = new Map<string, number>();
  private readonly parents = new Map<string, string>();

  /** The topic of a channel message sent by `sender` (a Slack id) whose Markdown is `content`. */
  topicOf(message: SlackObject, sender: string, content: string): string {
    const threadTs = text(message, "thread_ts");
    if (threadTs === undefined) return UNTHREADED_TOPIC;
    let parent: string | undefined;
    if (text(message, "subtype") === "thread_broadcast") parent = text(child(message, "root"), "user") ?? text(child(message, "root"), "bot_id");
    else if (threadTs === text(message, "ts")) {
      parent = sender;
      this.parents.set(threadTs, sender);
    } else parent = text(message, "parent_user_id") ?? this.parents.get(threadTs);
    const threadKey = `${threadTs}-${parent ?? ""}`;
    const known = this.topics.get(threadKey);
    if (known !== undefined) return known;
    const date = new Date(Number(threadTs) * 1000).toISOString().slice(0, 10);
    const base = `${date} ${content}`.trim();
    const cut = truncate(base, MAX_TOPIC_LENGTH);
    const collisions = this.counts.get(cut) ?? 0;
    this.counts.set(cut, collisions + 1);
    const suffix = collisions > 0 ? ` (${collisions + 1})` : "";
    const topic = truncate(base, MAX_TOPIC_LENGTH - suffix.length) + suffix;
    this.topics.set(threadKey, topic);
    return topic;
  }
}

/** Cuts text to `max` characters (code points), ending with "…" when cut. */
function truncate(value: string, max: number): string {
  const chars = [...value];
  if (chars.length <= max) return value;
  return chars.slice(0, max - 1).join("") + "…";
}
