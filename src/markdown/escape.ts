/** HTML escaping in the three flavours Zulip's output uses. */

// An ampersand that already starts a character reference is left alone, as
// Zulip's serializer does; everything else that could open markup is escaped.
const bareAmp = /&(?!(?:#[0-9]+|#x[0-9a-f]+|[0-9a-z]+);)/gi;

/** Escapes text content, keeping character references the author typed. */
export function escapeText(text: string): string {
  if (!/[&<>]/.test(text)) return text;
  return text.replace(bareAmp, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Escapes an attribute value (double-quoted). */
export function escapeAttr(value: string): string {
  return escapeText(value).replace(/"/g, "&quot;").replace(/\n/g, "&#10;");
}

/** Escapes code-span text: every ampersand, since code shows what was typed. */
export function escapeCode(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Escapes highlighted code the way Pygments' HTML formatter does. */
export function escapeHilite(text: string): string {
  if (!/[&<>"']/.test(text)) return text;
  return escapeCode(text).replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}
