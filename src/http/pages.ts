import type { FastifyReply, FastifyRequest } from "fastify";

/**
 * The small server-rendered pages that links in emails open (signup, email-change
 * confirmation): plain HTML, or JSON for clients that ask for it.
 */

/** A complete HTML document; `titleEscaped` when the title is already HTML. */
export function page(title: string, body: string, titleEscaped = false): string {
  const heading = titleEscaped ? title : escapeHtml(title);
  return `<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${heading}</title></head>\n<body>\n<h1>${heading}</h1>\n${body}\n</body>\n</html>\n`;
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

/** Sends a page that must not be cached (it reflects a one-time link). */
export function html(reply: FastifyReply, status: number, body: string): void {
  void reply.code(status).type("text/html; charset=utf-8").header("Cache-Control", "no-store").send(body);
}

/** Escapes text for HTML content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
}
