/** The Authorization header of a user's email and API key (HTTP Basic, as Zulip's clients send it). */
export function basicAuth(email: string, apiKey: string): string {
  return "Basic " + Buffer.from(`${email}:${apiKey}`).toString("base64");
}
