/** Zulip's parse_user_agent: a request's client is named by its User-Agent's product token. */
export function clientFromUserAgent(userAgent: string | undefined): string {
  if (!userAgent) return "Unspecified";
  const match = /^([^/ ]*[^0-9/(]*)(\/([^/ ]*))?([ /].*)?$/.exec(userAgent);
  return match?.[1] ? match[1] : "Unspecified";
}

/**
 * The client of a request, as Zulip's get_client_name names it: a browser calling /json (the web
 * app, by its session) is "website" unless its User-Agent names a Zulip app; other requests go by
 * the User-Agent. It decides, among other things, that a sender has read their own message.
 */
export function requestClient(request: { url: string; headers: Record<string, string | string[] | undefined> }): string {
  const userAgent = request.headers["user-agent"];
  const name = clientFromUserAgent(typeof userAgent === "string" ? userAgent : undefined);
  if (request.url.startsWith("/json/") && typeof userAgent === "string" && !name.startsWith("Zulip")) return "website";
  return name;
}
