import http from "node:http";
import fc from "fast-check";
import type { Endpoint } from "../../src/http/endpoint.js";
import type { Param, Schema } from "../../src/http/params.js";

/** One request as sent on the wire. */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Buffer | undefined;
}

/** What came back. */
export interface FuzzAnswer {
  status: number;
  contentType: string;
  text: string;
}

/** Who a generated request is sent as: an Authorization header value, or none. */
export type Caller = { name: string; authorization: string | undefined };

const GARBAGE: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("", "null", "{", "[", "]", "true", "1.5", "-1", "0", "9".repeat(40), "1e309", '"x"', "[1,", '{"a":', "NaN", "\u0000", "a\u0000b"),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom("x".repeat(70_000), "[" + "1,".repeat(20_000) + "1]", "[".repeat(3000) + "]".repeat(3000), JSON.stringify(Array.from({ length: 40_000 }, (_, i) => i + 1))),
  fc.json({ maxDepth: 3 }),
);

// The server's own OpenAPI description is a document, not an API answer in Zulip's envelope; and
// the calls that take the callers' own credentials away would leave the rest of a run at 401.
const LEFT_OUT = ["GET /openapi.json", "POST /users/me/api_key/regenerate", "DELETE /users/me", "DELETE /users/:user"];

/** The endpoints a fuzz run sends to: all but those above. */
export function fuzzableEndpoints(endpoints: readonly Endpoint[]): Endpoint[] {
  return endpoints.filter((ep) => !LEFT_OUT.includes(`${ep.method} ${ep.path}`));
}

/** A value for one declared parameter: usually of its type, sometimes garbage. */
function paramValue(param: Param<unknown>): fc.Arbitrary<string> {
  const typed = fromSchema(param.doc.schema, 0).map((value) => (param.doc.json || typeof value !== "string" ? JSON.stringify(value) : value));
  return fc.oneof({ weight: 3, arbitrary: typed }, { weight: 2, arbitrary: GARBAGE });
}

function fromSchema(schema: Schema, depth: number): fc.Arbitrary<unknown> {
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const alternatives = (schema.oneOf ?? schema.anyOf) as Schema[] | undefined;
  if (alternatives && alternatives.length > 0) return fc.oneof(...alternatives.map((s) => fromSchema(s, depth + 1)));
  switch (schema.type) {
    case "integer":
      return fc.oneof(fc.integer({ min: -2, max: 40 }), fc.integer());
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array":
      return depth > 3 ? fc.constant([]) : fc.array(fromSchema((schema.items as Schema | undefined) ?? {}, depth + 1), { maxLength: 5 });
    case "object": {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      const shape = Object.fromEntries(Object.entries(properties).map(([key, s]) => [key, fromSchema(s, depth + 1)]));
      return depth > 3 ? fc.constant({}) : fc.record(shape, { requiredKeys: [] });
    }
    case "string":
      return fc.oneof(fc.constantFrom("general", "Verona", "test", "hamlet@zulip.com", "1", "newest", ""), fc.string({ maxLength: 20 }));
    default:
      return fc.oneof(fc.integer({ min: 0, max: 20 }), fc.string({ maxLength: 10 }), fc.json({ maxDepth: 2 }));
  }
}

/** A path with its `:name` segments filled: small ids, names, or garbage. */
function pathFor(ep: Endpoint): fc.Arbitrary<string> {
  const names = [...ep.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
  const segment = fc.oneof(
    fc.integer({ min: 1, max: 30 }).map(String),
    fc.constantFrom("me", "0", "-1", "99999999999999999999", "hamlet@zulip.com", "%FF", "%00", "a%2Fb", "x".repeat(200), "1.5", "general"),
  );
  return fc.tuple(...names.map(() => segment)).map((values) => {
    let i = 0;
    return `/api/v1${ep.path.replace(/:([A-Za-z_]+)/g, () => values[i++] ?? "1")}`;
  });
}

/** A body or query string from parameter pairs, in one of the encodings clients use or a broken one. */
function encode(method: string, pairs: [string, string][], style: number): { query: string; headers: Record<string, string>; body: Buffer | undefined } {
  const form = new URLSearchParams(pairs).toString();
  if (method === "GET" || style === 0) return { query: form, headers: {}, body: undefined };
  if (style === 1 || style === 2) return { query: "", headers: { "content-type": "application/x-www-form-urlencoded" }, body: Buffer.from(form + (style === 2 ? "&" + form : "")) };
  if (style === 3) {
    const boundary = "fuzzboundary";
    const parts = pairs.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join("");
    return { query: "", headers: { "content-type": `multipart/form-data; boundary=${boundary}` }, body: Buffer.from(`${parts}--${boundary}--\r\n`) };
  }
  if (style === 4) return { query: "", headers: { "content-type": "multipart/form-data" }, body: Buffer.from("x") };
  if (style === 5) return { query: "", headers: { "content-type": "multipart/form-data; boundary=b" }, body: Buffer.from("--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nunterminated") };
  if (style === 6) return { query: "", headers: { "content-type": "application/json" }, body: Buffer.from(JSON.stringify(Object.fromEntries(pairs))) };
  // Invalid UTF-8 in a form body.
  return { query: "", headers: { "content-type": "application/x-www-form-urlencoded" }, body: Buffer.concat([Buffer.from(form + "&x="), Buffer.from([0xff, 0xfe, 0xc3])]) };
}

/** A request to one of `endpoints` with generated parameters, as one of `callers`. */
export function fuzzRequest(endpoints: readonly Endpoint[], callers: readonly Caller[]): fc.Arbitrary<FuzzRequest & { caller: string }> {
  return fc
    .constantFrom(...endpoints)
    .chain((ep) => {
      const params = Object.entries(ep.params).map(([name, param]) => fc.option(paramValue(param), { nil: undefined, freq: 3 }).map((v) => [name, v] as const));
      const extra = fc.option(fc.tuple(fc.constantFrom("zzz_unknown", "__proto__", "constructor", "queue_id"), GARBAGE), { nil: undefined });
      return fc.record({
        ep: fc.constant(ep),
        path: pathFor(ep),
        values: fc.tuple(...params),
        extra,
        style: fc.integer({ min: 0, max: 7 }),
        caller: fc.constantFrom(...callers),
      });
    })
    .map(({ ep, path, values, extra, style, caller }) => {
      const pairs = values.filter((v): v is readonly [string, string] => v[1] !== undefined).map(([k, v]) => [k, v] as [string, string]);
      if (extra) pairs.push([extra[0], extra[1]]);
      // A long-poll would wait for a heartbeat: polls are always non-blocking here.
      if (ep.path === "/events" && ep.method === "GET") pairs.push(["dont_block", "true"]);
      const { query, headers, body } = encode(ep.method, pairs, style);
      if (caller.authorization) headers.authorization = caller.authorization;
      return { method: ep.method, path: query ? `${path}?${query}` : path, headers, body, caller: caller.name };
    });
}

/** Sends a request as is (bytes and all) over a fresh connection. */
export function send(baseUrl: string, request: FuzzRequest): Promise<FuzzAnswer> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, method: request.method, path: request.path, headers: { ...request.headers, ...(request.body ? { "content-length": String(request.body.length) } : {}) }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, contentType: String(res.headers["content-type"] ?? ""), text: Buffer.concat(chunks).toString("utf8") }));
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(request.body);
  });
}

/** Why an answer breaks the rules (a 5xx, or not Zulip's JSON envelope), or undefined when it is fine. */
export function faultOf(answer: FuzzAnswer): string | undefined {
  if (answer.status >= 500) return `HTTP ${answer.status}: ${answer.text.slice(0, 200)}`;
  if (!answer.contentType.startsWith("application/json")) return `not JSON (${answer.status}, ${answer.contentType}): ${answer.text.slice(0, 200)}`;
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return `unparseable JSON (${answer.status}): ${answer.text.slice(0, 200)}`;
  }
  if (typeof body !== "object" || body === null) return `not an object (${answer.status})`;
  const { result, msg } = body as Record<string, unknown>;
  if (typeof msg !== "string") return `no msg (${answer.status}): ${answer.text.slice(0, 200)}`;
  if (answer.status >= 400 && result !== "error") return `error status without result "error" (${answer.status})`;
  if (answer.status < 400 && result !== "success") return `success status without result "success" (${answer.status})`;
  return undefined;
}
