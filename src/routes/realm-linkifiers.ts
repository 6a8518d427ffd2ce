import { checkAddLinkifier, checkRemoveLinkifier, checkReorderLinkifiers, checkUpdateLinkifier } from "../actions/realm-linkifiers.js";
import { linkifiersOfRealm } from "../db/queries/realm-filters.js";
import { endpoint } from "../http/endpoint.js";
import { isInt, isList, json, pathInt, str } from "../http/params.js";
import { linkifierDicts } from "../lib/realm/linkifiers.js";
import { requireAdmin } from "../lib/users/roles.js";

/** Linkifiers: the list (any user), and adding, changing, removing and reordering (administrators). */
export const realmLinkifierEndpoints = [
  endpoint({
    method: "GET",
    path: "/realm/linkifiers",
    params: {},
    async handler({ ctx, user }) {
      return { linkifiers: linkifierDicts(await linkifiersOfRealm(ctx.db, user.realm_id)) };
    },
  }),
  endpoint({
    method: "PATCH",
    path: "/realm/linkifiers",
    guard: requireAdmin,
    params: { ordered_linkifier_ids: json(isList(isInt())) },
    async handler({ ctx, user, params }) {
      await checkReorderLinkifiers(ctx, user, params.ordered_linkifier_ids);
      return {};
    },
  }),
  endpoint({
    method: "POST",
    path: "/realm/filters",
    guard: requireAdmin,
    params: { pattern: str(), url_template: str() },
    async handler({ ctx, user, params }) {
      return { id: await checkAddLinkifier(ctx, user, params.pattern, params.url_template) };
    },
  }),
  endpoint({
    method: "PATCH",
    path: "/realm/filters/:filter_id",
    guard: requireAdmin,
    params: { pattern: str(), url_template: str() },
    async handler({ ctx, user, params, path }) {
      await checkUpdateLinkifier(ctx, user, pathInt(path.filter_id), params.pattern, params.url_template);
      return {};
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/realm/filters/:filter_id",
    guard: requireAdmin,
    params: {},
    async handler({ ctx, user, path }) {
      await checkRemoveLinkifier(ctx, user, pathInt(path.filter_id));
      return {};
    },
  }),
];
