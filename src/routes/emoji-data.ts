import type { FastifyInstance } from "fastify";
import { emojiCodeToNames } from "../markdown/emoji-data.js";

/** Where /register's server_emoji_data_url points (Zulip's static generated/emoji/emoji_api.json). */
export const EMOJI_DATA_PATH = "/static/generated/emoji/emoji_api.json";

/**
 * Serves the server's unicode emoji names, {"code_to_names": {code: [names…]}}, which clients
 * such as the mobile app load for their emoji picker. A static file for Zulip: no authentication,
 * cached for long by clients and proxies; it changes only with the server's emoji data.
 */
export function registerEmojiDataRoute(http: FastifyInstance): void {
  let body: string | undefined;
  http.get(EMOJI_DATA_PATH, async (_request, reply) => {
    body ??= JSON.stringify({ code_to_names: emojiCodeToNames() });
    return reply.type("application/json").header("Cache-Control", "public, max-age=31536000").send(body);
  });
}
