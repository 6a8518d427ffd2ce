import http from "node:http";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Redis } from "ioredis";
import type { Logger } from "pino";
import { isSavedQueue } from "../events/persist.js";
import type { QueueRegistry } from "../events/queues.js";
import type { SavedQueue } from "../events/queue.js";
import { MEMBER_TTL_MS, type Members } from "./members.js";
import { parseRow, type QueueKeeper } from "./queue-keeper.js";
import type { ClusterKeys } from "./redis.js";
import type { StreamBus } from "./stream.js";

/** The header that marks a request forwarded by another process, carrying the cluster's secret. */
export const FORWARDED_HEADER = "x-rookery-forwarded";
/** How long a request waits for a queue whose owner stopped answering to be handed over. */
const HANDOVER_WAIT_MS = 3000;

/** Takes a handed-over queue, once: the process that gets it records itself as its new holder. */
const ADOPT = `local saved = redis.call('GET', KEYS[1])
if saved then
  redis.call('DEL', KEYS[1])
  redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
end
return saved`;

/**
 * Claims the queue of a process that died, once: the queue's row is returned (and this process
 * recorded as its holder) only if the holder the caller saw (ARGV[2]) is still its holder and is no
 * longer a live member. KEYS: the row, the queue's holder record, the holder's member entry.
 */
const CLAIM = `local row = redis.call('GET', KEYS[1])
if not row then return nil end
local current = redis.call('GET', KEYS[2])
if current and current ~= ARGV[2] then return nil end
if redis.call('EXISTS', KEYS[3]) == 1 then return nil end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[3])
return row`;

/** Removes a member entry if it still holds the address that refused (KEYS: the entry; ARGV: the address). */
const EVICT = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** A queue as handed over: the queue, and the stream entry its events go up to. */
interface Handover {
  queue: SavedQueue;
  streamId: string;
}

/**
 * Where the queues of a cluster live. A queue id starts with its creator's process id; a request
 * for a queue this process does not hold goes to the process that holds it (forwarded over its
 * internal address with the shared secret), or, if that process stopped cleanly and handed its
 * queues over to Redis, the queue is adopted here. A queue whose holder was killed outright is
 * rebuilt here from its row (cluster/queue-keeper.ts) once the holder has dropped out of the
 * members, or sooner when nothing listens at its address and it has stopped reporting. When nobody holds it and it cannot be rebuilt, the caller answers BAD_EVENT_QUEUE_ID,
 * as Zulip does for a queue lost with its server.
 */
export class QueueRouter {
  private readonly agent = new http.Agent({ keepAlive: true });
  /** Adoptions under way here, by queue id: requests for the queue wait for them. */
  private readonly adopting = new Map<string, Promise<void>>();

  constructor(
    private readonly processId: string,
    private readonly secret: string,
    private readonly redis: Redis,
    private readonly keys: ClusterKeys,
    private readonly members: Members,
    private readonly bus: StreamBus,
    private readonly keeper: QueueKeeper,
    private readonly log: Logger,
  ) {}

  /** Whether `request` was forwarded by a process of this cluster (then it is answered here, never forwarded again). */
  isForwarded(request: FastifyRequest): boolean {
    return request.headers[FORWARDED_HEADER] === this.secret;
  }

  /**
   * For a request naming a queue this process does not hold: true once the request was forwarded
   * and answered; false when the caller goes on locally (the queue was adopted here, or nobody
   * holds it and the local lookup answers BAD_EVENT_QUEUE_ID).
   */
  async route(queues: QueueRegistry, queueId: string, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    if (queues.has(queueId)) return false;
    const under = this.adopting.get(queueId);
    if (under) {
      await under;
      return false;
    }
    if (this.isForwarded(request)) return false;
    const start = Date.now();
    let deadline = start + HANDOVER_WAIT_MS;
    let durable: boolean | undefined;
    let tried = false;
    for (;;) {
      const holder = await this.holder(queueId);
      // A process that is stopping adopts nothing: another will.
      if (holder === undefined && !queues.closing) {
        if (tried) return false;
        await this.adoptOnce(queues, queueId);
        if (queues.has(queueId)) return false;
        // Another process may have claimed it meanwhile: then the next turn forwards there.
        tried = true;
        continue;
      }
      const outcome = holder === undefined ? "failed" : await this.forward(holder.address, request, reply);
      if (outcome === "answered") return true;
      // The holder does not answer: it is stopping (its handover comes soon) or it died. A queue
      // with a row is rebuilt once a dead holder has dropped out of the members: wait that long.
      if (holder !== undefined && durable === undefined) {
        durable = (await this.redis.exists(this.keys.queueRow(queueId))) === 1;
        if (durable) deadline = start + MEMBER_TTL_MS + HANDOVER_WAIT_MS;
      }
      // Nothing listens at its address and it has not reported a stream position for a while: it
      // died (a process that is merely slow still accepts connections). It need not be waited for.
      if (durable && holder !== undefined && outcome === "refused" && Date.now() - start >= HANDOVER_WAIT_MS && !this.bus.livePeers().includes(holder.processId)) {
        if ((await this.redis.eval(EVICT, 1, this.keys.member(holder.processId), holder.address)) === 1) this.log.warn({ processId: holder.processId }, "a cluster process refuses connections and is silent: taken for dead");
      }
      if (Date.now() >= deadline) return false;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Saves queues for whichever process is asked about them next (a clean stop). */
  async handOver(saved: readonly SavedQueue[], streamId: string): Promise<void> {
    const now = Date.now();
    const pipeline = this.redis.pipeline();
    for (const queue of saved) {
      const ttl = Math.max(1000, queue.options.lifespanSecs * 1000 - Math.max(0, now - queue.lastConnection));
      const handover: Handover = { queue, streamId };
      pipeline.set(this.keys.handover(queue.id), JSON.stringify(handover), "PX", ttl);
      pipeline.del(this.keys.moved(queue.id));
    }
    await pipeline.exec();
    this.log.info({ queues: saved.length }, "event queues handed over to the cluster");
  }

  /** The live process holding the queue (never this one) and its internal address, or undefined. */
  private async holder(queueId: string): Promise<{ processId: string; address: string } | undefined> {
    const moved = await this.redis.get(this.keys.moved(queueId));
    const candidates = [moved, ownerOf(queueId)].filter((id): id is string => id !== null && id !== undefined && id !== this.processId);
    for (const processId of candidates) {
      const address = await this.members.addressOf(processId);
      if (address !== undefined) return { processId, address };
    }
    return undefined;
  }

  /** Adopts the queue unless an adoption of it is under way here (then waits for that one). */
  private adoptOnce(queues: QueueRegistry, queueId: string): Promise<void> {
    let running = this.adopting.get(queueId);
    if (!running) {
      running = this.adopt(queues, queueId)
        .catch((error: unknown) => this.log.error({ err: error, queueId }, "adopting an event queue failed"))
        .finally(() => this.adopting.delete(queueId));
      this.adopting.set(queueId, running);
    }
    return running;
  }

  private async adopt(queues: QueueRegistry, queueId: string): Promise<void> {
    const text = await this.redis.eval(ADOPT, 2, this.keys.handover(queueId), this.keys.moved(queueId), this.processId, 7 * 86400 * 1000);
    if (typeof text !== "string") return this.rebuild(queueId);
    const handover = parseHandover(text);
    if (!handover) return;
    // This process may be behind the one that stopped: wait until it has applied as much.
    await this.bus.reached(handover.streamId, 2000);
    const missed = await this.bus.replay(handover.streamId);
    if (!missed) {
      this.log.warn({ queueId }, "a handed-over queue missed events (stream trimmed); dropped");
      return;
    }
    if (!queues.adopt(handover.queue, missed.map((entry) => entry.commit.events))) return;
    this.log.info({ queueId }, "adopted a handed-over event queue");
    // Its row now names this process: it survives this one's death too.
    const queue = queues.get(queueId);
    if (queue) await this.keeper.register(queue);
  }

  /** Rebuilds, from its row, a queue whose holder died (claimed first, so one process does it). */
  private async rebuild(queueId: string): Promise<void> {
    const holderId = (await this.redis.get(this.keys.moved(queueId))) ?? ownerOf(queueId);
    if (holderId === undefined || holderId === this.processId) return;
    const rowKey = this.keys.queueRow(queueId);
    const text = await this.redis.eval(CLAIM, 3, rowKey, this.keys.moved(queueId), this.keys.member(holderId), this.processId, holderId, 7 * 86400 * 1000);
    if (typeof text !== "string") return;
    const row = parseRow(text);
    if (row && (await this.keeper.rebuild(row))) {
      this.log.info({ queueId, from: holderId }, "rebuilt the event queue of a process that died");
      return;
    }
    this.log.warn({ queueId, from: holderId }, "the event queue of a process that died could not be rebuilt (stream trimmed past it, expired, or unreadable); dropped");
    await this.redis.del(rowKey);
  }

  /** Sends the request to `address` and relays the answer: "answered", or "refused" (nothing listens there), or "failed". */
  private forward(address: string, request: FastifyRequest, reply: FastifyReply): Promise<"answered" | "refused" | "failed"> {
    const body = formBody(request.body);
    const headers: http.OutgoingHttpHeaders = { [FORWARDED_HEADER]: this.secret };
    for (const name of ["authorization", "cookie", "user-agent"]) if (request.headers[name] !== undefined) headers[name] = request.headers[name];
    if (body !== undefined) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      headers["content-length"] = Buffer.byteLength(body);
    }
    return new Promise((resolve) => {
      const upstream = http.request(new URL(request.url, address), { method: request.method, headers, agent: this.agent }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          if (!reply.sent) {
            reply.code(response.statusCode ?? 502);
            for (const name of ["content-type", "retry-after"]) if (response.headers[name] !== undefined) reply.header(name, response.headers[name]);
            reply.send(Buffer.concat(chunks));
          }
          resolve("answered");
        });
        response.on("error", () => resolve("failed"));
      });
      // The client hung up: so does the forwarded poll (its queue counts idleness from now).
      const onClose = () => {
        if (!reply.raw.writableEnded) upstream.destroy();
      };
      reply.raw.once("close", onClose);
      upstream.on("error", (error: NodeJS.ErrnoException) => {
        reply.raw.off("close", onClose);
        resolve(error.code === "ECONNREFUSED" ? "refused" : "failed");
      });
      upstream.end(body);
    });
  }
}

/** The process that created a queue, from its id (a UUID whose last group is the process id). */
export function ownerOf(queueId: string): string | undefined {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-([0-9a-f]{12})$/.exec(queueId)?.[1];
}

function formBody(body: unknown): string | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(body)) if (typeof value === "string") form.append(name, value);
  const text = form.toString();
  return text === "" ? undefined : text;
}

function parseHandover(text: string): Handover | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof data !== "object" || data === null || !("queue" in data) || !("streamId" in data) || typeof data.streamId !== "string") return undefined;
  return isSavedQueue(data.queue) ? { queue: data.queue, streamId: data.streamId } : undefined;
}
