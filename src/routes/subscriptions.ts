import { checkSystemGroup } from "../actions/streams.js";
import { checkUpdateSubscriptionProperties } from "../actions/subscription-properties.js";
import {
  checkAddSubscriptions,
  checkRemoveSubscriptions,
  checkUpdateSubscriptions,
  type AddSubscriptionsInput,
  type SubscriptionRequest,
} from "../actions/subscriptions.js";
import type { AppContext } from "../context.js";
import type { UserRow } from "../db/queries/users.js";
import { endpoint } from "../http/endpoint.js";
import { badRequest } from "../base/errors.js";
import { bool, decodeJson, int, isBool, isDict, isEither, isInt, isList, isOneOf, isStr, json, Param, pathInt, type Check, type ParamValues } from "../http/params.js";
import { listSubscriptions } from "../lib/channels/list.js";
import { accessStreamById, isSubscribed, MAX_STREAM_DESCRIPTION_LENGTH, STREAM_POST_POLICIES } from "../lib/channels/streams.js";
import { accessUserById } from "../lib/users/users.js";

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

/** One channel to subscribe to: POST's `subscriptions` items, PATCH's `add` items. */
const subscriptionRequest = isDict({ name: isStr() }, { color: isColor, description: isStr({ maxLength: MAX_STREAM_DESCRIPTION_LENGTH }) });

/** The parameters of POST /users/me/subscriptions besides the list of channels. */
const addOptions = {
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
};

/** A subscribe request from its channels and the options, the group setting checked first as Zulip does. */
async function addInput(ctx: AppContext, user: UserRow, subscriptions: SubscriptionRequest[], params: ParamValues<typeof addOptions>): Promise<AddSubscriptionsInput> {
  if (params.can_remove_subscribers_group !== undefined) await checkSystemGroup(ctx.db, user.realm_id, params.can_remove_subscribers_group);
  const legacyPolicy = params.is_announcement_only ? 2 : 1;
  return {
    subscriptions,
    principals: params.principals ?? null,
    authorizationErrorsFatal: params.authorization_errors_fatal,
    isDefaultStream: params.is_default_stream,
    announce: params.announce,
    settings: {
      inviteOnly: params.invite_only,
      isWebPublic: params.is_web_public,
      historyPublicToSubscribers: params.history_public_to_subscribers ?? null,
      streamPostPolicy: params.stream_post_policy ?? legacyPolicy,
      messageRetentionDays: params.message_retention_days,
      canRemoveSubscribersGroup: params.can_remove_subscribers_group ?? null,
    },
  };
}

/** Subscriptions: subscribe (creating channels), list, unsubscribe, both at once, one user's status, personal properties. */
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
    params: { subscriptions: json(isList(subscriptionRequest)), ...addOptions },
    async handler({ ctx, user, params }) {
      return { ...(await checkAddSubscriptions(ctx, user, await addInput(ctx, user, params.subscriptions, params))) };
    },
  }),
  endpoint({
    method: "PATCH",
    path: "/users/me/subscriptions",
    // Zulip reads the parameters of POST and DELETE besides the lists; principals apply to both.
    params: { delete: json(isList(isStr())).default([]), add: json(isList(subscriptionRequest)).default([]), ...addOptions },
    async handler({ ctx, user, params }) {
      if (params.add.length === 0 && params.delete.length === 0) throw badRequest('Nothing to do. Specify at least one of "add" or "delete".');
      const add = await addInput(ctx, user, params.add, params);
      return { ...(await checkUpdateSubscriptions(ctx, user, { add, remove: { names: params.delete, principals: add.principals } })) };
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
    method: "GET",
    path: "/users/:user/subscriptions/:stream_id",
    params: {},
    async handler({ ctx, user, path }) {
      const target = await accessUserById(ctx.db, user, pathInt(path.user), { allowDeactivated: false, allowBots: false });
      const { stream } = await accessStreamById(ctx.db, user, pathInt(path.stream_id), { allowRealmAdmin: true });
      return { is_subscribed: await isSubscribed(ctx.db, target.id, stream.id) };
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
