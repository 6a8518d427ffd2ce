import { checkDeleteScheduledMessage, checkEditScheduledMessage, checkScheduleMessage } from "../actions/scheduled-messages.js";
import { requestClient } from "../http/client-name.js";
import { endpoint } from "../http/endpoint.js";
import { bool, choice, int, pathInt, str } from "../http/params.js";
import { pendingScheduledMessages } from "../lib/messages/scheduled.js";
import { MAX_DELIVERY_TIMESTAMP } from "../lib/messages/scheduled-rules.js";

const TYPES = ["direct", "channel", "stream", "private"] as const;

/** `channel` and `direct` are stored and reported as Zulip 9 still does: `stream` and `private`. */
function storedType(type: (typeof TYPES)[number]): "stream" | "private" {
  return type === "stream" || type === "channel" ? "stream" : "private";
}

/** Messages scheduled to be sent later (send later), each visible to and editable by its sender only. */
export const scheduledMessageEndpoints = [
  endpoint({
    method: "GET",
    path: "/scheduled_messages",
    params: {},
    async handler({ ctx, user }) {
      return { scheduled_messages: await pendingScheduledMessages(ctx.db, user) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/scheduled_messages",
    params: {
      type: choice(TYPES),
      to: str(),
      topic: str().alias("subject").optional(),
      content: str(),
      scheduled_delivery_timestamp: int({ max: MAX_DELIVERY_TIMESTAMP }),
      read_by_sender: bool().optional(),
    },
    async handler({ ctx, user, params, request }) {
      const id = await checkScheduleMessage(ctx, user, {
        type: storedType(params.type),
        to: params.to,
        topic: params.topic,
        content: params.content,
        deliverAt: params.scheduled_delivery_timestamp,
        readBySender: params.read_by_sender,
        client: requestClient(request),
      });
      return { scheduled_message_id: id };
    },
  }),
  endpoint({
    method: "PATCH",
    path: "/scheduled_messages/:scheduled_message_id",
    params: {
      type: choice(TYPES).optional(),
      to: str().optional(),
      topic: str().alias("subject").optional(),
      content: str().optional(),
      scheduled_delivery_timestamp: int({ max: MAX_DELIVERY_TIMESTAMP }).optional(),
    },
    async handler({ ctx, user, params, path, request }) {
      await checkEditScheduledMessage(ctx, user, pathInt(path.scheduled_message_id), {
        type: params.type === undefined ? undefined : storedType(params.type),
        to: params.to,
        topic: params.topic,
        content: params.content,
        deliverAt: params.scheduled_delivery_timestamp,
        client: requestClient(request),
      });
      return {};
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/scheduled_messages/:scheduled_message_id",
    params: {},
    async handler({ ctx, user, path }) {
      await checkDeleteScheduledMessage(ctx, user, pathInt(path.scheduled_message_id));
      return {};
    },
  }),
];
