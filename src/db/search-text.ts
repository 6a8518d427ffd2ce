import type SQLite from "better-sqlite3";

/**
 * What full-text search reads of a message (Zulip indexes the topic and the rendered content):
 * the topic, then the text of the rendered HTML with tags as word breaks and entities decoded,
 * as PostgreSQL's text-search parser reads HTML.
 */
export function messageSearchText(topic: string, renderedHtml: string): string {
  return `${topic}\n${renderedHtml.replace(/<[^>]*>/g, " ").replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (_, name: string) => decodeEntity(name))}`;
}

/** Makes messageSearchText callable from SQL as message_search_text(topic, rendered_content), for the search triggers. */
export function registerSearchText(database: SQLite.Database): void {
  database.function("message_search_text", { deterministic: true }, (topic: unknown, html: unknown) => messageSearchText(String(topic), String(html)));
}

const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decodeEntity(name: string): string {
  if (!name.startsWith("#")) return NAMED[name.toLowerCase()] ?? " ";
  const code = name[1] === "x" || name[1] === "X" ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
  return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : " ";
}
