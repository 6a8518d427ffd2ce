import type { Message, State, UnreadRef } from "./types.js";

/** The key of a direct-message conversation: the other people's ids, sorted, comma-joined (your own id alone for notes to self). */
export function dmKeyOf(userIds: readonly number[], me: number): string {
  const others = [...new Set(userIds)].filter((id) => id !== me).sort((a, b) => a - b);
  return others.length === 0 ? String(me) : others.join(",");
}

/** The user ids a dmKey names. */
export function dmKeyIds(key: string): number[] {
  return key.split(",").map(Number);
}

/** The conversation a message belongs to, as an UnreadRef. */
export function refOf(message: Message, me: number): UnreadRef {
  if (message.type === "stream") return { kind: "stream", streamId: message.stream_id ?? 0, topic: message.subject };
  const ids = Array.isArray(message.display_recipient) ? message.display_recipient.map((r) => r.id) : [];
  return { kind: "dm", key: dmKeyOf(ids, me) };
}

/** One string per conversation: "s:<stream id>:<topic>" or "d:<dmKey>". */
export function conversationKey(ref: UnreadRef): string {
  return ref.kind === "stream" ? `s:${ref.streamId}:${ref.topic.toLowerCase()}` : `d:${ref.key}`;
}

/** "<stream id>:<topic>" as user_topic keys it. */
export function topicKey(streamId: number, topic: string): string {
  return `${streamId}:${topic.toLowerCase()}`;
}

/** A user's name, or a placeholder for an unknown id. */
export function userName(state: State, id: number): string {
  return state.users.get(id)?.full_name ?? `Unknown user ${id}`;
}
