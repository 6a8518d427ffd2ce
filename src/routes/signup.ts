import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { doCreateSession } from "../actions/sessions.js";
import { acceptInvitation, findInvitation, requestSignupConfirmation, type Invitation } from "../actions/signup.js";
import type { AppContext } from "../context.js";
import { ApiError } from "../base/errors.js";
import { escapeHtml, html, json, page, wantsJson } from "../http/pages.js";
import { setSessionCookie } from "../http/session.js";

/**
 * The page an invitation link opens (`/join/<key>/`, outside /api/v1). A reusable link asks for an
 * address and mails it a confirmation link; an email invitation's link, or that confirmation link,
 * asks for a name and password and creates the account. The same URLs answer JSON to clients that
 * send `Accept: application/json` (GET: what the invitation is; POST, form-encoded: `email` on a
 * reusable link, answered with the address mailed; `full_name` and `password` otherwise,
 * answered with the new account's id, email and API key).
 */
export function registerSignupRoutes(http: FastifyInstance, ctx: AppContext): void {
  for (const url of ["/join/:key", "/join/:key/"]) {
    http.get(url, (request, reply) => show(ctx, request, reply));
    http.post(url, (request, reply) => submit(ctx, request, reply));
  }
}

type Fields = Record<string, unknown>;

async function show(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const key = keyOf(request);
  try {
    const invitation = await findInvitation(ctx.db, key, ctx.clock.now());
    if (wantsJson(request)) {
      const email = invitation.kind === "multiuse" ? null : invitation.invite.email;
      return json(reply, 200, { result: "success", msg: "", realm_name: invitation.realm.name, email, invited_as: invitation.invite.invited_as });
    }
    return html(reply, 200, formPage(invitation, key, {}, undefined));
  } catch (error) {
    return failure(ctx, request, reply, error);
  }
}

async function submit(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const key = keyOf(request);
  const body: Fields = typeof request.body === "object" && request.body !== null ? (request.body as Fields) : {};
  const field = (name: string) => (typeof body[name] === "string" ? (body[name] as string) : "");
  try {
    if ((await findInvitation(ctx.db, key, ctx.clock.now())).kind === "multiuse") {
      const email = await requestSignupConfirmation(ctx, key, field("email"));
      if (wantsJson(request)) return json(reply, 200, { result: "success", msg: "", email });
      const sent = `<p>We sent a confirmation link to <strong>${escapeHtml(email)}</strong>. Open it to choose your name and password; it works for one day.</p>`;
      return html(reply, 200, page("Check your email", sent));
    }
    const user = await acceptInvitation(ctx, key, { fullName: field("full_name"), password: field("password") });
    if (wantsJson(request)) return json(reply, 200, { result: "success", msg: "", user_id: user.id, email: user.email, api_key: user.api_key });
    // The new account is signed in and goes straight into the app.
    const session = await doCreateSession(ctx, user);
    setSessionCookie(ctx, reply, session.cookie, session.expiresAt);
    return reply.header("Cache-Control", "no-store").redirect("/", 302);
  } catch (error) {
    // A form mistake shows the form again with the message; an unusable link shows its own page.
    if (error instanceof ApiError && error.status === 400 && !wantsJson(request)) {
      try {
        const invitation = await findInvitation(ctx.db, key, ctx.clock.now());
        return html(reply, 400, formPage(invitation, key, { email: field("email"), full_name: field("full_name") }, error.msg));
      } catch (again) {
        return failure(ctx, request, reply, again);
      }
    }
    return failure(ctx, request, reply, error);
  }
}

function failure(ctx: AppContext, request: FastifyRequest, reply: FastifyReply, error: unknown): void {
  if (!(error instanceof ApiError)) {
    ctx.log.error({ err: error }, "signup failed");
    if (wantsJson(request)) return json(reply, 500, { result: "error", msg: "Internal server error", code: "BAD_REQUEST" });
    return html(reply, 500, page("Something went wrong", "<p>Something went wrong. Please try again later.</p>"));
  }
  if (wantsJson(request)) return json(reply, error.status, error.body());
  const title = error.status === 404 ? "This invitation link cannot be used" : "Signup failed";
  return html(reply, error.status, page(title, `<p>${escapeHtml(error.msg)}</p>`));
}

/** A reusable link's page asks for the address only; the others for a name and password. */
function formPage(invitation: Invitation, key: string, values: { email?: string; full_name?: string }, message: string | undefined): string {
  const realm = escapeHtml(invitation.realm.name);
  const fields =
    invitation.kind === "multiuse"
      ? [
          `<p><label>Email <input type="email" name="email" required value="${escapeHtml(values.email ?? "")}"></label></p>`,
          `<p>We will send a link to this address to confirm it.</p>`,
          `<p><button type="submit">Continue</button></p>`,
        ]
      : [
          `<p>Email: <strong>${escapeHtml(invitation.invite.email)}</strong></p>`,
          `<p><label>Full name <input type="text" name="full_name" required maxlength="100" value="${escapeHtml(values.full_name ?? "")}"></label></p>`,
          `<p><label>Password <input type="password" name="password" required minlength="6"></label></p>`,
          `<p><button type="submit">Create account</button></p>`,
        ];
  const body = [
    `<p>You have been invited to join <strong>${realm}</strong>.</p>`,
    message === undefined ? "" : `<p class="error" role="alert">${escapeHtml(message)}</p>`,
    `<form method="post" action="/join/${encodeURIComponent(key)}/">`,
    ...fields,
    `</form>`,
  ].join("\n");
  return page(`Join ${realm}`, body, { titleEscaped: true });
}

function keyOf(request: FastifyRequest): string {
  const params = request.params as Record<string, string | undefined>;
  return params.key ?? "";
}
