/** GET /messages's answer for a range of a narrow: the endpoint's, and the app page's first list (routes/web.ts). */
import type { AppContext } from "../../context.js";
import type { UserRow } from "../../db/queries/users.js";
import { messageDicts } from "./dict.js";
import { fetchRange, type RangeRequest } from "./fetch.js";
import { highlightHtml, highlightTopic } from "./search-highlight.js";

export interface PageOptions {
  applyMarkdown: boolean;
  clientGravatar: boolean;
}

export async function messagesPage(ctx: AppContext, user: UserRow, req: RangeRequest, options: PageOptions) {
  const range = await fetchRange(ctx, user, req);
  const flags = new Map(range.rows.map((r) => [r.id, r.flags]));
  const rows = range.rows.flatMap((r) => (r.message ? [r.message] : []));
  const messages = await messageDicts(ctx, rows, options, flags);
  const words = range.narrow.searchWords;
  if (words.length > 0) {
    rows.forEach((row, i) => {
      const dict = messages[i];
      if (!dict) return;
      dict.match_content = highlightHtml(row.rendered_content, words);
      dict.match_subject = highlightTopic(row.topic, words);
    });
  }
  return {
    messages,
    found_anchor: range.foundAnchor,
    found_oldest: range.foundOldest,
    found_newest: range.foundNewest,
    history_limited: false,
    anchor: range.anchor,
  };
}
