import type { FastifyInstance } from "fastify";
import { LOADING_PLACEHOLDER_SRC } from "../markdown/previews.js";

/** A small spinner: three dots that fade in turn (a still image where animation is off). */
const SPINNER =
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40" viewBox="0 0 40 40" fill="#8a8f98">' +
  [8, 20, 32].map((x, i) => `<circle cx="${x}" cy="20" r="4"><animate attributeName="opacity" values="1;.2;1" dur="1.2s" begin="${i * 0.2}s" repeatCount="indefinite"/></circle>`).join("") +
  "</svg>\n";

/**
 * Serves the image the rendered Markdown shows while an uploaded image's thumbnails are being made
 * (Zulip's static loading placeholder), so a browser showing such a message loads it like any other.
 */
export function registerLoadingImageRoute(http: FastifyInstance): void {
  http.get(LOADING_PLACEHOLDER_SRC, async (_request, reply) => reply.type("image/svg+xml").header("Cache-Control", "public, max-age=86400").send(SPINNER));
}
