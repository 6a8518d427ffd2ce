import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Logger } from "pino";
import type { AppContext } from "../context.js";
import type { UserRow } from "../db/queries/users.js";
import { authenticate } from "./auth.js";
import { findSession, sessionUser, type FoundSession } from "./session.js";
import type { MaybePromise } from "../base/maybe-promise.js";
import { JsonText } from "../base/json-text.js";
import type { Endpoint, Payload } from "./endpoint.js";
import { ApiError, Redirect, sessionRequired, unauthorized } from "../base/errors.js";
import { readParams, type RawParams } from "./params.js";
import { requestError, sendProtocolError } from "./protocol-errors.js";
import type { CallLimiter, RateLimitState } from "../base/rate-limit.js";
import { readMultipart } from "./uploads.js";

/** The prefix every REST path is served under. */
export const API_PREFIX = "/api/v1";

/** The prefix of the same endpoints for the web app, authenticated by its session cookie (Zulip's /json). */
export const JSON_PREFIX = "/json";

/** Where a browser page without credentials is sent (Zulip's HOME_NOT_LOGGED_IN). */
export const LOGIN_PATH = "/login/";

const ALL_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

declare module "fastify" {
  interface FastifyRequest {
    /** The authenticated user, once auth has run (for the request log). */
    userId?: number;
    /** The digest of the session cookie a /json call was authenticated by. */
    sessionDigest?: string;
  }
}

/** The API rate limits: authenticated calls per user, unauthenticated calls per address. */
export interface Limiters {
  byUser: CallLimiter;
  byAddress: CallLimiter;
}

/**
 * Registers endpoints under /api/v1, and again under /json for the web app's session (with a
 * CSRF token on every call that is not a GET), with Zulip's 405 and OPTIONS answers for each path: GET
 * endpoints on `plain`, those that take a body on `withBodies` (where multipart is parsed), and
 * those that stream their body on `streaming` (where it is left unread for the handler).
 */
export function registerEndpoints(
  apps: { plain: FastifyInstance; withBodies: FastifyInstance; streaming: FastifyInstance },
  ctx: AppContext,
  limiter: Limiters,
  endpoints: readonly Endpoint[],
): void {
  const byPath = new Map<string, Endpoint[]>();
  for (const ep of endpoints) {
    const list = byPath.get(ep.path) ?? [];
    list.push(ep);
    byPath.set(ep.path, list);
  }
  for (const [path, list] of byPath) {
    for (const prefix of [API_PREFIX, JSON_PREFIX]) registerPath(apps, ctx, limiter, prefix, path, list);
  }
}

/** One path's endpoints under one prefix, with its OPTIONS and 405 answers. */
function registerPath(
  apps: { plain: FastifyInstance; withBodies: FastifyInstance; streaming: FastifyInstance },
  ctx: AppContext,
  limiter: Limiters,
  prefix: string,
  path: string,
  list: readonly Endpoint[],
): void {
  const app = apps.plain;
  const url = prefix + path;
  const viaSession = prefix === JSON_PREFIX;
  for (const ep of list) {
    const owner = ep.method === "GET" ? apps.plain : ep.streamsBody ? apps.streaming : apps.withBodies;
    owner.route({ method: ep.method, url, handler: (request, reply) => serve(ctx, limiter, ep, request, reply, viaSession) });
  }
  const declared = list.map((ep) => ep.method as string);
  if (declared.includes("GET")) declared.push("HEAD");
  const allowed = [...declared].sort();
  app.route({
    method: "OPTIONS",
    url,
    handler: async (_request, reply) => reply.code(204).header("Allow", allowed.join(", ")).send(),
  });
  const others = ALL_METHODS.filter((m) => !declared.includes(m) && m !== "OPTIONS");
  if (others.length > 0) {
    app.route({
      method: others,
      url,
      handler: async (_request, reply) =>
        reply
          .code(405)
          .header("Allow", allowed.join(", "))
          .type("application/json")
          .send(JSON.stringify({ result: "error", msg: "Method Not Allowed", allowed_methods: allowed })),
    });
  }
}

/**
 * Runs one endpoint. Without a wait anywhere (the caller and the answer known from memory) it
 * answers in the same turn; each step that must wait continues in a promise.
 */
function serve(ctx: AppContext, limiter: Limiters, ep: Endpoint, request: FastifyRequest, reply: FastifyReply, viaSession: boolean): MaybePromise<void> {
  if (ep.auth === "none") {
    if (!ep.rateLimited) return handle(ctx, ep, request, reply, undefined);
    const state = limiter.byAddress.hit(request.ip, ctx.clock.now());
    if (state instanceof Promise) return state.then((counted) => limitThenHandle(ctx, ep, request, reply, undefined, counted));
    return limitThenHandle(ctx, ep, request, reply, undefined, state);
  }
  const user = viaSession ? jsonCaller(ctx, request) : apiCaller(ctx, request);
  if (user instanceof Promise) return user.then((found) => serveUser(ctx, limiter, ep, request, reply, found));
  return serveUser(ctx, limiter, ep, request, reply, user);
}

/** The caller of an /api/v1 call: HTTP Basic only (a session cookie does not count there, as in Zulip). */
function apiCaller(ctx: AppContext, request: FastifyRequest): MaybePromise<UserRow> {
  const header = request.headers.authorization;
  if (header === undefined) throw noCredentials(request, unauthorized());
  return authenticate(ctx, header);
}

/** The caller of a /json call: the session cookie, else (as Zulip allows) HTTP Basic. */
function jsonCaller(ctx: AppContext, request: FastifyRequest): MaybePromise<UserRow> {
  const found = findSession(ctx, request);
  const then = (session: FoundSession | undefined): MaybePromise<UserRow> => {
    if (session) return sessionUser(ctx, request, session);
    const header = request.headers.authorization;
    if (header === undefined) throw noCredentials(request, sessionRequired());
    return authenticate(ctx, header);
  };
  return found instanceof Promise ? found.then(then) : then(found);
}

/** A call without credentials: a page opened in a browser goes to the login page, anything else gets `error`. */
function noCredentials(request: FastifyRequest, error: ApiError): Error {
  if ((request.headers.accept ?? "").includes("text/html")) return new Redirect(`${LOGIN_PATH}?next=${encodeURIComponent(request.url.split("?")[0] ?? "")}`);
  return error;
}

function serveUser(ctx: AppContext, limiter: Limiters, ep: Endpoint, request: FastifyRequest, reply: FastifyReply, user: UserRow): MaybePromise<void> {
  request.userId = user.id;
  // A request another process of the cluster forwarded was counted there.
  if (!ep.rateLimited || ctx.cluster?.isForwarded(request)) return handle(ctx, ep, request, reply, user);
  const state = limiter.byUser.hit(user.id, ctx.clock.now());
  if (state instanceof Promise) return state.then((counted) => limitThenHandle(ctx, ep, request, reply, user, counted));
  return limitThenHandle(ctx, ep, request, reply, user, state);
}

function limitThenHandle(ctx: AppContext, ep: Endpoint, request: FastifyRequest, reply: FastifyReply, user: UserRow | undefined, state: RateLimitState | undefined): MaybePromise<void> {
  limitHeaders(reply, state);
  return handle(ctx, ep, request, reply, user);
}

function limitHeaders(reply: FastifyReply, state: RateLimitState | undefined): void {
  if (!state) return;
  reply.header("X-RateLimit-Limit", String(state.limit));
  reply.header("X-RateLimit-Remaining", String(state.remaining));
  reply.header("X-RateLimit-Reset", String(state.reset));
}

function handle(ctx: AppContext, ep: Endpoint, request: FastifyRequest, reply: FastifyReply, user: UserRow | undefined): MaybePromise<void> {
  // The guard (administrators only…) answers before any parameter, even a multipart body, is read.
  if (ep.guard && user) ep.guard(user);
  // A multipart body is read only now, once the caller is known (GET routes have no multipart parser).
  if (ep.method !== "GET" && !ep.streamsBody && request.isMultipart()) return readMultipart(request).then(() => run(ctx, ep, request, reply, user));
  return run(ctx, ep, request, reply, user);
}

function run(ctx: AppContext, ep: Endpoint, request: FastifyRequest, reply: FastifyReply, user: UserRow | undefined): MaybePromise<void> {
  const raw = rawParams(request);
  const { values, used } = readParams(ep.params, raw);
  const path = (request.params ?? {}) as Record<string, string>;
  const payload = ep.handler({ ctx, user, params: values, path, request, reply });
  if (payload instanceof Promise) return payload.then((answer) => respond(reply, answer, raw, used));
  respond(reply, payload, raw, used);
}

function respond(reply: FastifyReply, payload: Payload, raw: RawParams, used: Set<string>): void {
  if (reply.sent) return;
  const sent = raw.keys();
  const ignored = sent.length === 0 ? sent : [...new Set(sent)].filter((k) => !used.has(k)).sort();
  if (payload instanceof JsonText) {
    const extra = ignored.length > 0 ? `,"ignored_parameters_unsupported":${JSON.stringify(ignored)}` : "";
    reply.type("application/json").send(payload.envelope(extra));
    return;
  }
  const body: Record<string, unknown> = { result: "success", msg: "", ...payload };
  if (ignored.length > 0) body.ignored_parameters_unsupported = ignored;
  reply.type("application/json").send(serialize(body) + "\n");
}

/** JSON.stringify, except that JsonText fields go in as their text. */
function serialize(body: Record<string, unknown>): string {
  let spliced = false;
  for (const key in body) if (body[key] instanceof JsonText) spliced = true;
  if (!spliced) return JSON.stringify(body);
  const entries = Object.entries(body).filter(([, value]) => value !== undefined);
  return `{${entries.map(([key, value]) => `${JSON.stringify(key)}:${value instanceof JsonText ? value.text : JSON.stringify(value)}`).join(",")}}`;
}

/** Body fields first, then the query string; a repeated field counts by its last value. */
function rawParams(request: FastifyRequest): RawParams {
  const { body, query } = request;
  return {
    get: (name) => field(body, name) ?? field(query, name),
    keys: () => [...fieldNames(body), ...fieldNames(query)],
  };
}

/** A form field's value as text: the last when repeated; files and other values are not parameters. */
function field(source: unknown, name: string): string | undefined {
  if (typeof source !== "object" || source === null || !Object.hasOwn(source, name)) return undefined;
  const value = (source as Record<string, unknown>)[name];
  const last: unknown = Array.isArray(value) ? value[value.length - 1] : value;
  if (typeof last === "string") return last;
  return Buffer.isBuffer(last) ? last.toString("utf8") : undefined;
}

function fieldNames(source: unknown): string[] {
  if (typeof source !== "object" || source === null) return [];
  return Object.keys(source).filter((name) => field(source, name) !== undefined);
}

/** Turns any thrown value into Zulip's error envelope; unexpected errors become a logged 500. */
export function sendError(error: unknown, request: FastifyRequest, reply: FastifyReply, log: Logger): void {
  if (error instanceof Redirect) {
    reply.redirect(error.location, 302);
    return;
  }
  if (error instanceof ApiError) {
    reply.code(error.status).headers(error.headers).type("application/json").send(JSON.stringify(error.body()) + "\n");
    return;
  }
  // Fastify's own request errors (body too large, bad content type): the client's fault.
  const clientFault = requestError(error);
  if (clientFault) {
    sendProtocolError(request.url, reply, clientFault);
    return;
  }
  log.error({ err: error, reqId: request.id, method: request.method, url: request.url }, "unexpected error");
  reply.code(500).type("application/json").send(JSON.stringify({ result: "error", msg: "Internal server error" }) + "\n");
}
