import fs from "node:fs/promises";
import type { FastifyInstance } from "fastify";
import { checkAddRealmEmoji, checkRemoveRealmEmoji } from "../actions/realm-emoji.js";
import type { AppContext } from "../context.js";
import { realmEmojiOfRealm } from "../db/queries/realm-emoji.js";
import { endpoint } from "../http/endpoint.js";
import { uploadedFiles } from "../http/uploads.js";
import { EMOJI_IMAGE_TYPES, emojiFilePath, realmEmojiDict } from "../lib/realm/emoji.js";

/** Custom emoji: list (public to the realm's users), upload, deactivate. */
export const realmEmojiEndpoints = [
  endpoint({
    method: "GET",
    path: "/realm/emoji",
    params: {},
    async handler({ ctx, user }) {
      return { emoji: realmEmojiDict(await realmEmojiOfRealm(ctx.db, user.realm_id)) };
    },
  }),
  endpoint({
    method: "POST",
    // The rest of the path, slashes included (Zulip's <path:emoji_name>), so they fail name validation.
    path: "/realm/emoji/*",
    params: {},
    async handler({ ctx, user, path, request }) {
      await checkAddRealmEmoji(ctx, user, path["*"] ?? "", uploadedFiles(request));
      return {};
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/realm/emoji/*",
    params: {},
    async handler({ ctx, user, path }) {
      await checkRemoveRealmEmoji(ctx, user, path["*"] ?? "");
      return {};
    },
  }),
];

const TYPE_OF_EXTENSION = new Map(Object.entries(EMOJI_IMAGE_TYPES).map(([type, ext]) => [ext, type]));

/**
 * The stored emoji images at the URL their source_url names, outside /api/v1 and without
 * authentication, as Zulip serves local uploads of avatars and emoji.
 */
export function registerEmojiImageRoutes(http: FastifyInstance, ctx: AppContext): void {
  http.get("/user_avatars/:realm_id/emoji/images/still/:file", async (request, reply) => {
    const { realm_id: realmId, file } = request.params as Record<string, string>;
    if (!/^\d+$/.test(realmId ?? "") || !/^[A-Za-z0-9-]+\.png$/.test(file ?? "")) return reply.code(404).type("text/plain").send("Not Found\n");
    try {
      const data = await fs.readFile(emojiFilePath(ctx.config.dataDir, Number(realmId), `still/${file ?? ""}`));
      return reply.type("image/png").header("Cache-Control", "public, max-age=86400").send(data);
    } catch {
      return reply.code(404).type("text/plain").send("Not Found\n");
    }
  });
  http.get("/user_avatars/:realm_id/emoji/images/:file", async (request, reply) => {
    const { realm_id: realmId, file } = request.params as Record<string, string>;
    const type = TYPE_OF_EXTENSION.get(/\.[a-z]+$/.exec(file ?? "")?.[0] ?? "");
    if (!/^\d+$/.test(realmId ?? "") || !/^[A-Za-z0-9-]+\.[a-z]+$/.test(file ?? "") || type === undefined) {
      return reply.code(404).type("text/plain").send("Not Found\n");
    }
    try {
      const data = await fs.readFile(emojiFilePath(ctx.config.dataDir, Number(realmId), file ?? ""));
      return reply.type(type).header("Cache-Control", "public, max-age=86400").send(data);
    } catch {
      return reply.code(404).type("text/plain").send("Not Found\n");
    }
  });
}
