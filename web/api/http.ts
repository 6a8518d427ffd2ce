/** The one place that calls /json/*: the CSRF header, form-encoded bodies, Zulip's error envelope. */

/** An error answer from the server (Zulip's envelope), or a network failure (status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** A parameter value as Zulip's web client sends it: arrays and objects JSON-encoded. */
export type Param = string | number | boolean | readonly unknown[] | Record<string, unknown> | undefined;

let csrfToken = "";
let onSessionEnded: () => void = () => {
  location.href = "/login/";
};

/** Reads the CSRF token from the page; `sessionEnded` runs on a 401 (default: go to /login/). */
export function initHttp(token: string, sessionEnded?: () => void): void {
  csrfToken = token;
  if (sessionEnded) onSessionEnded = sessionEnded;
}

/** The page's CSRF token (for the upload XHR in api/compose.ts). */
export const csrf = (): string => csrfToken;

function encode(params: Record<string, Param>): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) continue;
    out.set(key, typeof value === "object" ? JSON.stringify(value) : String(value));
  }
  return out;
}

/** The URL of a GET of `/json/<path>` with these parameters. */
export function getUrl(path: string, params: Record<string, Param> = {}): string {
  const query = encode(params).toString();
  return query ? `/json/${path}?${query}` : `/json/${path}`;
}

/** A GET's status and parsed body (null when the body was not JSON). */
export type Answer = { status: number; json: Record<string, unknown> | null };

const read = async (response: Response): Promise<Answer> => ({ status: response.status, json: (await response.json().catch(() => null)) as Record<string, unknown> | null });

/** A GET started before the app's code was loaded (web/boot.ts), which the app's first identical GET takes over. */
type EarlyGet = { url: string; answer: Promise<Answer> };
/** Null once the app's first GET has looked: an early GET started after that would never be taken (or be taken stale, much later). */
const early = globalThis as { rookeryEarlyGet?: EarlyGet | null };

/**
 * Starts a GET of `/json/<path>` now, for the app's first GET to take when it is the same URL (the
 * page's first messages, from boot.ts). Its answer is read once and shared: boot.ts may draw from it.
 */
export function startEarlyGet(path: string, params: Record<string, Param>): Promise<Answer> | null {
  if (early.rookeryEarlyGet === null) return null;
  const url = getUrl(path, params);
  const answer = fetch(url, { credentials: "same-origin", priority: "high" }).then(read);
  answer.catch(() => undefined);
  early.rookeryEarlyGet = { url, answer };
  return answer;
}

/** Gives the app's first GET of `/json/<path>` an answer the page already holds (its first messages, from boot.ts), as startEarlyGet would. */
export function presetEarlyGet(path: string, params: Record<string, Param>, json: Record<string, unknown>): Promise<Answer> | null {
  if (early.rookeryEarlyGet === null) return null;
  const answer = Promise.resolve({ status: 200, json });
  early.rookeryEarlyGet = { url: getUrl(path, params), answer };
  return answer;
}

function takeEarlyGet(url: string): Promise<Answer> | undefined {
  const got = early.rookeryEarlyGet;
  early.rookeryEarlyGet = null;
  return got?.url === url ? got.answer : undefined;
}

/** Calls `/json/<path>`; resolves with the success body, rejects with ApiError. */
export async function call<T = Record<string, unknown>>(method: "GET" | "POST" | "PATCH" | "DELETE" | "PUT", path: string, params: Record<string, Param> = {}, signal?: AbortSignal): Promise<T> {
  let url = `/json/${path}`;
  const init: RequestInit = { method, credentials: "same-origin", headers: {}, signal };
  if (method === "GET") url = getUrl(path, params);
  else {
    init.headers = { "X-CSRFToken": csrfToken, "Content-Type": "application/x-www-form-urlencoded" };
    init.body = encode(params);
  }
  let answer: Answer;
  try {
    answer = await ((method === "GET" && !signal && takeEarlyGet(url)) || fetch(url, init).then(read));
  } catch (err) {
    if (signal?.aborted) throw err;
    throw new ApiError(0, "NETWORK", "The server cannot be reached");
  }
  // A proxy's or a restarting server's page is not the API's envelope.
  const json = answer.json !== null && typeof answer.json === "object" ? answer.json : {};
  const response = { status: answer.status, ok: answer.status >= 200 && answer.status < 300 };
  if (response.status === 401) {
    onSessionEnded();
    throw new ApiError(401, "UNAUTHORIZED", typeof json.msg === "string" ? json.msg : "Session ended");
  }
  if (!response.ok || json.result !== "success") {
    const msg = typeof json.msg === "string" ? json.msg : `HTTP ${response.status}`;
    throw new ApiError(response.status, typeof json.code === "string" ? json.code : "HTTP", msg, json);
  }
  return json as T;
}
