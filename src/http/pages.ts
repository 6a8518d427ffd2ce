import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * The small server-rendered pages (login, password reset, signup, email-change confirmation):
 * plain HTML with the `auth.css` stylesheet when the web app is built, or JSON for clients that ask.
 */

/** The Content-Security-Policy of every HTML page: nothing from another origin, no inline script. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** How a page is drawn. */
export interface PageOptions {
  /** True when the title is already HTML. */
  titleEscaped?: boolean;
  /** The stylesheet's URL (`/static/auth-<hash>.css`); none when the web app is not built. */
  stylesheet?: string | undefined;
}

/** A complete HTML document. */
export function page(title: string, body: string, options: PageOptions = {}): string {
  const heading = options.titleEscaped ? title : escapeHtml(title);
  const style = options.stylesheet === undefined ? "" : `<link rel="stylesheet" href="${escapeHtml(options.stylesheet)}">`;
  return `<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${heading}</title>${style}</head>\n<body>\n<main class="auth">\n<h1>${heading}</h1>\n${body}\n</main>\n</body>\n</html>\n`;
}

/** Whether the request asks for JSON rather than a page. */
export function wantsJson(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? "";
  return accept.includes("application/json") && !accept.includes("text/html");
}

/** Sends a JSON body. */
export function json(reply: FastifyReply, status: number, body: Record<string, unknown>): void {
  void reply.code(status).type("application/json").send(JSON.stringify(body) + "\n");
}

/** Sends a page that must not be cached (it reflects a one-time link or a signed-in person). */
export function html(reply: FastifyReply, status: number, body: string): void {
  void reply.code(status).type("text/html; charset=utf-8").header("Cache-Control", "no-store").send(body);
}

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
}
