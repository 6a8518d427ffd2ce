/** Message actions: raw content, edit, move, delete, history, read receipts, unread, submessages. */
import { call } from "./http.js";

/** The message's Markdown source. */
export async function fetchRaw(id: number): Promise<string> {
  const answer = await call<{ message?: { content: string }; raw_content?: string }>("GET", `messages/${id}`, { apply_markdown: false });
  return answer.message?.content ?? answer.raw_content ?? "";
}

export type EditInput = { content?: string; topic?: string; stream_id?: number; propagate_mode?: "change_one" | "change_later" | "change_all"; send_notification_to_old_thread?: boolean; send_notification_to_new_thread?: boolean };

/** PATCH /messages/<id>: content, topic and/or channel. */
export function editMessage(id: number, input: EditInput): Promise<unknown> {
  return call("PATCH", `messages/${id}`, input);
}

export function deleteMessage(id: number): Promise<unknown> {
  return call("DELETE", `messages/${id}`);
}

export type HistoryEntry = { timestamp: number; user_id: number | null; rendered_content?: string; prev_rendered_content?: string; topic?: string; prev_topic?: string; stream?: number; prev_stream?: number; content_html_diff?: string };

export async function fetchHistory(id: number): Promise<HistoryEntry[]> {
  const answer = await call<{ message_history: HistoryEntry[] }>("GET", `messages/${id}/history`);
  return answer.message_history;
}

export async function fetchReadReceipts(id: number): Promise<number[]> {
  const answer = await call<{ user_ids: number[] }>("GET", `messages/${id}/read_receipts`);
  return answer.user_ids;
}

/** Marks this message and every later one of the narrow unread (Zulip's "Mark as unread from here"). */
export function markUnreadFrom(narrow: unknown[], anchor: number): Promise<unknown> {
  return call("POST", "messages/flags/narrow", { narrow, anchor, include_anchor: true, num_before: 0, num_after: 5000, op: "remove", flag: "read" });
}

/** POST /submessage: a vote, a new option, a task ticked. */
export function sendSubmessage(messageId: number, content: Record<string, unknown>): Promise<unknown> {
  return call("POST", "submessage", { message_id: messageId, msg_type: "widget", content: JSON.stringify(content) });
}
