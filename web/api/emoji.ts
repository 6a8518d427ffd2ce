/** The server's Unicode emoji names (code → names), fetched once, when a picker or typeahead first needs them. */

export type EmojiEntry = { name: string; code: string; aliases: string[] };

let loading: Promise<EmojiEntry[]> | null = null;

/** Every Unicode emoji the server knows, in the server's order; the first name of each is its canonical one. */
export function loadUnicodeEmoji(serverUrl: unknown): Promise<EmojiEntry[]> {
  // /register names it with the server's external URL; the page may only fetch its own origin (CSP), so the path is used.
  let path = "/static/generated/emoji/emoji_api.json";
  if (typeof serverUrl === "string") {
    try {
      path = new URL(serverUrl, location.href).pathname;
    } catch {
      // Keep the default.
    }
  }
  loading ??= fetch(path, { credentials: "same-origin" })
    .then((r) => r.json() as Promise<{ code_to_names: Record<string, string[]> }>)
    .then((data) => Object.entries(data.code_to_names).map(([code, names]) => ({ code, name: names[0] ?? code, aliases: names })))
    .catch((err: unknown) => {
      loading = null;
      throw err;
    });
  return loading;
}
