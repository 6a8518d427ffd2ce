import { checkDeleteTopic } from "../actions/message-delete.js";
import { checkAddDefaultStream, checkArchiveStream, checkRemoveDefaultStream, checkUpdateStream } from "../actions/streams.js";
import { topicsOfStream } from "../db/queries/streams.js";
import { subscriberIds } from "../db/queries/subscriptions.js";
import { endpoint } from "../http/endpoint.js";
import { badRequest } from "../base/errors.js";
import { bool, int, isInt, json, pathInt, str } from "../http/params.js";
import { isAdmin } from "../lib/users/roles.js";
import { listStreams } from "../lib/channels/list.js";
import { accessStreamById, accessStreamByName, apiStream, MAX_STREAM_DESCRIPTION_LENGTH, streamEmailAddress } from "../lib/channels/streams.js";
import { postPolicyParam, retentionParam } from "./subscriptions.js";

/** Channels: list, read, look up, update, archive, subscribers, email address, default channels and topics (listing, deleting). */
export const streamEndpoints = [
  endpoint({
    method: "GET",
    path: "/streams",
    params: {
      include_public: bool().default(true),
      include_web_public: bool().default(false),
      include_subscribed: bool().default(true),
      include_all_active: bool().default(false),
      include_default: bool().default(false),
      include_owner_subscribed: bool().default(false),
    },
    async handler({ ctx, user, params }) {
      if (params.include_all_active && !isAdmin(user)) throw badRequest("User not authorized for this query");
      const streams = await listStreams(ctx.db, user, {
        includePublic: params.include_public,
        includeWebPublic: params.include_web_public,
        includeSubscribed: params.include_subscribed,
        includeAllActive: params.include_all_active,
        includeDefault: params.include_default,
        includeOwnerSubscribed: params.include_owner_subscribed,
      });
      return { streams };
    },
  }),
  endpoint({
    method: "GET",
    path: "/streams/:stream_id",
    params: {},
    async handler({ ctx, user, path }) {
      const { stream } = await accessStreamById(ctx.db, user, pathInt(path.stream_id), { allowRealmAdmin: true });
      return { stream: apiStream(stream) };
    },
  }),
  endpoint({
    method: "GET",
    path: "/streams/:stream_id/members",
    params: {},
    async handler({ ctx, user, path }) {
      // Whoever may access the channel (administrators: any private one) may see its subscribers.
      const { stream } = await accessStreamById(ctx.db, user, pathInt(path.stream_id), { allowRealmAdmin: true });
      return { subscribers: (await subscriberIds(ctx.db, [stream.id])).get(stream.id) ?? [] };
    },
  }),
  endpoint({
    method: "GET",
    path: "/streams/:stream_id/email_address",
    params: {},
    async handler({ ctx, user, path }) {
      const { stream } = await accessStreamById(ctx.db, user, pathInt(path.stream_id));
      return { email: streamEmailAddress(stream, ctx.config.emailGatewayDomain) };
    },
  }),
  endpoint({
    method: "GET",
    path: "/get_stream_id",
    params: { stream: str() },
    async handler({ ctx, user, params }) {
      const { stream } = await accessStreamByName(ctx.db, user, params.stream);
      return { stream_id: stream.id };
    },
  }),
  endpoint({
    method: "PATCH",
    path: "/streams/:stream_id",
    params: {
      description: str({ maxLength: MAX_STREAM_DESCRIPTION_LENGTH }).optional(),
      new_name: str().optional(),
      is_private: bool().optional(),
      is_web_public: bool().optional(),
      history_public_to_subscribers: bool().optional(),
      is_default_stream: bool().optional(),
      is_announcement_only: bool().optional(),
      stream_post_policy: postPolicyParam.optional(),
      message_retention_days: retentionParam.optional(),
      can_remove_subscribers_group: int().optional(),
    },
    async handler({ ctx, user, params, path }) {
      const legacyPolicy = params.is_announcement_only === undefined ? undefined : params.is_announcement_only ? 2 : 1;
      await checkUpdateStream(ctx, user, pathInt(path.stream_id), {
        description: params.description,
        newName: params.new_name,
        isPrivate: params.is_private,
        isWebPublic: params.is_web_public,
        historyPublicToSubscribers: params.history_public_to_subscribers,
        isDefaultStream: params.is_default_stream,
        streamPostPolicy: params.stream_post_policy ?? legacyPolicy,
        messageRetentionDays: params.message_retention_days,
        canRemoveSubscribersGroup: params.can_remove_subscribers_group,
      });
      return {};
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/streams/:stream_id",
    params: {},
    async handler({ ctx, user, path }) {
      await checkArchiveStream(ctx, user, pathInt(path.stream_id));
      return {};
    },
  }),
  endpoint({
    method: "POST",
    path: "/default_streams",
    params: { stream_id: json(isInt()) },
    async handler({ ctx, user, params }) {
      await checkAddDefaultStream(ctx, user, params.stream_id);
      return {};
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/default_streams",
    params: { stream_id: json(isInt()) },
    async handler({ ctx, user, params }) {
      await checkRemoveDefaultStream(ctx, user, params.stream_id);
      return {};
    },
  }),
  endpoint({
    method: "GET",
    path: "/users/me/:stream_id/topics",
    params: {},
    async handler({ ctx, user, path }) {
      const { stream } = await accessStreamById(ctx.db, user, pathInt(path.stream_id));
      // Without shared history a user sees only topics of messages they received.
      const topics = await topicsOfStream(ctx.db, stream.id, stream.history_public_to_subscribers ? undefined : user.id);
      return { topics };
    },
  }),
  endpoint({
    method: "POST",
    path: "/streams/:stream_id/delete_topic",
    params: { topic_name: str() },
    async handler({ ctx, user, params, path }) {
      return { complete: await checkDeleteTopic(ctx, user, pathInt(path.stream_id), params.topic_name) };
    },
  }),
];
