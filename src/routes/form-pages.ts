import type { FastifyReply, FastifyRequest } from "fastify";
import type { AppContext } from "../context.js";
import { escapeHtml, html, page, type PageOptions } from "../http/pages.js";
import { isOwnOrigin } from "../http/session.js";

/** A server-rendered page (login, password reset, signup) with the web app's auth.css when built. */
export async function authPage(ctx: AppContext, title: string, body: string, options: PageOptions = {}): Promise<string> {
  return page(title, body, { ...options, stylesheet: await ctx.web.url("auth.css") });
}

/** The form's error line, or nothing. */
export function formError(message: string | undefined): string {
  return message === undefined ? "" : `<p class="error" role="alert">${escapeHtml(message)}</p>`;
}

/**
 * Refuses a form posted from another site (Django's Origin check, for forms without a session):
 * answers 403 and resolves true, or resolves false when the post may go on.
 */
export async function refusedForeignForm(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<boolean> {
  const origin = request.headers.origin;
  if (origin === undefined || isOwnOrigin(ctx, request, origin)) return false;
  await sendForbidden(ctx, reply, `Origin checking failed - ${origin} does not match any trusted origins.`);
  return true;
}

/** Django's CSRF failure for a form: 403, with the reason. */
export async function sendForbidden(ctx: AppContext, reply: FastifyReply, reason: string): Promise<void> {
  const body = `<p>This form could not be accepted (CSRF error: ${escapeHtml(reason)}). Reload the page and try again.</p>`;
  html(reply, 403, await authPage(ctx, "Forbidden", body));
}
