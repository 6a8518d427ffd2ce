/** Message calls: fetch by anchor, flags, reactions, topics, channels. */
import { call, type Param } from "./http.js";
import type { Message } from "../state/types.js";

export type FetchAnswer = { messages: Message[]; found_oldest: boolean; found_newest: boolean; found_anchor: boolean; anchor: number };

/** GET /messages around an anchor ("newest", "oldest", "first_unread" or an id). */
export function fetchMessages(narrow: unknown[], anchor: number | "newest" | "oldest" | "first_unread", before: number, after: number): Promise<FetchAnswer> {
  return call<FetchAnswer>("GET", "messages", messagesParams(narrow, anchor, before, after));
}

/** The parameters of GET /messages (also what boot.ts sends for the page's first narrow). */
export function messagesParams(narrow: unknown[], anchor: number | "newest" | "oldest" | "first_unread", before: number, after: number): Record<string, Param> {
  return { narrow, anchor, num_before: before, num_after: after, apply_markdown: true, client_gravatar: false };
}

/** POST /messages/flags. */
export function updateFlags(ids: readonly number[], op: "add" | "remove", flag: string): Promise<unknown> {
  return call("POST", "messages/flags", { messages: ids, op, flag });
}

/** Adds or removes your reaction. */
export function setReaction(messageId: number, emoji: { emoji_name: string; emoji_code: string; reaction_type: string }, add: boolean): Promise<unknown> {
  return call(add ? "POST" : "DELETE", `messages/${messageId}/reactions`, { emoji_name: emoji.emoji_name, emoji_code: emoji.emoji_code, reaction_type: emoji.reaction_type });
}

/** A channel's topics, newest first. */
export function fetchTopics(streamId: number): Promise<{ topics: { name: string; max_id: number }[] }> {
  return call("GET", `users/me/${streamId}/topics`);
}

/** Subscribes to channels by name (creating any that do not exist). */
export function subscribe(names: readonly string[], extra: { description?: string; invite_only?: boolean } = {}): Promise<unknown> {
  return call("POST", "users/me/subscriptions", { subscriptions: names.map((name) => ({ name, ...(extra.description ? { description: extra.description } : {}) })), invite_only: extra.invite_only });
}

/** Unsubscribes from channels by name. */
export function unsubscribe(names: readonly string[]): Promise<unknown> {
  return call("DELETE", "users/me/subscriptions", { subscriptions: names });
}

/** Marks every message of a channel or topic as read. */
export function markTopicRead(streamId: number, topic?: string): Promise<unknown> {
  return topic === undefined ? call("POST", "mark_stream_as_read", { stream_id: streamId }) : call("POST", "mark_topic_as_read", { stream_id: streamId, topic_name: topic });
}

/** Sets a topic's visibility for the current user (Zulip's numbering: 0 none, 1 muted, 2 unmuted, 3 followed). */
export function setTopicVisibility(streamId: number, topic: string, policy: 0 | 1 | 2 | 3): Promise<unknown> {
  return call("POST", "user_topics", { stream_id: streamId, topic, visibility_policy: policy });
}
