import { endpoint } from "../http/endpoint.js";
import { pathInt } from "../http/params.js";
import { messageHistory } from "../lib/messages/history.js";
import { readReceipts } from "../lib/messages/read-receipts.js";

/** What is known about a message beyond its own fields: its versions and who has read it. */
export const messageDetailEndpoints = [
  endpoint({
    method: "GET",
    path: "/messages/:message_id/history",
    params: {},
    async handler({ ctx, user, path }) {
      return { message_history: await messageHistory(ctx, user, pathInt(path.message_id)) };
    },
  }),
  endpoint({
    method: "GET",
    path: "/messages/:message_id/read_receipts",
    params: {},
    async handler({ ctx, user, path }) {
      return { user_ids: await readReceipts(ctx, user, pathInt(path.message_id)) };
    },
  }),
];
