import { checkSendMessage } from "../actions/messages.js";
import { checkDeleteMessage } from "../actions/message-delete.js";
import { checkUpdateMessage } from "../actions/message-edit.js";
import { requestClient } from "../http/client-name.js";
import { endpoint } from "../http/endpoint.js";
import { badRequest } from "../base/errors.js";
import { bool, choice, int, pathInt, str } from "../http/params.js";
import { HISTORICAL_FLAGS } from "../lib/messages/flags.js";
import { accessMessage } from "../lib/messages/access.js";
import { messageDicts } from "../lib/messages/dict.js";
import { MAX_MESSAGES_PER_FETCH, parseAnchor } from "../lib/messages/fetch.js";
import { messagesPage } from "../lib/messages/page.js";
import { parseNarrow } from "../lib/messages/narrow.js";
import { renderContent } from "../lib/messages/render.js";

/** Messages: send, fetch, fetch one, edit, delete, render. */
export const messageEndpoints = [
  endpoint({
    method: "POST",
    path: "/messages",
    params: {
      type: choice(["stream", "channel", "private", "direct"]),
      to: str().optional(),
      topic: str().alias("subject").optional(),
      content: str(),
      queue_id: str().optional(),
      local_id: str().optional(),
      read_by_sender: bool().optional(),
      client: str().optional(),
    },
    async handler({ ctx, user, params, request }) {
      const id = await checkSendMessage(ctx, user, {
        type: params.type === "stream" || params.type === "channel" ? "stream" : "private",
        to: params.to,
        topic: params.topic,
        content: params.content,
        client: params.client ?? requestClient(request),
        readBySender: params.read_by_sender,
        senderQueue: params.queue_id !== undefined && params.local_id !== undefined ? { queueId: params.queue_id, localId: params.local_id } : undefined,
      });
      return { id };
    },
  }),
  endpoint({
    method: "GET",
    path: "/messages",
    params: {
      anchor: str().optional(),
      include_anchor: bool().default(true),
      num_before: int({ min: 0 }).default(0),
      num_after: int({ min: 0 }).default(0),
      narrow: str().default("[]"),
      client_gravatar: bool().default(true),
      apply_markdown: bool().default(true),
      use_first_unread_anchor: bool().default(false),
    },
    async handler({ ctx, user, params }) {
      const narrow = parseNarrow(params.narrow);
      let anchor: ReturnType<typeof parseAnchor> = "first_unread";
      if (!params.use_first_unread_anchor) {
        if (params.anchor === undefined) throw badRequest("Missing 'anchor' argument.");
        anchor = parseAnchor(params.anchor);
      }
      if (params.num_before + params.num_after > MAX_MESSAGES_PER_FETCH) {
        throw badRequest(`Too many messages requested (maximum ${MAX_MESSAGES_PER_FETCH}).`);
      }
      if (params.num_before > 0 && params.num_after > 0 && !params.include_anchor) throw badRequest("The anchor can only be excluded at an end of the range");
      return messagesPage(ctx, user, { anchor, numBefore: params.num_before, numAfter: params.num_after, includeAnchor: params.include_anchor, narrow }, { applyMarkdown: params.apply_markdown, clientGravatar: params.client_gravatar });
    },
  }),
  endpoint({
    method: "GET",
    path: "/messages/:message_id",
    params: { apply_markdown: bool().default(true) },
    async handler({ ctx, user, params, path }) {
      const { message, flags } = await accessMessage(ctx.db, user, pathInt(path.message_id));
      const bits = flags ?? HISTORICAL_FLAGS;
      const [dict] = await messageDicts(ctx, [message], { applyMarkdown: params.apply_markdown, clientGravatar: false }, new Map([[message.id, bits]]));
      return { raw_content: message.content, message: dict ?? {} };
    },
  }),
  endpoint({
    method: "PATCH",
    path: "/messages/:message_id",
    params: {
      content: str().optional(),
      topic: str().alias("subject").optional(),
      stream_id: int({ min: 0 }).optional(),
      propagate_mode: choice(["change_one", "change_later", "change_all"]).default("change_one"),
      send_notification_to_old_thread: bool().default(false),
      send_notification_to_new_thread: bool().default(true),
    },
    async handler({ ctx, user, params, path }) {
      await checkUpdateMessage(ctx, user, pathInt(path.message_id), {
        content: params.content,
        topic: params.topic,
        streamId: params.stream_id,
        propagateMode: params.propagate_mode,
        sendNotificationToOldThread: params.send_notification_to_old_thread,
        sendNotificationToNewThread: params.send_notification_to_new_thread,
      });
      return { detached_uploads: [] };
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/messages/:message_id",
    params: {},
    async handler({ ctx, user, path }) {
      await checkDeleteMessage(ctx, user, pathInt(path.message_id));
      return {};
    },
  }),
  endpoint({
    method: "POST",
    path: "/messages/render",
    params: { content: str() },
    async handler({ ctx, user, params }) {
      const rendered = await renderContent(ctx, ctx.db, user.realm_id, params.content, user);
      return { rendered: rendered.html };
    },
  }),
];

