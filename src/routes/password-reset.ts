import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { checkRequestPasswordReset, completePasswordReset, passwordResetUser } from "../actions/password-reset.js";
import type { AppContext } from "../context.js";
import { defaultRealm } from "../db/queries/realms.js";
import { ApiError } from "../base/errors.js";
import { escapeHtml, html } from "../http/pages.js";
import { bodyField } from "../http/session.js";
import { isValidEmail } from "../lib/users/invites.js";
import { authPage, formError, refusedForeignForm } from "./form-pages.js";

const INVALID_LINK = "Sorry, the link you provided is invalid or has already been used.";

/**
 * Password reset by email, Zulip's pages and texts: the form at /accounts/password/reset/ mails
 * a one-time link (actions/password-reset.ts, shared with `rookery reset-password`), then says to
 * check the mail at …/done/; the link opens /accounts/password/reset/<token>/, where a new password
 * is set (every session of the user ends), then /accounts/password/done/.
 */
export function registerPasswordResetRoutes(http: FastifyInstance, ctx: AppContext): void {
  http.get("/accounts/password/reset/", async (_request, reply) => html(reply, 200, await requestPage(ctx, "", undefined)));
  http.post("/accounts/password/reset/", (request, reply) => submitRequest(ctx, request, reply));
  http.get("/accounts/password/reset/done/", async (_request, reply) => {
    const body = `<p>Check your email in a few minutes to finish the process.</p>\n<p class="aside"><a href="/login/">Back to login</a></p>`;
    return html(reply, 200, await authPage(ctx, "Password reset sent!", body));
  });
  http.get("/accounts/password/reset/:token/", (request, reply) => showNewPassword(ctx, request, reply));
  http.post("/accounts/password/reset/:token/", (request, reply) => submitNewPassword(ctx, request, reply));
  http.get("/accounts/password/done/", async (_request, reply) => {
    const body = `<p>Please <a href="/login/">log in</a> with your new password.</p>`;
    return html(reply, 200, await authPage(ctx, "You've set a new password!", body));
  });
}

async function submitRequest(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (await refusedForeignForm(ctx, request, reply)) return;
  const email = (bodyField(request.body, "email") ?? "").trim();
  if (email === "") return html(reply, 200, await requestPage(ctx, email, "This field is required."));
  if (email.length > 254 || !isValidEmail(email)) return html(reply, 200, await requestPage(ctx, email, "Enter a valid email address."));
  const realm = await defaultRealm(ctx.db);
  // A deactivated organisation sends nothing, and says the same as any other.
  if (realm && !realm.deactivated) {
    const wait = await checkRequestPasswordReset(ctx, realm, email);
    if (wait > 0) {
      const body = `<p>You have made too many password reset requests for this address. Please try again in ${Math.ceil(wait)} seconds.</p>`;
      return html(reply, 429, await authPage(ctx, "Rate limit exceeded", body));
    }
  }
  return reply.redirect("/accounts/password/reset/done/", 302);
}

async function showNewPassword(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const token = tokenOf(request);
  const user = await passwordResetUser(ctx, token);
  if (!user) return html(reply, 200, await authPage(ctx, "Set a new password.", `<p>${INVALID_LINK}</p>`));
  return html(reply, 200, await newPasswordPage(ctx, token, user.delivery_email, undefined));
}

async function submitNewPassword(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (await refusedForeignForm(ctx, request, reply)) return;
  const token = tokenOf(request);
  const user = await passwordResetUser(ctx, token);
  if (!user) return html(reply, 200, await authPage(ctx, "Set a new password.", `<p>${INVALID_LINK}</p>`));
  const password = bodyField(request.body, "new_password1") ?? "";
  const again = bodyField(request.body, "new_password2") ?? "";
  const retry = async (message: string) => html(reply, 200, await newPasswordPage(ctx, token, user.delivery_email, message));
  if (password === "" || again === "") return retry("This field is required.");
  // Django's SetPasswordForm, word for word (its apostrophe is U+2019).
  if (password !== again) return retry("The two password fields didn\u2019t match.");
  try {
    await completePasswordReset(ctx, token, password);
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) return retry(error.msg);
    throw error;
  }
  return reply.redirect("/accounts/password/done/", 302);
}

async function requestPage(ctx: AppContext, email: string, message: string | undefined): Promise<string> {
  const body = [
    `<p>Forgot your password? No problem, we'll send a link to reset your password to the email you signed up with.</p>`,
    formError(message),
    `<form method="post" action="/accounts/password/reset/">`,
    `<p><label>Email <input type="email" name="email" autocomplete="email" maxlength="254" required autofocus value="${escapeHtml(email)}"></label></p>`,
    `<p><button type="submit">Send reset link</button></p>`,
    `</form>`,
    `<p class="aside"><a href="/login/">Back to login</a></p>`,
  ].join("\n");
  return authPage(ctx, "Reset your password", body);
}

async function newPasswordPage(ctx: AppContext, token: string, email: string, message: string | undefined): Promise<string> {
  const body = [
    formError(message),
    `<form method="post" action="/accounts/password/reset/${encodeURIComponent(token)}/">`,
    `<p>Email: <strong>${escapeHtml(email)}</strong></p>`,
    `<p><label>Password <input type="password" name="new_password1" autocomplete="new-password" maxlength="100" required autofocus></label></p>`,
    `<p><label>Confirm password <input type="password" name="new_password2" autocomplete="new-password" maxlength="100" required></label></p>`,
    `<p><button type="submit">Submit</button></p>`,
    `</form>`,
  ].join("\n");
  return authPage(ctx, "Set a new password.", body);
}

function tokenOf(request: FastifyRequest): string {
  return (request.params as Record<string, string | undefined>).token ?? "";
}
