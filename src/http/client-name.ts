/** Zulip's parse_user_agent: a request's client is named by its User-Agent's product token. */
export function clientFromUserAgent(userAgent: string | undefined): string {
  if (!userAgent) return "Unspecified";
  const match = /^([^/ ]*[^0-9/(]*)(\/([^/ ]*))?([ /].*)?$/.exec(userAgent);
  return match?.[1] ? match[1] : "Unspecified";
}
