import { validateResponse } from "./openapi.js";

/** JSON as tests read it: any shape, checked by assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

/** A parameter value: strings are sent raw, everything else JSON-encoded (Zulip's convention). */
export type ParamValue = string | number | boolean | null | object;

/** How a request's parameters travel: form body, multipart body, or query string. */
export type Encoding = "form" | "multipart" | "query";

/** One HTTP exchange as a test sees it. */
export interface Response {
  status: number;
  headers: Headers;
  body: Json;
  text: string;
}

interface RequestOptions {
  encoding?: Encoding;
  /** Skip the OpenAPI check (for answers Zulip does not document, such as 405). */
  validate?: boolean;
  headers?: Record<string, string>;
  /** Files sent in a multipart body (the encoding becomes multipart). */
  files?: UploadFile[];
}

/** A file a test uploads. */
export interface UploadFile {
  field: string;
  filename: string;
  type: string;
  data: Buffer;
}

/** A typed HTTP client for the API, authenticated as one user (or nobody). */
export class Client {
  constructor(
    readonly baseUrl: string,
    readonly credentials: { email: string; apiKey: string } | undefined,
  ) {}

  get(path: string, params: Record<string, ParamValue> = {}, options: RequestOptions = {}): Promise<Response> {
    return this.request("GET", path, params, { encoding: "query", ...options });
  }
  post(path: string, params: Record<string, ParamValue> = {}, options: RequestOptions = {}): Promise<Response> {
    return this.request("POST", path, params, options);
  }
  patch(path: string, params: Record<string, ParamValue> = {}, options: RequestOptions = {}): Promise<Response> {
    return this.request("PATCH", path, params, options);
  }
  delete(path: string, params: Record<string, ParamValue> = {}, options: RequestOptions = {}): Promise<Response> {
    return this.request("DELETE", path, params, options);
  }

  /** Sends a request to /api/v1 + path and validates the answer against Zulip's OpenAPI document. */
  async request(method: string, path: string, params: Record<string, ParamValue>, options: RequestOptions = {}): Promise<Response> {
    const encoding = options.files ? "multipart" : (options.encoding ?? "form");
    const headers: Record<string, string> = { ...options.headers };
    if (this.credentials) {
      headers.authorization = "Basic " + Buffer.from(`${this.credentials.email}:${this.credentials.apiKey}`).toString("base64");
    }
    const entries = Object.entries(params).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)] as [string, string]);
    let url = `${this.baseUrl}/api/v1${path}`;
    let body: string | FormData | undefined;
    if (encoding === "query" && entries.length > 0) {
      url += (url.includes("?") ? "&" : "?") + new URLSearchParams(entries).toString();
    } else if (encoding === "form" && entries.length > 0) {
      headers["content-type"] = "application/x-www-form-urlencoded";
      body = new URLSearchParams(entries).toString();
    } else if (encoding === "multipart") {
      const form = new FormData();
      for (const [k, v] of entries) form.append(k, v);
      for (const f of options.files ?? []) form.append(f.field, new Blob([new Uint8Array(f.data)], { type: f.type }), f.filename);
      body = form;
    }
    const res = await fetch(url, { method, headers, body });
    const text = await res.text();
    const parsed: Json = text.length > 0 && (res.headers.get("content-type") ?? "").includes("json") ? JSON.parse(text) : undefined;
    if (options.validate !== false && parsed !== undefined) validateResponse(method, path, res.status, parsed);
    return { status: res.status, headers: res.headers, body: parsed, text };
  }
}

/** The success envelope with the endpoint's fields. */
export function success(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return { result: "success", msg: "", ...fields };
}

/** The error envelope. */
export function error(msg: string, code = "BAD_REQUEST", extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { result: "error", msg, code, ...extra };
}
