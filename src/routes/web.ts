import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { doExtendSession, SESSION_LIFETIME_MS } from "../actions/sessions.js";
import type { AppContext } from "../context.js";
import { escapeHtml, html, page } from "../http/pages.js";
import { clearSessionCookie, findSession, setSessionCookie } from "../http/session.js";
import type { UserRow } from "../db/queries/users.js";
import { messagesPage } from "../lib/messages/page.js";
import { userSetting } from "../lib/users/settings.js";

/** Messages on each side of the first unread in the first page of the Combined feed the page carries (the app's FIRST_PAGE_SIDE, web/api/first-page.ts). */
const FIRST_PAGE_SIDE = 50;

/** A session seen on the app page with less than this left of its lifetime is extended. */
const EXTEND_AFTER_MS = 86_400_000;

/**
 * The web app as the server serves it: the app page at `/` for a signed-in browser (else the
 * login page), its built files under `/static/`, `/favicon.ico`, and `/help/…` (Zulip's help
 * centre until Rookery has its own).
 */
export function registerWebRoutes(http: FastifyInstance, ctx: AppContext): void {
  http.get("/", (request, reply) => appPage(ctx, request, reply));
  http.get("/static/*", async (request, reply) => {
    await ctx.web.send(request, reply, (request.params as Record<string, string | undefined>)["*"] ?? "");
    // The reply, not undefined: the file is still streaming out when this resolves.
    return reply;
  });
  http.get("/favicon.ico", async (_request, reply) => {
    const url = await ctx.web.url("favicon.svg");
    if (url === undefined) return reply.code(404).type("text/plain").send("Not Found\n");
    return reply.redirect(url, 302);
  });
  for (const url of ["/help", "/help/*"]) {
    http.get(url, (request, reply) => {
      const rest = (request.params as Record<string, string | undefined>)["*"] ?? "";
      const at = request.url.indexOf("?");
      return reply.redirect(`https://zulip.com/help/${rest}${at < 0 ? "" : request.url.slice(at)}`, 302);
    });
  }
}

async function appPage(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const manifest = await ctx.web.manifest();
  const script = manifest?.["app.js"];
  const style = manifest?.["app.css"];
  if (!manifest || script === undefined || style === undefined) {
    const body = "<p>The web app is not built: run <code>npm run build</code>, then reload this page.</p>";
    return html(reply, 503, page("Rookery is not ready", body));
  }
  const found = await findSession(ctx, request);
  const user = found && (await ctx.users.get(found.row.user_id));
  const realm = user && (await ctx.realms.get(user.realm_id));
  if (!found || !user || !realm || !user.is_active || realm.deactivated) {
    if (found) clearSessionCookie(ctx, reply);
    return reply.header("Cache-Control", "no-store").redirect("/login/", 302);
  }
  // A browser that keeps coming back stays signed in: its session is extended, at most daily.
  if (found.row.expires_at - ctx.clock.now() < SESSION_LIFETIME_MS - EXTEND_AFTER_MS) {
    setSessionCookie(ctx, reply, found.cookie, await doExtendSession(ctx, found.digest, user.id));
  }
  const favicon = manifest["favicon.svg"];
  const boot = manifest["boot.js"];
  // The chunks app.js imports, named for app.js to preload together (main.tsx) rather than one wave
  // of imports after another. Not <link rel="modulepreload">: the page would fetch and compile
  // them while boot.js draws the first list, and that list would be painted later.
  const chunks = Object.entries(manifest)
    .filter(([key]) => key.startsWith("app.js.import."))
    .map(([, file]) => file)
    .join(" ");
  const home = String(userSetting(user, "web_home_view") ?? "inbox");
  const firstPage = home === "all_messages" ? await combinedFeedPage(ctx, user) : "";
  const document = [
    `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<title>${escapeHtml(realm.name)}</title><meta name="csrf-token" content="${escapeHtml(found.row.csrf_token)}"><meta name="rookery-home-view" content="${escapeHtml(home)}">`,
    favicon === undefined ? "" : `<link rel="icon" href="/static/${escapeHtml(favicon)}">`,
    // boot.js, small and run first (defer: before the app.js module), asks for the open narrow's first messages and draws them while the app loads.
    boot === undefined ? "" : `<script defer src="/static/${escapeHtml(boot)}"></script>`,
    `<link rel="stylesheet" href="/static/${escapeHtml(style)}"><script type="module" src="/static/${escapeHtml(script)}"></script>`,
    chunks === "" ? "" : `<meta name="rookery-chunks" content="${escapeHtml(chunks)}">`,
    `</head>`,
    `<body>${firstPage}<div id="app"></div></body></html>`,
  ].join("");
  return html(reply, 200, document);
}

/**
 * The home view's first messages, for a user whose home view is the Combined feed: GET /messages's
 * answer as the app would ask for it, in a JSON block (data, not script: the CSP has no say) that
 * boot.js draws from at once, without a request of its own. Empty when it cannot be had.
 */
async function combinedFeedPage(ctx: AppContext, user: UserRow): Promise<string> {
  try {
    const page = await messagesPage(ctx, user, { anchor: "first_unread", numBefore: FIRST_PAGE_SIDE, numAfter: FIRST_PAGE_SIDE, includeAnchor: true, narrow: [] }, { applyMarkdown: true, clientGravatar: false });
    // "<" written as an escape: nothing inside can close the block.
    const json = JSON.stringify({ result: "success", msg: "", ...page }).replace(/</g, "\\u003c");
    return `<script type="application/json" id="rookery-first-page">${json}</script>`;
  } catch (error) {
    ctx.log.warn({ err: error }, "the app page's first messages");
    return "";
  }
}
