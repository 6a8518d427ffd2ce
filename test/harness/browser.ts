import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import type { Json, ParamValue, UploadFile } from "./client.js";
import { validateResponse } from "./openapi.js";

/** One HTTP exchange as a browser test sees it (redirects are not followed). */
export interface PageResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body when it is JSON. */
  body: Json;
}

interface FetchOptions {
  headers?: Record<string, string>;
  /** Form fields, sent form-encoded. */
  form?: Record<string, string>;
  body?: string | FormData;
}

/**
 * What a browser does with the server, over real HTTP: it keeps the session cookie the server
 * sets (and drops it when told), sends it back, and follows no redirect by itself, so each step
 * can be checked. `json` calls /json like the web app: form-encoded, with X-CSRFToken.
 */
export class Browser {
  /** The rookery_session cookie the browser holds, if any. */
  session: string | undefined;
  /** The CSRF token of the app page last loaded (GET /). */
  csrfToken: string | undefined;

  constructor(readonly baseUrl: string) {}

  /** A copy of this browser (the same cookie, as a second tab or a stolen cookie). */
  clone(): Browser {
    const copy = new Browser(this.baseUrl);
    copy.session = this.session;
    copy.csrfToken = this.csrfToken;
    return copy;
  }

  async fetch(method: string, url: string, options: FetchOptions = {}): Promise<PageResponse> {
    const headers: Record<string, string> = { ...options.headers };
    if (this.session !== undefined && headers.cookie === undefined) headers.cookie = `rookery_session=${this.session}`;
    let body = options.body;
    if (options.form) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(options.form).toString();
    }
    const res = await fetch(this.baseUrl + url, { method, headers, body, redirect: "manual" });
    for (const cookie of res.headers.getSetCookie()) {
      const match = /^rookery_session=([^;]*)/.exec(cookie);
      if (match) this.session = match[1] === "" || /Max-Age=0/.test(cookie) ? undefined : match[1];
    }
    const text = await res.text();
    const parsed: Json = (res.headers.get("content-type") ?? "").includes("json") && text.length > 0 ? JSON.parse(text) : undefined;
    return { status: res.status, headers: res.headers, text, body: parsed };
  }

  get(url: string, headers: Record<string, string> = {}): Promise<PageResponse> {
    return this.fetch("GET", url, { headers });
  }

  /** Posts the login form as the page does (same origin); the session cookie is kept when set. */
  login(email: string, password: string, next?: string): Promise<PageResponse> {
    const form: Record<string, string> = { username: email, password };
    if (next !== undefined) form.next = next;
    return this.fetch("POST", "/login/", { form, headers: { origin: this.baseUrl } });
  }

  /** Logs in and loads the app page, reading its CSRF token; fails unless both work. */
  async signIn(email: string, password: string): Promise<void> {
    const res = await this.login(email, password);
    if (res.status !== 302 || this.session === undefined) throw new Error(`login failed: ${res.status} ${res.text}`);
    await this.loadApp();
  }

  /** Loads the app page (GET /) and reads its CSRF token. */
  async loadApp(): Promise<PageResponse> {
    const res = await this.get("/");
    const token = /<meta name="csrf-token" content="([^"]*)">/.exec(res.text)?.[1];
    if (token !== undefined) this.csrfToken = token;
    return res;
  }

  /**
   * Calls `/json<path>` as the web app does: GET parameters in the query string, others
   * form-encoded (or multipart with files), X-CSRFToken on every call that is not a GET
   * (`csrf: false` leaves it out). Success answers are checked against Zulip's OpenAPI document.
   */
  async json(method: string, apiPath: string, params: Record<string, ParamValue> = {}, options: { csrf?: boolean; headers?: Record<string, string>; files?: UploadFile[] } = {}): Promise<PageResponse> {
    const entries = Object.entries(params).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)] as [string, string]);
    const headers: Record<string, string> = { ...options.headers };
    if (method !== "GET" && options.csrf !== false && this.csrfToken !== undefined) headers["x-csrftoken"] = this.csrfToken;
    let url = `/json${apiPath}`;
    let body: string | FormData | undefined;
    if (method === "GET") {
      if (entries.length > 0) url += "?" + new URLSearchParams(entries).toString();
    } else if (options.files) {
      const form = new FormData();
      for (const [k, v] of entries) form.append(k, v);
      for (const f of options.files) form.append(f.field, new Blob([new Uint8Array(f.data)], { type: f.type }), f.filename);
      body = form;
    } else if (entries.length > 0) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(entries).toString();
    }
    const res = await this.fetch(method, url, { headers, body });
    if (res.status === 200 && res.body !== undefined) validateResponse(method, apiPath.split("?")[0] ?? apiPath, res.status, res.body);
    return res;
  }
}

/** The logical names of the fake web build and the hashed files they map to. */
export const FAKE_MANIFEST = {
  "app.js": "app-1a2b3c4d.js",
  "app.css": "app-5e6f7a8b.css",
  "auth.css": "auth-9c0d1e2f.css",
  "favicon.svg": "favicon-3a4b5c6d.svg",
} as const;

/** The fake app script's text (large enough that compressing it pays). */
export const FAKE_APP_JS = `export const answer = ${JSON.stringify("rookery ".repeat(400))};\n`;

/**
 * A tiny stand-in for the built web app (`dist/web`) in a temporary folder, for ROOKERY_WEB_DIR:
 * a manifest and its files, the script with `.br` and `.gz` siblings, the stylesheet with `.gz` only.
 */
export function fakeWebDir(): { dir: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-web-"));
  fs.writeFileSync(path.join(dir, "manifest.json"), JSON.stringify(FAKE_MANIFEST));
  const js = path.join(dir, FAKE_MANIFEST["app.js"]);
  fs.writeFileSync(js, FAKE_APP_JS);
  fs.writeFileSync(`${js}.gz`, zlib.gzipSync(FAKE_APP_JS));
  fs.writeFileSync(`${js}.br`, zlib.brotliCompressSync(FAKE_APP_JS));
  const css = path.join(dir, FAKE_MANIFEST["app.css"]);
  fs.writeFileSync(css, "body { margin: 0; }\n");
  fs.writeFileSync(`${css}.gz`, zlib.gzipSync("body { margin: 0; }\n"));
  fs.writeFileSync(path.join(dir, FAKE_MANIFEST["auth.css"]), "main { padding: 1em; }\n");
  fs.writeFileSync(path.join(dir, FAKE_MANIFEST["favicon.svg"]), '<svg xmlns="http://www.w3.org/2000/svg"/>\n');
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
