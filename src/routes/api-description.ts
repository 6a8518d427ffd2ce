import { publicEndpoint, type Endpoint } from "../http/endpoint.js";
import { openApiDocument } from "../http/openapi.js";
import { FEATURE_LEVEL, VERSION } from "../base/version.js";

/**
 * GET /openapi.json: the server's own OpenAPI description, made from `endpoints()` (every
 * endpoint, this one included) on first request and kept.
 */
export function apiDescriptionEndpoint(endpoints: () => readonly Endpoint[]): Endpoint {
  let text: string | undefined;
  return publicEndpoint({
    method: "GET",
    path: "/openapi.json",
    params: {},
    handler({ ctx, reply }) {
      text ??= JSON.stringify(openApiDocument(endpoints(), { version: VERSION, featureLevel: FEATURE_LEVEL, url: ctx.config.externalUrl }));
      reply.type("application/json").send(text);
      return {};
    },
  });
}
