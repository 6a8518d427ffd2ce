import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { confirmEmailChange } from "../actions/account.js";
import type { AppContext } from "../context.js";
import { ApiError } from "../base/errors.js";
import { escapeHtml, html, json, page, wantsJson } from "../http/pages.js";

/**
 * The page the email-change link opens (`/accounts/confirm_new_email/<key>/`, outside
 * /api/v1, Zulip's URL): opening it makes the change and says so. Clients that send
 * `Accept: application/json` get JSON instead.
 */
export function registerEmailChangeRoutes(http: FastifyInstance, ctx: AppContext): void {
  for (const url of ["/accounts/confirm_new_email/:key", "/accounts/confirm_new_email/:key/"]) {
    http.get(url, (request, reply) => confirm(ctx, request, reply));
  }
}

async function confirm(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const key = (request.params as Record<string, string | undefined>).key ?? "";
  try {
    const { user, oldEmail } = await confirmEmailChange(ctx, key);
    if (wantsJson(request)) return json(reply, 200, { result: "success", msg: "", old_email: oldEmail, new_email: user.delivery_email });
    const body = `<p>The email address of your account has changed from <strong>${escapeHtml(oldEmail)}</strong> to <strong>${escapeHtml(user.delivery_email)}</strong>. Use the new address to log in from now on.</p>`;
    return html(reply, 200, page("Email address changed", body));
  } catch (error) {
    if (!(error instanceof ApiError)) {
      ctx.log.error({ err: error }, "email change failed");
      if (wantsJson(request)) return json(reply, 500, { result: "error", msg: "Internal server error", code: "BAD_REQUEST" });
      return html(reply, 500, page("Something went wrong", "<p>Something went wrong. Please try again later.</p>"));
    }
    if (wantsJson(request)) return json(reply, error.status, error.body());
    const title = error.status === 404 ? "This confirmation link cannot be used" : "Email address not changed";
    return html(reply, error.status, page(title, `<p>${escapeHtml(error.msg)}</p>`));
  }
}
