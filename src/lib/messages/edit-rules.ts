import type { MessageRow } from "../../db/queries/messages.js";
import { ApiError } from "../../base/errors.js";
import type { MessageSettings } from "./rules.js";
import { RESOLVED_TOPIC_PREFIX } from "./narrow.js";

/** What PATCH /messages/{id} asks to change. */
export interface EditInput {
  content: string | undefined;
  topic: string | undefined;
  streamId: number | undefined;
  propagateMode: "change_one" | "change_later" | "change_all";
  sendNotificationToOldThread: boolean;
  sendNotificationToNewThread: boolean;
}

/** Zulip allows 20 seconds past each limit for clients racing the deadline. */
export const EDIT_LIMIT_BUFFER = 20;

/**
 * Zulip's MessageMoveError: a whole-topic move by a non-moderator must fit the time limit, the
 * stricter of the topic and channel limits when both apply.
 */
export function checkMoveTimeLimit(rows: readonly MessageRow[], settings: MessageSettings, now: number, changes: { topic: boolean; stream: boolean }): void {
  const limits = [
    changes.topic ? settings.moveMessagesWithinStreamLimitSeconds : null,
    changes.stream ? settings.moveMessagesBetweenStreamsLimitSeconds : null,
  ].filter((l): l is number => l !== null);
  if (limits.length === 0) return;
  const deadline = (Math.min(...limits) + EDIT_LIMIT_BUFFER) * 1000;
  const allowed = rows.filter((m) => now - m.date_sent <= deadline).sort((a, b) => a.id - b.id);
  if (allowed.length === rows.length) return;
  throw new ApiError(`You only have permission to move the ${allowed.length}/${rows.length} most recent messages in this topic.`, "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED", 400, {
    first_message_id_allowed_to_move: allowed[0]?.id ?? null,
    total_messages_in_topic: rows.length,
    total_messages_allowed_to_move: allowed.length,
  });
}

/** Whether a rename resolves (true) or unresolves (false) a topic; undefined when it does neither. */
export function resolvesTopic(oldTopic: string, newTopic: string): boolean | undefined {
  const was = oldTopic.startsWith(RESOLVED_TOPIC_PREFIX);
  const is = newTopic.startsWith(RESOLVED_TOPIC_PREFIX);
  return was === is ? undefined : is;
}

/** Python's str.lstrip("✔ "): every leading check mark and space goes. */
export function stripResolvedPrefix(topic: string): string {
  return topic.replace(/^[✔ ]+/u, "");
}
