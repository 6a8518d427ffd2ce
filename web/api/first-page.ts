/**
 * A narrow's first page of messages: the same request whether the app sends it or boot.ts starts
 * it before the app's code has loaded (this module stays small: boot.ts bundles it).
 */
import { anchorOf, apiNarrow } from "../state/narrow.js";
import type { Term } from "../state/types.js";
import { startEarlyGet, type Answer } from "./http.js";
import { fetchMessages, messagesParams, type FetchAnswer } from "./messages.js";

/** Messages fetched on each side of the anchor when a narrow opens. */
export const FIRST_PAGE_SIDE = 50;

const firstPageArgs = (terms: readonly Term[]) => [apiNarrow(terms), anchorOf(terms) ?? "first_unread", FIRST_PAGE_SIDE, FIRST_PAGE_SIDE] as const;

/** GET /messages for a narrow's first page, around its anchor (near:/with: id, else the first unread). */
export function fetchFirstPage(terms: readonly Term[]): Promise<FetchAnswer> {
  return fetchMessages(...firstPageArgs(terms));
}

/** Sends that request now; the app's first fetchFirstPage of the same narrow takes its answer (also given here, null when it failed). */
export function startFirstPage(terms: readonly Term[]): Promise<FetchAnswer | null> | null {
  const answer = startEarlyGet("messages", messagesParams(...firstPageArgs(terms)));
  return answer && answer.then(succeeded, () => null);
}

const succeeded = (a: Answer): FetchAnswer | null => (a.status === 200 && a.json?.result === "success" ? (a.json as unknown as FetchAnswer) : null);
