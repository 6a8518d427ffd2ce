import { checkAddPushToken, checkRemovePushToken } from "../actions/push-tokens.js";
import { PushKind } from "../db/queries/push-tokens.js";
import { endpoint } from "../http/endpoint.js";
import { str } from "../http/params.js";
import { requireHuman } from "../http/human.js";

/** Mobile push device tokens (stored per user; sending pushes is another area). */
export const pushTokenEndpoints = [
  endpoint({
    method: "POST",
    path: "/users/me/apns_device_token",
    params: { token: str(), appid: str() },
    async handler({ ctx, user, params }) {
      requireHuman(user);
      await checkAddPushToken(ctx, user, PushKind.APNS, params.token, params.appid);
      return {};
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/users/me/apns_device_token",
    params: { token: str() },
    async handler({ ctx, user, params }) {
      requireHuman(user);
      await checkRemovePushToken(ctx, user, PushKind.APNS, params.token);
      return {};
    },
  }),
  endpoint({
    method: "POST",
    path: "/users/me/android_gcm_reg_id",
    params: { token: str() },
    async handler({ ctx, user, params }) {
      requireHuman(user);
      await checkAddPushToken(ctx, user, PushKind.FCM, params.token, null);
      return {};
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/users/me/android_gcm_reg_id",
    params: { token: str() },
    async handler({ ctx, user, params }) {
      requireHuman(user);
      await checkRemovePushToken(ctx, user, PushKind.FCM, params.token);
      return {};
    },
  }),
];
