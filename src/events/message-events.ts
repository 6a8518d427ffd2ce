import { gravatarUrl } from "../base/gravatar.js";

/** An event as offered to one queue. */
type Offered = Record<string, unknown> & { type: string };

/** The queue options the message transforms read. */
interface QueueView {
  applyMarkdown: boolean;
  clientGravatar: boolean;
  capabilities: Readonly<Record<string, boolean>>;
}

/**
 * The `message` event for one queue: rendered HTML or Markdown source by apply_markdown, and a
 * null avatar_url under client_gravatar when the client can compute it (a Gravatar of a visible address).
 */
export function messageEventForQueue(event: Offered, queue: QueueView): Offered {
  const message = event.message;
  if (typeof message !== "object" || message === null) return event;
  const { raw_content: raw, ...shaped } = message as Record<string, unknown>;
  if (!queue.applyMarkdown && typeof raw === "string") {
    shaped.content = raw;
    shaped.content_type = "text/x-markdown";
  }
  if (queue.clientGravatar && clientComputesAvatar(shaped)) shaped.avatar_url = null;
  return { ...event, message: shaped };
}

/** `delete_message` for queues without bulk_message_deletion: one message_id (Zulip's legacy form). */
export function deleteMessageEventForQueue(event: Offered, queue: QueueView): Offered {
  if (queue.capabilities.bulk_message_deletion) return event;
  const { message_ids: ids, ...rest } = event;
  return Array.isArray(ids) ? { ...rest, message_id: ids[0] } : event;
}

// A Gravatar URL of the API email means the address is visible: the client can rebuild it.
function clientComputesAvatar(message: Record<string, unknown>): boolean {
  const url = message.avatar_url;
  const email = message.sender_email;
  if (typeof url !== "string" || typeof email !== "string") return false;
  return url.startsWith(gravatarUrl(email, 0).replace(/&version=0$/, "&version="));
}
