import type { FastifyInstance } from "fastify";
import { checkDeleteAvatar, checkSetAvatar } from "../actions/avatars.js";
import type { AppContext } from "../context.js";
import { endpoint } from "../http/endpoint.js";
import { sendStoredFile } from "../http/files.js";
import { uploadedFiles } from "../http/uploads.js";

/** The caller's own avatar: upload one, or go back to Gravatar. */
export const avatarEndpoints = [
  endpoint({
    method: "POST",
    path: "/users/me/avatar",
    params: {},
    async handler({ ctx, user, request }) {
      return { avatar_url: await checkSetAvatar(ctx, user, uploadedFiles(request)) };
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/users/me/avatar",
    params: {},
    async handler({ ctx, user }) {
      return { avatar_url: await checkDeleteAvatar(ctx, user) };
    },
  }),
];

/** Uploaded avatars at their URLs, without authentication (as Zulip serves them), cached for good: every change has a new URL. */
export function registerAvatarRoutes(http: FastifyInstance, ctx: AppContext): void {
  http.get("/user_avatars/:realm_id/:file", async (request, reply) => {
    const { realm_id: realmId, file } = request.params as Record<string, string | undefined>;
    const match = /^([0-9a-f]{40})(-medium\.png|\.png|\.original)$/.exec(file ?? "");
    if (!/^\d+$/.test(realmId ?? "") || !match) return reply.code(404).type("text/plain").send("Not Found\n");
    const key = `user_avatars/${realmId}/${file}`;
    if (!(await ctx.files.exists(key))) return reply.code(404).type("text/plain").send("Not Found\n");
    // Originals are kept as uploaded, of any type: offered as downloads only.
    const original = match[2] === ".original";
    await sendStoredFile(request, reply, ctx.files, { key, contentType: original ? "application/octet-stream" : "image/png", inline: !original, filename: file ?? "" });
    return reply;
  });
}
