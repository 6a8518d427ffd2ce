import { checkSystemGroup } from "../actions/streams.js";
import { checkUpdateSubscriptionProperties } from "../actions/subscription-properties.js";
import { checkAddSubscriptions, checkRemoveSubscriptions } from "../actions/subscriptions.js";
import { endpoint } from "../http/endpoint.js";
import { badRequest } from "../http/errors.js";
import { bool, decodeJson, int, isBool, isDict, isEither, isInt, isList, isOneOf, isStr, json, Param, type Check } from "../http/params.js";
import { listSubscriptions } from "../lib/stream-list.js";
import { MAX_STREAM_DESCRIPTION_LENGTH, STREAM_POST_POLICIES } from "../lib/streams.js";

/** Zulip's check_color: a string of `#` and 3–6 hex digits. */
const isColor: Check<string> = (value, name) => {
  const text = isStr()(value, name);
  if (!/^#[0-9a-fA-F]{3,6}$/.test(text)) throw badRequest(`${name} is not a valid hex color code`);
  return text;
};

/** stream_post_policy: an integer among 1–4 (check_int_in). */
export const postPolicyParam = json((value, name) => isOneOf(STREAM_POST_POLICIES)(isInt()(value, name), name));

/**
 * message_retention_days: "realm_default" (null), "unlimited" (-1) or a positive integer, else
 * `Bad value for 'message_retention_days': <value>` (parse_message_retention_days).
 */
export const retentionParam = new Param<number | null>(
  (raw, name) => {
    const value = decodeJson(raw, name);
    if (value === "realm_default") return null;
    if (value === "unlimited") return -1;
    if (typeof value === "number" && Number.isInteger(value) && value > 0) return value;
    throw badRequest(`Bad value for '${name}': ${typeof value === "string" ? value : JSON.stringify(value)}`);
  },
  true,
  undefined,
);

const principalsParam = json(isEither<string[], number[]>(isList(isStr()), isList(isInt()))).optional();

/** Subscriptions: subscribe (creating channels), list, unsubscribe, personal properties. */
export const subscriptionEndpoints = [
  endpoint({
    method: "GET",
    path: "/users/me/subscriptions",
    params: { include_subscribers: bool().default(false) },
    async handler({ ctx, user, params }) {
      return { subscriptions: await listSubscriptions(ctx.db, user, params.include_subscribers) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/users/me/subscriptions",
    params: {
      subscriptions: json(
        isList(isDict({ name: isStr() }, { color: isColor, description: isStr({ maxLength: MAX_STREAM_DESCRIPTION_LENGTH }) })),
      ),
      principals: principalsParam,
      authorization_errors_fatal: bool().default(true),
      announce: bool().default(false),
      invite_only: bool().default(false),
      is_web_public: bool().default(false),
      is_default_stream: bool().default(false),
      history_public_to_subscribers: bool().optional(),
      stream_post_policy: postPolicyParam.optional(),
      is_announcement_only: bool().optional(),
      message_retention_days: retentionParam.default(null),
      can_remove_subscribers_group: int().optional(),
    },
    async handler({ ctx, user, params }) {
      if (params.can_remove_subscribers_group !== undefined) await checkSystemGroup(ctx.db, user.realm_id, params.can_remove_subscribers_group);
      const legacyPolicy = params.is_announcement_only ? 2 : 1;
      return {
        ...(await checkAddSubscriptions(ctx, user, {
          subscriptions: params.subscriptions,
          principals: params.principals ?? null,
          authorizationErrorsFatal: params.authorization_errors_fatal,
          isDefaultStream: params.is_default_stream,
          settings: {
            inviteOnly: params.invite_only,
            isWebPublic: params.is_web_public,
            historyPublicToSubscribers: params.history_public_to_subscribers ?? null,
            streamPostPolicy: params.stream_post_policy ?? legacyPolicy,
            messageRetentionDays: params.message_retention_days,
            canRemoveSubscribersGroup: params.can_remove_subscribers_group ?? null,
          },
        })),
      };
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/users/me/subscriptions",
    params: { subscriptions: json(isList(isStr())), principals: principalsParam },
    async handler({ ctx, user, params }) {
      return checkRemoveSubscriptions(ctx, user, { names: params.subscriptions, principals: params.principals ?? null });
    },
  }),
  endpoint({
    method: "POST",
    path: "/users/me/subscriptions/properties",
    params: {
      subscription_data: json(
        isList(isDict({ stream_id: isInt(), property: isStr(), value: isEither<string | number, boolean>(isEither(isStr(), isInt()), isBool) })),
      ),
    },
    async handler({ ctx, user, params }) {
      await checkUpdateSubscriptionProperties(ctx, user, params.subscription_data);
      return {};
    },
  }),
];
