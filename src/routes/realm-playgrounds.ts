import { checkAddPlayground, checkRemovePlayground } from "../actions/realm-playgrounds.js";
import { endpoint } from "../http/endpoint.js";
import { pathInt, str } from "../http/params.js";
import { checkPygmentsLanguage } from "../lib/realm/playgrounds.js";
import { requireAdmin } from "../lib/users/roles.js";

/** Code playgrounds: adding and removing (administrators); clients read them from /register. */
export const realmPlaygroundEndpoints = [
  endpoint({
    method: "POST",
    path: "/realm/playgrounds",
    guard: requireAdmin,
    params: { name: str(), url_template: str(), pygments_language: str() },
    async handler({ ctx, user, params }) {
      checkPygmentsLanguage(params.pygments_language);
      const id = await checkAddPlayground(ctx, user, { name: params.name, pygmentsLanguage: params.pygments_language, urlTemplate: params.url_template });
      return { id };
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/realm/playgrounds/:playground_id",
    guard: requireAdmin,
    params: {},
    async handler({ ctx, user, path }) {
      await checkRemovePlayground(ctx, user, pathInt(path.playground_id));
      return {};
    },
  }),
];
