import { deleteMessageEventForQueue, messageEventForQueue } from "./message-events.js";
import type { QueueOptions } from "./queue.js";
import type { AppEvent } from "./types.js";

/** An event as offered to one queue (after per-user fields are merged). */
export type OfferedEvent = Record<string, unknown> & { type: string };

/**
 * Reshapes an event for one queue's options (apply_markdown, client_gravatar, capabilities…), or
 * returns null to withhold it from that queue, or a list to split it into several events (each gets
 * its own id, e.g. legacy one-message delete_message events). It must not modify `event` (other
 * queues share it).
 */
export type QueueTransform = (event: OfferedEvent, queue: QueueOptions) => OfferedEvent | readonly OfferedEvent[] | null;

/**
 * Per-queue transforms by event type; an area whose events differ per client adds its entry here
 * (e.g. `message`: pick rendered or raw content by apply_markdown, null avatar_url under client_gravatar).
 */
export const queueTransforms: Partial<Record<AppEvent["type"], QueueTransform>> = {
  // Channel typing notifications are only for clients that declared they understand them.
  typing: (event, queue) => (event.message_type === "stream" && !queue.capabilities.stream_typing_notifications ? null : event),
  // Legacy settings events (before level 89) are only for clients that do not read user_settings.
  update_display_settings: (event, queue) => (queue.capabilities.user_settings_object ? null : event),
  update_global_notifications: (event, queue) => (queue.capabilities.user_settings_object ? null : event),
  // Linkifiers carry URL templates since feature level 176; older clients could not read them.
  realm_linkifiers: (event, queue) => (queue.capabilities.linkifier_url_template ? event : null),
  message: messageEventForQueue,
  delete_message: deleteMessageEventForQueue,
};

const shapes = new Map<string, string>();

/**
 * The queue options a transform may read, as a key: queues with equal keys get the same event, so
 * it is shaped and serialised once for all of them. A transform that reads another option must
 * add it here. The keys are interned (10,000 queues of one kind share one string).
 */
export function queueShape(queue: QueueOptions): string {
  let key = `${queue.applyMarkdown ? 1 : 0}${queue.clientGravatar ? 1 : 0}${queue.slimPresence ? 1 : 0}`;
  for (const name of Object.keys(queue.capabilities).sort()) if (queue.capabilities[name] === true) key += `,${name}`;
  let interned = shapes.get(key);
  if (interned === undefined) shapes.set(key, (interned = key));
  return interned;
}
