import type { FastifyInstance } from "fastify";
import { checkDeleteRealmIcon, checkDeleteRealmLogo, checkUploadRealmIcon, checkUploadRealmLogo } from "../actions/realm-branding.js";
import type { AppContext } from "../context.js";
import { endpoint } from "../http/endpoint.js";
import { sendStoredFile } from "../http/files.js";
import { bool } from "../http/params.js";
import { uploadedFiles } from "../http/uploads.js";
import { realmBrandingKey } from "../lib/realm/branding.js";
import { requireAdmin } from "../lib/users/roles.js";

/** The organisation's icon and wide logos (light and dark theme): upload one, or go back to the default; administrators only. */
export const realmBrandingEndpoints = [
  endpoint({
    method: "POST",
    path: "/realm/icon",
    guard: requireAdmin,
    params: {},
    async handler({ ctx, user, request }) {
      return { icon_url: await checkUploadRealmIcon(ctx, user, uploadedFiles(request)) };
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/realm/icon",
    guard: requireAdmin,
    params: {},
    async handler({ ctx, user }) {
      return { icon_url: await checkDeleteRealmIcon(ctx, user) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/realm/logo",
    guard: requireAdmin,
    params: { night: bool() },
    async handler({ ctx, user, params, request }) {
      await checkUploadRealmLogo(ctx, user, params.night ? "night_logo" : "logo", uploadedFiles(request));
      return {};
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/realm/logo",
    guard: requireAdmin,
    params: { night: bool() },
    async handler({ ctx, user, params }) {
      await checkDeleteRealmLogo(ctx, user, params.night ? "night_logo" : "logo");
      return {};
    },
  }),
];

const BRANDING_FILE = /^(icon|logo|night_logo)\.(png|original)$/;

/** The uploaded icon and logos at their URLs, without authentication (as Zulip serves them); originals as downloads. */
export function registerRealmBrandingRoutes(http: FastifyInstance, ctx: AppContext): void {
  http.get("/user_avatars/:realm_id/realm/:file", async (request, reply) => {
    const { realm_id: realmId, file } = request.params as Record<string, string | undefined>;
    const match = BRANDING_FILE.exec(file ?? "");
    if (!/^\d+$/.test(realmId ?? "") || !match) return reply.code(404).type("text/plain").send("Not Found\n");
    const key = realmBrandingKey(Number(realmId), file ?? "");
    if (!(await ctx.files.exists(key))) return reply.code(404).type("text/plain").send("Not Found\n");
    const original = match[2] === "original";
    await sendStoredFile(request, reply, ctx.files, { key, contentType: original ? "application/octet-stream" : "image/png", inline: !original, filename: file ?? "" });
    return reply;
  });
}
