import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../context.js";
import type { UserRow } from "../db/queries/users.js";
import type { MaybePromise } from "../base/maybe-promise.js";
import type { ParamShape, ParamValues } from "./params.js";
import type { JsonText } from "../base/json-text.js";

/** The HTTP methods endpoints are declared with. */
export type Method = "GET" | "POST" | "PATCH" | "DELETE" | "PUT";

/** What a handler returns: the endpoint's own fields, wrapped by the envelope. */
export type Payload = Record<string, unknown> | JsonText;

/** What a handler receives. */
export interface Input<P, U> {
  ctx: AppContext;
  user: U;
  params: P;
  /** Path segments named in the route (`:user_id` → path.user_id), as strings. */
  path: Record<string, string>;
  request: FastifyRequest;
  reply: FastifyReply;
}

/** One API endpoint, declared once: method, path, who may call it, its parameters and handler. */
export interface Endpoint {
  method: Method;
  /** Path under /api/v1 in Fastify syntax, e.g. `/users/:user_id`. */
  path: string;
  auth: "user" | "none";
  /**
   * Whether a call counts against the caller's API rate limit. Long-polls do not: their rate is
   * set by the events others cause, and a client must never be throttled by its own polling.
   */
  rateLimited: boolean;
  params: ParamShape;
  /** Checks the caller before any parameter is read, as Zulip's decorators (require_realm_admin) do. */
  guard?: (user: UserRow) => void;
  /**
   * True for an endpoint that reads its multipart body itself, as a stream, after the caller is
   * authenticated (POST /user_uploads); other bodies are parsed before the handler runs.
   */
  streamsBody: boolean;
  /** Handles an authenticated (or, for auth "none", anonymous) request, its parameters read. */
  handler(input: Input<Record<string, unknown>, UserRow | undefined>): MaybePromise<Payload>;
}

interface Definition<S extends ParamShape, U> {
  method: Method;
  path: string;
  /** False for a call that does not count against the rate limit (default true). */
  rateLimited?: boolean;
  /** Runs after authentication, before the parameters are read: its error wins over theirs. */
  guard?: (user: U) => void;
  /** True when the handler reads the multipart body itself (see Endpoint.streamsBody). */
  streamsBody?: boolean;
  params: S;
  /** Usually async; one that can answer from memory may return its payload directly. */
  handler: (input: Input<ParamValues<S>, U>) => MaybePromise<Payload>;
}

/** Declares an endpoint that requires HTTP Basic authentication. */
export function endpoint<S extends ParamShape>(def: Definition<S, UserRow>): Endpoint {
  return { ...build(def, "user"), ...(def.guard ? { guard: def.guard } : {}) };
}

/** Declares an endpoint anyone may call (GET /server_settings, POST /fetch_api_key). */
export function publicEndpoint<S extends ParamShape>(def: Definition<S, undefined>): Endpoint {
  return build(def, "none");
}

function build<S extends ParamShape, U>(def: Definition<S, U>, auth: "user" | "none"): Endpoint {
  // The router reads `params` by this same shape and checks the caller per `auth`.
  return { method: def.method, path: def.path, auth, rateLimited: def.rateLimited ?? true, streamsBody: def.streamsBody ?? false, params: def.params, handler: def.handler as Endpoint["handler"] };
}
