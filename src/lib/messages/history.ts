import type { AppContext } from "../../context.js";
import type { MessageRow } from "../../db/queries/messages.js";
import type { UserRow } from "../../db/queries/users.js";
import { badRequest } from "../../base/errors.js";
import { accessMessage } from "./access.js";
import { realmSetting } from "../realm/props.js";
import { highlightHtmlDifferences } from "../../algorithms/html-diff/diff.js";

/** One version of a message in GET /messages/{id}/history. */
export type Snapshot = Record<string, unknown>;

/**
 * Zulip's get_message_edit_history: where the organization keeps edit history visible, the
 * versions of a message the caller may read, oldest (as sent) first.
 */
export async function messageHistory(ctx: AppContext, user: UserRow, messageId: number): Promise<Snapshot[]> {
  const realm = await ctx.realms.get(user.realm_id);
  if (!realm || !realmSetting(realm, "allow_edit_history")) throw badRequest("Message edit history is disabled in this organization");
  const { message } = await accessMessage(ctx.db, user, messageId);
  return snapshots(message);
}

/**
 * The versions of a message from its stored edit history (newest entry first, each recording
 * what one edit changed): every version gets the topic and content it had after its edit, plus
 * what changed, with an HTML diff for content edits; the original version ends the walk.
 */
function snapshots(message: MessageRow): Snapshot[] {
  let content = message.content;
  let rendered = message.rendered_content;
  let topic = message.topic;
  const out: Snapshot[] = [];
  for (const entry of storedEntries(message.edit_history)) {
    const snapshot: Snapshot = { content, rendered_content: rendered, timestamp: entry.timestamp, topic, user_id: entry.user_id ?? null };
    if (typeof entry.prev_topic === "string") {
      topic = entry.prev_topic;
      snapshot.prev_topic = topic;
    }
    if (typeof entry.prev_content === "string") {
      const prevRendered = typeof entry.prev_rendered_content === "string" ? entry.prev_rendered_content : "";
      Object.assign(snapshot, { prev_content: entry.prev_content, prev_rendered_content: prevRendered, content_html_diff: highlightHtmlDifferences(prevRendered, rendered) });
      content = entry.prev_content;
      rendered = prevRendered;
    }
    if (entry.prev_stream !== undefined) Object.assign(snapshot, { prev_stream: entry.prev_stream, stream: entry.stream });
    out.push(snapshot);
  }
  out.push({ content, rendered_content: rendered, timestamp: Math.floor(message.date_sent / 1000), topic, user_id: message.sender_id });
  return out.reverse();
}

function storedEntries(text: string | null): Record<string, unknown>[] {
  if (text === null) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter((e): e is Record<string, unknown> => typeof e === "object" && e !== null) : [];
  } catch {
    return [];
  }
}
