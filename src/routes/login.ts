import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { doCreateSession, doEndSession } from "../actions/sessions.js";
import { doUpgradePasswordHash } from "../actions/account.js";
import type { AppContext } from "../context.js";
import { defaultRealm, type RealmRow } from "../db/queries/realms.js";
import { ApiError } from "../base/errors.js";
import { escapeHtml, html } from "../http/pages.js";
import { bodyField, checkCsrf, clearSessionCookie, findSession, setSessionCookie } from "../http/session.js";
import { checkPasswordLogin } from "../lib/users/login.js";
import { authPage, formError, refusedForeignForm, sendForbidden } from "./form-pages.js";

/** Django's AuthenticationForm invalid_login, with Zulip's username field ("email"). */
const INVALID_LOGIN = "Please enter a correct email and password. Note that both fields may be case-sensitive.";

/**
 * The login form (`/login/`, and Zulip's other address `/accounts/login/`) and logout
 * (`POST /accounts/logout/`), server-rendered pages outside the API. Signing in makes a session
 * (the `rookery_session` cookie) and goes to `next` or the app at `/`; the form's errors are
 * Zulip's login form texts, with the attempt limits of POST /fetch_api_key.
 */
export function registerLoginRoutes(http: FastifyInstance, ctx: AppContext): void {
  for (const url of ["/login/", "/accounts/login/"]) {
    http.get(url, (request, reply) => showLogin(ctx, request, reply));
    http.post(url, (request, reply) => submitLogin(ctx, request, reply));
  }
  for (const url of ["/login", "/accounts/login"]) http.get(url, (request, reply) => reply.redirect(`${url}/${queryOf(request.url)}`, 301));
  http.post("/accounts/logout/", (request, reply) => logout(ctx, request, reply));
  http.get(KEEP_FRAGMENT_URL, async (_request, reply) =>
    reply.type("text/javascript; charset=utf-8").header("Cache-Control", "public, max-age=86400").header("X-Content-Type-Options", "nosniff").send(KEEP_FRAGMENT_SCRIPT),
  );
}

/**
 * The login page's only script (a file: the CSP allows no inline script). A browser sent here
 * from `/#narrow/…` still shows that fragment, but a form post drops it: the script puts it in
 * `next`, so the app opens on the same view after signing in.
 */
const KEEP_FRAGMENT_URL = "/login/keep-fragment.js";
const KEEP_FRAGMENT_SCRIPT = `for (const next of document.querySelectorAll('input[name="next"]')) {
  if (location.hash.length > 1 && !next.value.includes("#")) next.value += location.hash;
}
`;

async function showLogin(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const next = safeNext((request.query as Record<string, unknown> | undefined)?.next);
  if (await findSession(ctx, request)) return reply.redirect(next, 302);
  const realm = await defaultRealm(ctx.db);
  return html(reply, 200, await loginPage(ctx, realm, { email: "", next }, undefined));
}

async function submitLogin(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  // A form posted from another site (login CSRF) is refused as Django's CSRF check would.
  if (await refusedForeignForm(ctx, request, reply)) return;
  const email = (bodyField(request.body, "username") ?? "").trim();
  const password = bodyField(request.body, "password") ?? "";
  const next = safeNext(bodyField(request.body, "next"));
  const realm = await defaultRealm(ctx.db);
  const again = async (message: string) => html(reply, 200, await loginPage(ctx, realm, { email, next }, message));
  if (!realm) return again("This organization does not exist.");
  if (email === "" || password === "") return again("This field is required.");
  const outcome = await checkPasswordLogin(ctx, realm, email, password);
  switch (outcome.kind) {
    case "rate_limited":
      return again(`You're making too many attempts to sign in. Try again in ${Math.trunc(outcome.secs)} seconds or contact your organization administrator for help.`);
    case "invalid":
      return again(INVALID_LOGIN);
    case "realm_deactivated":
      return again("This organization has been deactivated.");
    case "user_deactivated":
      return again(`Your account ${email} has been deactivated. Please contact your organization administrator to reactivate it.`);
    case "ok": {
      await doUpgradePasswordHash(ctx, outcome.user, password);
      const session = await doCreateSession(ctx, outcome.user);
      setSessionCookie(ctx, reply, session.cookie, session.expiresAt);
      return reply.header("Cache-Control", "no-store").redirect(next, 302);
    }
  }
}

async function logout(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const found = await findSession(ctx, request);
  if (found) {
    try {
      checkCsrf(ctx, request, found.row, true);
    } catch (error) {
      if (error instanceof ApiError) return sendForbidden(ctx, reply, String(error.data.reason));
      throw error;
    }
    await doEndSession(ctx, found.digest, found.row.user_id);
  }
  clearSessionCookie(ctx, reply);
  return reply.redirect("/login/", 302);
}

/** The form, with the address typed so far and the error to show. */
async function loginPage(ctx: AppContext, realm: RealmRow | undefined, values: { email: string; next: string }, message: string | undefined): Promise<string> {
  const name = realm?.name ?? "Rookery";
  const body = [
    formError(message),
    `<form method="post" action="/login/">`,
    `<input type="hidden" name="next" value="${escapeHtml(values.next)}">`,
    `<p><label>Email <input type="email" name="username" autocomplete="email" required autofocus value="${escapeHtml(values.email)}"></label></p>`,
    `<p><label>Password <input type="password" name="password" autocomplete="current-password" required></label></p>`,
    `<p><button type="submit">Log in</button></p>`,
    `</form>`,
    `<p class="aside"><a href="/accounts/password/reset/">Forgot your password?</a></p>`,
    `<script src="${KEEP_FRAGMENT_URL}" defer></script>`,
  ].join("\n");
  return authPage(ctx, `Log in to ${name}`, body);
}

/**
 * Where to go after signing in: a path on this server (not another host, not an API URL, which
 * would send the browser back here), else the app.
 */
export function safeNext(value: unknown): string {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return "/";
  // eslint-disable-next-line no-control-regex
  if (/^\/(?:api|json)(?:\/|$)/.test(value) || /[\u0000-\u001f]/.test(value)) return "/";
  return value;
}

function queryOf(url: string): string {
  const at = url.indexOf("?");
  return at < 0 ? "" : url.slice(at);
}
