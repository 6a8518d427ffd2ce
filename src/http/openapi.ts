import type { Endpoint } from "./endpoint.js";
import type { Param, Schema } from "./params.js";
import { API_PREFIX } from "./router.js";

/** What the description says of the server itself. */
export interface ServerInfo {
  version: string;
  featureLevel: number;
  url: string;
}

const ERROR_ENVELOPE = {
  type: "object",
  required: ["result", "msg", "code"],
  properties: { result: { const: "error" }, msg: { type: "string" }, code: { type: "string" } },
};

const SUCCESS_ENVELOPE = {
  type: "object",
  required: ["result", "msg"],
  properties: {
    result: { const: "success" },
    msg: { type: "string" },
    ignored_parameters_unsupported: { type: "array", items: { type: "string" } },
  },
  additionalProperties: true,
};

/**
 * The OpenAPI 3.1 description of `endpoints`, built from their declarations alone (method, path,
 * authentication, each parameter's schema, default and aliases), so it cannot drift from the
 * router. JSON-encoded parameters are described as Zulip's own document describes them: as
 * `application/json` content within the query string or the form.
 */
export function openApiDocument(endpoints: readonly Endpoint[], info: ServerInfo): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const ep of endpoints) {
    const path = ep.path.replace(/:([A-Za-z_]+)/g, "{$1}");
    (paths[path] ??= {})[ep.method.toLowerCase()] = operation(ep);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Rookery REST API",
      version: info.version,
      description: `A team-chat server speaking the Zulip REST API at feature level ${info.featureLevel}.`,
      "x-zulip-feature-level": info.featureLevel,
    },
    servers: [{ url: `${info.url}${API_PREFIX}` }],
    security: [{ basicAuth: [] }],
    components: {
      securitySchemes: { basicAuth: { type: "http", scheme: "basic", description: "The account's email address and API key." } },
      schemas: { Success: SUCCESS_ENVELOPE, Error: ERROR_ENVELOPE },
    },
    paths,
  };
}

function operation(ep: Endpoint): Record<string, unknown> {
  const pathNames = [...ep.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
  const parameters: Record<string, unknown>[] = pathNames.map((name) => ({
    name,
    in: "path",
    required: true,
    schema: name.endsWith("_id") ? { type: "integer" } : { type: "string" },
  }));
  const declared = Object.entries(ep.params);
  const op: Record<string, unknown> = {
    operationId: `${ep.method.toLowerCase()}${ep.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? "").toUpperCase())}`,
    security: ep.auth === "none" ? [] : [{ basicAuth: [] }],
    "x-rate-limited": ep.rateLimited,
    responses: {
      "200": { description: "Success.", content: { "application/json": { schema: { $ref: "#/components/schemas/Success" } } } },
      "400": { description: "Bad request.", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } },
      ...(ep.auth === "none" ? {} : { "401": { description: "Not authenticated.", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } } }),
    },
  };
  if (ep.method === "GET" || ep.method === "DELETE") {
    // DELETE parameters may come in the query string or a form body; the query string is described.
    parameters.push(...declared.map(([name, param]) => queryParameter(name, param)));
  } else if (declared.length > 0) {
    const properties = Object.fromEntries(declared.map(([name, param]) => [name, valueSchema(param)]));
    const required = declared.filter(([, param]) => param.required).map(([name]) => name);
    const encoding = Object.fromEntries(declared.filter(([, param]) => param.doc.json).map(([name]) => [name, { contentType: "application/json" }]));
    const schema = { type: "object", properties, ...(required.length > 0 ? { required } : {}) };
    op.requestBody = {
      required: required.length > 0,
      content: {
        "application/x-www-form-urlencoded": { schema, ...(Object.keys(encoding).length > 0 ? { encoding } : {}) },
        "multipart/form-data": { schema, ...(Object.keys(encoding).length > 0 ? { encoding } : {}) },
      },
    };
  }
  if (parameters.length > 0) op.parameters = parameters;
  return op;
}

function queryParameter(name: string, param: Param<unknown>): Record<string, unknown> {
  const schema = valueSchema(param);
  return {
    name,
    in: "query",
    required: param.required,
    ...(param.doc.json ? { content: { "application/json": { schema } } } : { schema }),
  };
}

/** The value's schema with its default and, as an extension, the other names it is accepted under. */
function valueSchema(param: Param<unknown>): Schema {
  return {
    ...param.doc.schema,
    ...(param.fallback === undefined ? {} : { default: param.fallback }),
    ...(param.aliases.length > 0 ? { "x-aliases": param.aliases, description: `Also accepted as ${param.aliases.map((a) => `\`${a}\``).join(", ")}.` } : {}),
  };
}
