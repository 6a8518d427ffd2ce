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
