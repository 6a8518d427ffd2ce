import type { FastifyInstance } from "fastify";
import { checkDeleteRealmIcon, checkDeleteRealmLogo, checkUploadRealmIcon, checkUploadRealmLogo } from "../actions/realm-branding.js";
import type { AppContext } from "../context.js";
import type { UserRow } from "../db/queries/users.js";
import { endpoint } from "../http/endpoint.js";
import { adminRequired, missingArgument } from "../http/errors.js";
import { sendStoredFile } from "../http/files.js";
import { decodeJson, isBool, str } from "../http/params.js";
import { uploadedFiles } from "../http/uploads.js";
import { realmBrandingKey, type LogoKind } from "../lib/realm/branding.js";
import { isAdmin } from "../lib/roles.js";

// `night` is taken raw and decoded after the role check: Zulip refuses non-administrators first.
const logoParams = { night: str().optional() };

/** The organisation's icon and wide logos (light and dark theme): upload one, or go back to the default. */
export const realmBrandingEndpoints = [
  endpoint({
    method: "POST",
    path: "/realm/icon",
    params: {},
    async handler({ ctx, user, request }) {
      return { icon_url: await checkUploadRealmIcon(ctx, user, uploadedFiles(request)) };
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/realm/icon",
    params: {},
    async handler({ ctx, user }) {
      return { icon_url: await checkDeleteRealmIcon(ctx, user) };
    },
  }),
  endpoint({
    method: "POST",
    path: "/realm/logo",
    params: logoParams,
    async handler({ ctx, user, params, request }) {
      await checkUploadRealmLogo(ctx, user, logoKind(user, params.night), uploadedFiles(request));
      return {};
    },
  }),
  endpoint({
    method: "DELETE",
    path: "/realm/logo",
    params: logoParams,
    async handler({ ctx, user, params }) {
      await checkDeleteRealmLogo(ctx, user, logoKind(user, params.night));
      return {};
    },
  }),
];

/** Which logo `night` names; a required JSON boolean, read once the caller is known to be an administrator. */
function logoKind(user: UserRow, night: string | undefined): LogoKind {
  if (!isAdmin(user)) throw adminRequired();
  if (night === undefined) throw missingArgument("night");
  return isBool(decodeJson(night, "night"), "night") ? "night_logo" : "logo";
}

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
