import type { FastifyReply } from "fastify";
import { checkSendTyping } from "../actions/typing.js";
import type { AppContext } from "../context.js";
import type { UserRow } from "../db/queries/users.js";
import { pollRegisterParams, queueOptions, registerParams, registerQueue, type Registration } from "./register.js";
import { badQueueId, type EventQueue } from "../events/queue.js";
import { endpoint } from "../http/endpoint.js";
import { badRequest } from "../base/errors.js";
import { bool, choice, int, isInt, isList, json, str, type ParamValues } from "../http/params.js";

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
        return { events: queue.contents() };
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
      await ctx.durable?.forget(params.queue_id);
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
  await ctx.durable?.register(queue);
  return { events: [], queue_id: queue.id };
}

/** Waits for the queue's next events (or a heartbeat); a client that hangs up leaves no waiter and no timer behind. */
async function longPoll(ctx: AppContext, queue: EventQueue, reply: FastifyReply): Promise<Record<string, unknown>> {
  const poll = queue.wait(ctx.clock.now(), ctx.queues.heartbeatDelay(), () => ctx.queues.sendHeartbeat(queue));
  const onClose = () => {
    if (!reply.raw.writableEnded) poll.cancel(ctx.clock.now());
  };
  reply.raw.once("close", onClose);
  const reason = await poll.done;
  reply.raw.off("close", onClose);
  queue.lastConnection = ctx.clock.now();
  if (reason === "closed") {
    reply.hijack();
    return {};
  }
  if (reason === "gone") throw badQueueId(queue.id);
  return { events: queue.contents(), queue_id: queue.id };
}
