import { checkSetUserTopic } from "../actions/user-topics.js";
import { VisibilityPolicy } from "../lib/channels/user-topics.js";
import { endpoint } from "../http/endpoint.js";
import { ApiError, badRequest } from "../base/errors.js";
import { choice, int, str } from "../http/params.js";
import { MAX_TOPIC_LENGTH } from "../lib/channels/streams.js";

const POLICIES: readonly number[] = Object.values(VisibilityPolicy);

/** Topic visibility: POST /user_topics and the deprecated muted_topics endpoint. */
export const userTopicEndpoints = [
  endpoint({
    method: "POST",
    path: "/user_topics",
    params: { stream_id: int(), topic: str({ maxLength: MAX_TOPIC_LENGTH }), visibility_policy: int() },
    async handler({ ctx, user, params }) {
      if (!POLICIES.includes(params.visibility_policy)) throw badRequest("Invalid visibility_policy");
      await checkSetUserTopic(ctx, user, { id: params.stream_id }, params.topic, params.visibility_policy);
      return {};
    },
  }),
  endpoint({
    method: "PATCH",
    path: "/users/me/subscriptions/muted_topics",
    params: {
      stream_id: int().optional(),
      stream: str().optional(),
      topic: str({ maxLength: MAX_TOPIC_LENGTH }),
      op: choice(["add", "remove"] as const),
    },
    async handler({ ctx, user, params }) {
      // Zulip's check_for_exactly_one_stream_arg: stream_id is the preferred name in the error.
      if (params.stream_id === undefined && params.stream === undefined) throw badRequest("Missing 'stream_id' argument");
      if (params.stream_id !== undefined && params.stream !== undefined) {
        throw new ApiError("Unsupported parameter combination: stream_id, stream", "BAD_REQUEST", 400, { parameters: "stream_id, stream" });
      }
      const ref = params.stream_id !== undefined ? { id: params.stream_id } : { name: params.stream ?? "" };
      if (params.op === "add") await checkSetUserTopic(ctx, user, ref, params.topic, VisibilityPolicy.MUTED);
      else await checkSetUserTopic(ctx, user, ref, params.topic, VisibilityPolicy.INHERIT, "Topic is not muted");
      return {};
    },
  }),
];
