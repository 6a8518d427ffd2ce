import { checkFlagChange, checkMarkAllAsRead, checkMarkChannelAsRead, checkUpdateMessageFlags } from "../actions/flags.js";
import { checkAddReaction, checkRemoveReaction } from "../actions/reactions.js";
import { checkAddSubmessage } from "../actions/submessages.js";
import { endpoint } from "../http/endpoint.js";
import { badRequest } from "../base/errors.js";
import { bool, int, isInt, isList, json, pathInt, str } from "../http/params.js";
import { fetchRange, matchingReceived as matchingReceivedRows, parseAnchor } from "../lib/messages/fetch.js";
import { htmlEscape } from "../lib/messages/rules.js";
import { parseNarrow } from "../lib/messages/narrow.js";
import { highlightHtml, highlightTopic } from "../lib/messages/search-highlight.js";

// Zulip's MAX_MESSAGES_PER_UPDATE for POST /messages/flags/narrow.
const MAX_PER_UPDATE = 5000;

/** Personal flags (and the deprecated mark-as-read shortcuts), narrow matching, emoji reactions and submessages. */
export const messageFlagEndpoints = [
  endpoint({
    method: "POST",
    path: "/messages/flags",
    params: { messages: json(isList(isInt())), op: str(), flag: str() },
    async handler({ ctx, user, params }) {
      await checkUpdateMessageFlags(ctx, user, params.messages, params.op, params.flag);
      return { messages: params.messages };
    },
  }),
  endpoint({
    method: "POST",
    path: "/messages/flags/narrow",
    params: {
      anchor: str(),
      include_anchor: bool().default(true),
      num_before: int({ min: 0 }),
      num_after: int({ min: 0 }),
      narrow: str(),
      op: str(),
      flag: str(),
    },
    async handler({ ctx, user, params }) {
      // The flag and op are checked before the range is read, so a bad request reads nothing.
      checkFlagChange(params.flag, params.op);
      const narrow = parseNarrow(params.narrow);
      const anchor = parseAnchor(params.anchor);
      if (params.num_before > 0 && params.num_after > 0 && !params.include_anchor) throw badRequest("The anchor can only be excluded at an end of the range");
      const numBefore = Math.min(params.num_before, Math.max(MAX_PER_UPDATE - params.num_after, MAX_PER_UPDATE / 2));
      const numAfter = Math.min(params.num_after, MAX_PER_UPDATE - numBefore);
      const range = await fetchRange(ctx, user, { anchor, numBefore, numAfter, includeAnchor: params.include_anchor, narrow, idsOnly: true });
      const ids = range.rows.map((r) => r.id);
      const updated = await checkUpdateMessageFlags(ctx, user, ids, params.op, params.flag);
      return {
        processed_count: ids.length,
        updated_count: updated,
        first_processed_id: ids[0] ?? null,
        last_processed_id: ids[ids.length - 1] ?? null,
        found_oldest: range.foundOldest,
        found_newest: range.foundNewest,
      };
    },
  }),
  endpoint({
    method: "POST",
    path: "/mark_all_as_read",
    params: {},
    async handler({ ctx, user }) {
      return { complete: await checkMarkAllAsRead(ctx, user) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/mark_stream_as_read",
    params: { stream_id: int() },
    async handler({ ctx, user, params }) {
      await checkMarkChannelAsRead(ctx, user, params.stream_id);
      return {};
    },
  }),
  endpoint({
    method: "POST",
    path: "/mark_topic_as_read",
    params: { stream_id: int(), topic_name: str() },
    async handler({ ctx, user, params }) {
      await checkMarkChannelAsRead(ctx, user, params.stream_id, params.topic_name);
      return {};
    },
  }),
  endpoint({
    method: "GET",
    path: "/messages/matches_narrow",
    params: { msg_ids: json(isList(isInt())), narrow: str() },
    async handler({ ctx, user, params }) {
      const narrow = parseNarrow(params.narrow);
      const { rows, narrow: built } = await matchingReceivedRows(ctx, user, params.msg_ids, narrow);
      const words = built.searchWords;
      const messages: Record<string, { match_content: string; match_subject: string }> = {};
      for (const row of rows) {
        messages[String(row.id)] =
          words.length > 0
            ? { match_content: highlightHtml(row.rendered_content, words), match_subject: highlightTopic(row.topic, words) }
            : { match_content: row.rendered_content, match_subject: htmlEscape(row.topic) };
      }
      return { messages };
    },
  }),
  endpoint({
    method: "POST",
    path: "/messages/:message_id/reactions",
    params: { emoji_name: str().optional(), emoji_code: str().optional(), reaction_type: str().optional() },
    async handler({ ctx, user, params, path }) {
      await checkAddReaction(ctx, user, pathInt(path.message_id), { emojiName: params.emoji_name, emojiCode: params.emoji_code, reactionType: params.reaction_type });
      return {};
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/messages/:message_id/reactions",
    params: { emoji_name: str().optional(), emoji_code: str().optional(), reaction_type: str().optional() },
    async handler({ ctx, user, params, path }) {
      await checkRemoveReaction(ctx, user, pathInt(path.message_id), { emojiName: params.emoji_name, emojiCode: params.emoji_code, reactionType: params.reaction_type });
      return {};
    },
  }),
  endpoint({
    method: "POST",
    path: "/submessage",
    params: { message_id: int(), msg_type: str(), content: str() },
    async handler({ ctx, user, params }) {
      await checkAddSubmessage(ctx, user, { messageId: params.message_id, msgType: params.msg_type, content: params.content });
      return {};
    },
  }),
];
