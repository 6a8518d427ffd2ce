/**
 * A narrow's first page of messages: the same request whether the app sends it or boot.ts starts
 * it before the app's code has loaded (this module stays small: boot.ts bundles it).
 */
import { anchorOf, apiNarrow } from "../state/narrow.js";
import type { Term } from "../state/types.js";
import { fromRegister } from "../state/snapshot.js";
import type { State } from "../state/types.js";
import { presetEarlyGet, startEarlyGet, type Answer } from "./http.js";
import { fetchMessages, messagesParams, type FetchAnswer } from "./messages.js";

/** Messages fetched on each side of the anchor when a narrow opens. */
export const FIRST_PAGE_SIDE = 50;

const firstPageArgs = (terms: readonly Term[]) => [apiNarrow(terms), anchorOf(terms) ?? "first_unread", FIRST_PAGE_SIDE, FIRST_PAGE_SIDE] as const;

/** GET /messages for a narrow's first page, around its anchor (near:/with: id, else the first unread). */
export function fetchFirstPage(terms: readonly Term[]): Promise<FetchAnswer> {
  return fetchMessages(...firstPageArgs(terms));
}

/**
 * What the page tells before /register: the organisation's name (its title) and the user's home
 * view (its rookery-home-view meta), which the page opens with no hash.
 */
export function pageState(title = document.title): State {
  const home = document.querySelector<HTMLMetaElement>('meta[name="rookery-home-view"]')?.content;
  return fromRegister({ realm_name: title, user_settings: home ? { web_home_view: home } : {} });
}

/**
 * The Combined feed's first page when the page carries it (the server writes it for a user whose
 * home view that is: routes/web.ts), read once; else null.
 */
function carriedPage(terms: readonly Term[]): Record<string, unknown> | null {
  const block = document.getElementById("rookery-first-page");
  if (!block) return null;
  block.remove();
  if (terms.length > 0) return null;
  try {
    const json = JSON.parse(block.textContent ?? "") as unknown;
    return typeof json === "object" && json !== null ? (json as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Sends that request now (or takes the page the page carries); the app's first fetchFirstPage of the same narrow takes its answer (also given here, null when it failed). */
export function startFirstPage(terms: readonly Term[]): Promise<FetchAnswer | null> | null {
  const carried = carriedPage(terms);
  const params = messagesParams(...firstPageArgs(terms));
  const answer = carried ? presetEarlyGet("messages", params, carried) : startEarlyGet("messages", params);
  return answer && answer.then(succeeded, () => null);
}

const succeeded = (a: Answer): FetchAnswer | null => (a.status === 200 && a.json?.result === "success" ? (a.json as unknown as FetchAnswer) : null);
