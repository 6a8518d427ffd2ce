import { doRegenerateApiKey } from "../actions/users.js";
import { doUpgradePasswordHash } from "../actions/account.js";
import type { AppContext } from "../context.js";
import { defaultRealm } from "../db/queries/realms.js";
import { endpoint, publicEndpoint } from "../http/endpoint.js";
import { ApiError, badRequest, rateLimited } from "../base/errors.js";
import { str } from "../http/params.js";
import { realmIconUrl } from "../lib/realm/branding.js";
import { checkPasswordLogin } from "../lib/users/login.js";
import { FEATURE_LEVEL, VERSION } from "../base/version.js";

const AUTHENTICATION_METHODS = {
  password: true,
  dev: false,
  email: true,
  ldap: false,
  remoteuser: false,
  github: false,
  azuread: false,
  gitlab: false,
  apple: false,
  google: false,
  saml: false,
  "openid connect": false,
};

async function servedRealm(ctx: AppContext) {
  const realm = await defaultRealm(ctx.db);
  if (!realm) throw new ApiError("Invalid subdomain", "NONEXISTENT_SUBDOMAIN", 404);
  return realm;
}

/** Login: server settings, API key by password, API key rotation. */
export const authEndpoints = [
  publicEndpoint({
    method: "GET",
    path: "/server_settings",
    params: {},
    async handler({ ctx }) {
      const realm = await servedRealm(ctx);
      const url = ctx.config.externalUrl;
      return {
        authentication_methods: AUTHENTICATION_METHODS,
        external_authentication_methods: [],
        zulip_feature_level: FEATURE_LEVEL,
        zulip_version: VERSION,
        zulip_merge_base: VERSION,
        push_notifications_enabled: false,
        is_incompatible: false,
        email_auth_enabled: true,
        require_email_format_usernames: true,
        realm_uri: url,
        realm_url: url,
        realm_name: realm.name,
        realm_icon: realmIconUrl(realm),
        realm_description: realm.description,
        realm_web_public_access_enabled: false,
      };
    },
  }),
  publicEndpoint({
    method: "POST",
    path: "/fetch_api_key",
    params: { username: str(), password: str() },
    async handler({ ctx, params }) {
      const realm = await servedRealm(ctx);
      const username = params.username.trim();
      // Django's email validator refuses addresses over 320 characters.
      if (username.length > 320 || !/^[^\s@]+@[^\s@]+$/.test(username)) throw badRequest("Enter a valid email address.");
      const outcome = await checkPasswordLogin(ctx, realm, username, params.password);
      if (outcome.kind === "rate_limited") throw rateLimited(outcome.secs);
      if (outcome.kind === "invalid") throw new ApiError("Your username or password is incorrect", "AUTHENTICATION_FAILED", 401);
      if (outcome.kind === "realm_deactivated") throw new ApiError("This organization has been deactivated", "REALM_DEACTIVATED", 401);
      if (outcome.kind === "user_deactivated") throw new ApiError("Account is deactivated", "USER_DEACTIVATED", 401);
      const { user } = outcome;
      await doUpgradePasswordHash(ctx, user, params.password);
      return { api_key: user.api_key, email: user.delivery_email, user_id: user.id };
    },
  }),
  endpoint({
    method: "POST",
    path: "/users/me/api_key/regenerate",
    params: {},
    async handler({ ctx, user }) {
      return { api_key: await doRegenerateApiKey(ctx, user) };
    },
  }),
];
