import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { checkDeleteExport, checkStartExport } from "../actions/exports.js";
import type { AppContext } from "../context.js";
import { exportsOfRealm } from "../db/queries/exports.js";
import type { UserRow } from "../db/queries/users.js";
import { authenticate, authenticateApiKeyParam } from "../http/auth.js";
import { endpoint } from "../http/endpoint.js";
import { sendFileError, sendStoredFile } from "../http/files.js";
import { pathInt } from "../http/params.js";
import { findSession, sessionUser } from "../http/session.js";
import { EXPORTS_KEY_PREFIX, exportDicts } from "../lib/export/exports.js";
import { isAdmin, requireAdmin } from "../lib/users/roles.js";

/** Data exports of the organisation (administrators only), as at feature level 277. */
export const exportEndpoints = [
  endpoint({
    method: "POST",
    path: "/export/realm",
    guard: requireAdmin,
    params: {},
    async handler({ ctx, user }) {
      return { id: await checkStartExport(ctx, user) };
    },
  }),
  endpoint({
    method: "GET",
    path: "/export/realm",
    guard: requireAdmin,
    params: {},
    async handler({ ctx, user }) {
      return { exports: exportDicts(await exportsOfRealm(ctx.db, user.realm_id), ctx.config.externalUrl) };
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/export/realm/:export_id",
    guard: requireAdmin,
    params: {},
    async handler({ ctx, user, path }) {
      await checkDeleteExport(ctx, user, pathInt(path.export_id));
      return {};
    },
  }),
];

/**
 * The archives at their export_url, served like uploads but only to the realm's administrators
 * (HTTP Basic, an `api_key` parameter or the web app's session), and only while not deleted.
 */
export function registerExportFileRoutes(http: FastifyInstance, ctx: AppContext): void {
  http.get("/user_avatars/exports/:realm_id/:token/:file", async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    const { realm_id: realmId, token, file } = request.params as Record<string, string | undefined>;
    const user = await caller(ctx, request);
    if (!user) return sendFileError(reply, 403);
    if (!isAdmin(user)) return sendFileError(reply, 403);
    const key = `${EXPORTS_KEY_PREFIX}${realmId ?? ""}/${token ?? ""}/${file ?? ""}`;
    const row = String(user.realm_id) === realmId ? (await exportsOfRealm(ctx.db, user.realm_id)).find((r) => r.export_path === key && r.deleted_time === null) : undefined;
    if (!row) return sendFileError(reply, 404);
    await sendStoredFile(request, reply, ctx.files, { key, contentType: "application/gzip", inline: false, filename: file ?? "" });
    return reply;
  });
}

async function caller(ctx: AppContext, request: FastifyRequest): Promise<UserRow | undefined> {
  if (request.headers.authorization !== undefined) return authenticate(ctx, request.headers.authorization);
  const apiKey = (request.query as Record<string, unknown> | undefined)?.api_key;
  if (typeof apiKey === "string") return authenticateApiKeyParam(ctx, apiKey);
  const session = await findSession(ctx, request);
  return session && sessionUser(ctx, request, session);
}
