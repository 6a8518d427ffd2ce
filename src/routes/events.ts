import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyReply } from "fastify";
import { checkSendTyping } from "../actions/typing.js";
import type { AppContext } from "../context.js";
import type { UserRow } from "../db/queries/users.js";
import { pollRegisterParams, queueOptions, registerParams, registerQueue, type Registration } from "./register.js";
import { badQueueId, eventsJson, type EventQueue, type PollWaiter, type WakeReason } from "../events/queue.js";
import { endpoint } from "../http/endpoint.js";
import { authenticate } from "../http/auth.js";
import { ApiError, badRequest } from "../base/errors.js";
import { bool, choice, int, isInt, isList, json, str, type ParamValues } from "../http/params.js";
import { JsonText } from "../base/json-text.js";

const pollParams = {
  queue_id: str().optional(),
  last_event_id: int().optional(),
  dont_block: bool().default(false),
  ...pollRegisterParams,
};

/** Event queues: POST /register, GET and DELETE /events; and POST /typing, which only emits events. */
export const eventEndpoints = [
  endpoint({
    method: "POST",
    path: "/register",
    params: registerParams,
    async handler({ ctx, user, params }) {
      const reg: Registration = {
        applyMarkdown: params.apply_markdown,
        clientGravatar: params.client_gravatar,
        slimPresence: params.slim_presence,
        allPublicStreams: params.all_public_streams,
        capabilities: { notification_settings_null: false, ...params.client_capabilities },
        eventTypes: params.event_types ?? null,
        narrow: params.narrow,
        lifespanSecs: params.queue_lifespan_secs,
      };
      const fetchTypes = params.fetch_event_types !== undefined ? params.fetch_event_types : reg.eventTypes;
      const subscribers = params.include_subscribers === "partial" ? "partial" : params.include_subscribers === "true";
      return registerQueue(ctx, user, reg, fetchTypes, subscribers);
    },
  }),
  endpoint({
    method: "GET",
    path: "/events",
    rateLimited: false,
    params: pollParams,
    async handler({ ctx, user, params, request, reply }) {
      if (params.queue_id === undefined) return createQueueWithoutState(ctx, user, params);
      if (params.last_event_id === undefined) throw badRequest("Missing 'last_event_id' argument");
      // In a cluster, a queue held by another process is served there.
      if (ctx.cluster && (await ctx.cluster.queues.route(ctx.queues, params.queue_id, request, reply))) return {};
      const queue = ctx.queues.access(params.queue_id, user.id);
      queue.acknowledge(params.last_event_id);
      if (queue.events.length > 0 || params.dont_block || ctx.queues.closing) {
        queue.finish("ready");
        return new JsonText(`{"events":${eventsJson(queue.contents())}}`);
      }
      return longPoll(ctx, queue, reply);
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/events",
    params: { queue_id: str() },
    async handler({ ctx, user, params, request, reply }) {
      if (ctx.cluster && (await ctx.cluster.queues.route(ctx.queues, params.queue_id, request, reply))) return {};
      ctx.queues.delete(ctx.queues.access(params.queue_id, user.id));
      await (ctx.durable?.forget(params.queue_id) ?? ctx.cluster?.keeper.forget(params.queue_id));
      return {};
    },
  }),
  endpoint({
    method: "POST",
    path: "/typing",
    params: {
      type: choice(["direct", "stream", "channel"]).default("direct"),
      op: choice(["start", "stop"]),
      to: json(isList(isInt())).optional(),
      stream_id: json(isInt()).optional(),
      topic: str().optional(),
    },
    async handler({ ctx, user, params }) {
      await checkSendTyping(ctx, user, params.op, params.type === "direct" ? { to: params.to } : { streamId: params.stream_id, topic: params.topic });
      return {};
    },
  }),
];

function isCapability(key: string): boolean {
  return key in pollRegisterParams && !["apply_markdown", "client_gravatar", "slim_presence", "all_public_streams", "event_types", "narrow", "lifespan_secs"].includes(key);
}

type PollParams = ParamValues<typeof pollParams>;

/** GET /events without a queue: Zulip registers one only for a non-blocking call, and answers without state. */
async function createQueueWithoutState(ctx: AppContext, user: UserRow, params: PollParams): Promise<Record<string, unknown>> {
  if (!params.dont_block) throw badRequest("Missing 'queue_id' argument");
  const capabilities: Record<string, boolean> = {};
  for (const [key, value] of Object.entries(params)) if (value === true && isCapability(key)) capabilities[key] = true;
  const queue = ctx.queues.create(
    queueOptions(user, {
      applyMarkdown: params.apply_markdown,
      clientGravatar: params.client_gravatar,
      slimPresence: params.slim_presence,
      allPublicStreams: params.all_public_streams,
      capabilities,
      eventTypes: params.event_types ?? null,
      narrow: params.narrow,
      lifespanSecs: params.lifespan_secs,
    }),
  );
  await (ctx.durable?.register(queue) ?? ctx.cluster?.keeper.register(queue));
  return { events: [], queue_id: queue.id };
}

/** Waits for the queue's next events (or a heartbeat); a client that hangs up leaves no waiter and no timer behind. */
async function longPoll(ctx: AppContext, queue: EventQueue, reply: FastifyReply): Promise<Record<string, unknown> | JsonText> {
  let waiter!: PollWaiter;
  const done = new Promise<WakeReason>((resolve) => (waiter = { end: resolve }));
  ctx.queues.park(queue, waiter);
  const onClose = () => {
    if (!reply.raw.writableEnded) queue.hangUp(waiter, ctx.clock.now());
  };
  reply.raw.once("close", onClose);
  const reason = await done;
  reply.raw.off("close", onClose);
  queue.lastConnection = ctx.clock.now();
  if (reason === "closed") {
    reply.hijack();
    return {};
  }
  if (reason === "gone") throw badQueueId(queue.id);
  return new JsonText(pollAnswer(queue));
}

/** A long-poll's answer: the queue's events and its id, with the events' shared JSON spliced in. */
function pollAnswer(queue: EventQueue): string {
  return `{"events":${eventsJson(queue.contents())},"queue_id":${JSON.stringify(queue.id)}}`;
}

// ---------------------------------------------------------------- the lean path

/** A query of plain tokens only: nothing to decode, so any parser reads it the same way. */
const PLAIN_QUERY = /^[A-Za-z0-9_.=&-]*$/;
/** A last_event_id the int codec reads as written (JSON, an integer, far inside its range). */
const SMALL_INT = /^-?(?:0|[1-9][0-9]{0,8})$/;
const JSON_TYPE = "application/json; charset=utf-8";
const NO_HEADERS: IncomingMessage["headers"] = Object.freeze({});

/** What the server records of a request answered on the lean path (the framework's onResponse does it for the others). */
export type LeanDone = (req: IncomingMessage, route: string, status: number, startedAt: number, userId: number) => void;

/**
 * GET /api/v1/events with a queue this process holds, answered below the framework: a parked poll
 * keeps only Node's request and response and one small record (no framework request, reply,
 * hooks, promises or closures), and its answer is the queue's prebuilt JSON written at once.
 * Anything out of the ordinary (another method or path, a body, an unknown, repeated or encoded
 * parameter, credentials not cached, an error, a queue held elsewhere, the server stopping)
 * returns false before anything changed, and the framework serves the request the usual way,
 * with the same answer it always gave.
 */
export function leanEvents(ctx: AppContext, done: LeanDone): (req: IncomingMessage, res: ServerResponse) => boolean {
  const ROUTE = "/api/v1/events";
  const server: LeanServer = { ctx, done };
  return (req, res) => {
    if (req.method !== "GET") return false;
    const url = req.url ?? "";
    if (!url.startsWith(ROUTE) || url.charCodeAt(ROUTE.length) !== 63 /* ? */ || ctx.queues.closing) return false;
    const headers = req.headers;
    if (headers["content-length"] !== undefined || headers["transfer-encoding"] !== undefined || headers.authorization === undefined) return false;
    if (!PLAIN_QUERY.test(url.slice(ROUTE.length + 1))) return false;
    // The three parameters, each at most once, in the forms whose reading by the endpoint's codecs
    // is plain (an id, a small integer, true or false): anything else is the framework's to read.
    let queueId: string | undefined;
    let last: string | undefined;
    let dontBlock = false;
    for (let at = ROUTE.length + 1; at < url.length; ) {
      let end = url.indexOf("&", at);
      if (end < 0) end = url.length;
      const eq = url.indexOf("=", at);
      if (eq < 0 || eq > end) return false;
      const value = url.slice(eq + 1, end);
      switch (url.slice(at, eq)) {
        case "queue_id":
          if (queueId !== undefined || value === "") return false;
          queueId = value;
          break;
        case "last_event_id":
          if (last !== undefined || !SMALL_INT.test(value)) return false;
          last = value;
          break;
        case "dont_block":
          if (value !== "true" && value !== "false") return false;
          dontBlock = value === "true";
          break;
        default:
          return false;
      }
      at = end + 1;
    }
    if (queueId === undefined || last === undefined || !ctx.queues.has(queueId)) return false;
    const startedAt = performance.now();
    let queue: EventQueue;
    let userId: number;
    try {
      const user = authenticate(ctx, headers.authorization);
      if (user instanceof Promise) {
        user.catch(() => undefined);
        return false;
      }
      queue = ctx.queues.access(queueId, user.id);
      userId = user.id;
      // A refusal here is given again, the same, by the framework's way.
      queue.acknowledge(Number(last));
    } catch {
      return false;
    }
    if (queue.events.length > 0 || dontBlock) {
      queue.finish("ready");
      const body = `{"result":"success","msg":"","events":${eventsJson(queue.contents())}}\n`;
      writeJson(res, 200, body);
      done(req, ROUTE, 200, startedAt, userId);
      return true;
    }
    // The poll has read its URL and headers; Node would keep them (the headers twice, raw and
    // parsed) for the whole wait. The log line names the route, and the forwarded address is kept.
    const forwarded = headers["x-forwarded-for"];
    req.headers = forwarded === undefined ? NO_HEADERS : { "x-forwarded-for": forwarded };
    req.rawHeaders.length = 0;
    req.url = ROUTE;
    const poll = new LeanPoll(server, queue, res, startedAt);
    parked.set(res, poll);
    res.on("close", onLeanClose);
    ctx.queues.park(queue, poll);
    return true;
  };
}

/** What every lean poll of one server shares. */
interface LeanServer {
  ctx: AppContext;
  done: LeanDone;
}

/** The lean polls waiting, by response (one shared 'close' listener serves them all). */
const parked = new WeakMap<ServerResponse, LeanPoll>();

function onLeanClose(this: ServerResponse): void {
  const poll = parked.get(this);
  if (poll && !this.writableEnded) poll.queue.hangUp(poll, poll.server.ctx.clock.now());
}

/** A parked lean poll: what it needs to answer, nothing more (the request is the response's `req`). */
class LeanPoll implements PollWaiter {
  constructor(
    readonly server: LeanServer,
    readonly queue: EventQueue,
    private readonly res: ServerResponse,
    private readonly startedAt: number,
  ) {}

  end(reason: WakeReason): void {
    const { res, queue, server } = this;
    parked.delete(res);
    res.off("close", onLeanClose);
    queue.lastConnection = server.ctx.clock.now();
    if (reason === "closed") return;
    let status = 200;
    if (reason === "gone") {
      const error = badQueueId(queue.id);
      status = error.status;
      writeError(res, error);
    } else {
      writeJson(res, 200, `{"result":"success","msg":"","events":${eventsJson(queue.contents())},"queue_id":${JSON.stringify(queue.id)}}\n`);
    }
    server.done(res.req, "/api/v1/events", status, this.startedAt, queue.options.userId);
  }
}

function writeJson(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, ["content-type", JSON_TYPE, "content-length", String(Buffer.byteLength(body))]);
  res.end(body);
}

function writeError(res: ServerResponse, error: ApiError): void {
  const body = JSON.stringify(error.body()) + "\n";
  res.writeHead(error.status, { ...error.headers, "content-type": JSON_TYPE, "content-length": Buffer.byteLength(body) });
  res.end(body);
}
