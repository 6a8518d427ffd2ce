import type { FastifyInstance } from "fastify";
import { checkDeleteAvatar, checkSetAvatar } from "../actions/avatars.js";
import type { AppContext } from "../context.js";
import { authenticate } from "../http/auth.js";
import { endpoint } from "../http/endpoint.js";
import { sessionRequired } from "../base/errors.js";
import { findSession, sessionUser } from "../http/session.js";
import { avatarUrl, mediumAvatarUrl } from "../lib/users/users.js";
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

/**
 * `/avatar/{user_id}` (and `/medium`): a redirect to that user's avatar, for clients that were
 * not sent avatar URLs (Zulip's avatar view); the caller is authenticated by the web app's
 * session cookie or HTTP Basic, and the user must be of the caller's organisation.
 */
export function registerAvatarRedirects(http: FastifyInstance, ctx: AppContext): void {
  for (const [url, medium] of [["/avatar/:user_id", false], ["/avatar/:user_id/medium", true]] as const) {
    http.get(url, async (request, reply) => {
      const session = await findSession(ctx, request);
      const header = request.headers.authorization;
      if (!session && header === undefined) throw sessionRequired();
      const caller = session ? await sessionUser(ctx, request, session) : await authenticate(ctx, header);
      const id = (request.params as Record<string, string | undefined>).user_id ?? "";
      const target = /^\d{1,9}$/.test(id) ? await ctx.users.get(Number(id)) : undefined;
      if (!target || target.realm_id !== caller.realm_id) return reply.code(404).type("text/plain").send("Not Found\n");
      const location = medium ? mediumAvatarUrl(target) : (avatarUrl(target, false) ?? "");
      const query = request.url.indexOf("?");
      return reply.redirect(query < 0 ? location : `${location}${location.includes("?") ? "&" : "?"}${request.url.slice(query + 1)}`, 302);
    });
  }
}

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
