/** Zulip's highlight_html_differences (stub). */
export function highlightHtmlDifferences(before: string, after: string): string {
  return `<div>${after}${before.length > 0 ? "" : ""}</div>`;
}
