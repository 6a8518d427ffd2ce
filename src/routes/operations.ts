import type { FastifyInstance } from "fastify";
import { sql } from "kysely";
import type { AppContext } from "../context.js";

/**
 * GET /health, for load balancers and monitors (as Zulip has it): Zulip's success envelope when
 * the database answers, a 500 error envelope otherwise. Not under /api/v1, not rate limited.
 */
export function registerHealthRoute(http: FastifyInstance, ctx: AppContext): void {
  http.get("/health", async (_request, reply) => {
    try {
      await sql`select 1`.execute(ctx.db);
    } catch (error) {
      ctx.log.error({ err: error }, "health check: the database does not answer");
      return reply.code(500).type("application/json").send(JSON.stringify({ result: "error", msg: "Database is unavailable", code: "BAD_REQUEST" }) + "\n");
    }
    return reply.type("application/json").header("Cache-Control", "no-store").send('{"result":"success","msg":""}\n');
  });
}

/** Loopback addresses: the only callers /metrics answers (a Prometheus on this host, or a proxy). */
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;

/**
 * GET /metrics: Prometheus metrics in the text exposition format, to loopback callers only (the
 * figures say how busy the server is, which is nobody else's business); 404 to others.
 */
export function registerMetricsRoute(http: FastifyInstance, ctx: AppContext): void {
  http.get("/metrics", async (request, reply) => {
    if (!LOOPBACK.test(request.ip)) return reply.code(404).type("text/plain").send("Not Found\n");
    const { text, contentType } = await ctx.metrics.exposition();
    return reply.type(contentType).header("Cache-Control", "no-store").send(text);
  });
}
