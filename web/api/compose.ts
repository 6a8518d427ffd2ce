/** Compose calls: send, render, typing, drafts, uploads (with progress), settings. */
import { call, csrf, ApiError } from "./http.js";
import type { Draft } from "../state/types.js";
import { withPresences } from "../state/apply-people.js";
import { update } from "../state/store.js";

export type Destination = { type: "stream"; streamId: number; topic: string } | { type: "private"; to: number[] };

/** POST /messages; `localId` ties the server's message event back to the local echo. */
export function sendMessage(to: Destination, content: string, queueId: string, localId: string): Promise<{ id: number }> {
  const base = { content, queue_id: queueId || undefined, local_id: queueId ? localId : undefined, read_by_sender: true };
  if (to.type === "stream") return call("POST", "messages", { ...base, type: "stream", to: to.streamId, topic: to.topic });
  return call("POST", "messages", { ...base, type: "direct", to: to.to });
}

/** The server's HTML for some Markdown (the preview). */
export async function renderMarkdown(content: string): Promise<string> {
  const answer = await call<{ rendered: string }>("POST", "messages/render", { content });
  return answer.rendered;
}

/** POST /typing start or stop for a conversation. */
export function sendTyping(to: Destination, op: "start" | "stop"): Promise<unknown> {
  if (to.type === "stream") return call("POST", "typing", { type: "stream", op, stream_id: to.streamId, topic: to.topic });
  return call("POST", "typing", { type: "direct", op, to: to.to });
}

export type DraftInput = Omit<Draft, "id">;

/** Creates a draft; resolves with its id. */
export async function createDraft(d: DraftInput): Promise<number> {
  const answer = await call<{ ids: number[] }>("POST", "drafts", { drafts: [d] });
  return answer.ids[0] ?? 0;
}

export function editDraft(id: number, d: DraftInput): Promise<unknown> {
  return call("PATCH", `drafts/${id}`, { draft: d });
}

export function deleteDraft(id: number): Promise<unknown> {
  return call("DELETE", `drafts/${id}`);
}

/** PATCH /settings for one of the user's settings. */
export function updateSetting(name: string, value: string | number | boolean): Promise<unknown> {
  return call("PATCH", "settings", { [name]: value });
}

/**
 * Uploads a file as multipart (XHR, for its upload progress); resolves with the file's URL.
 * `progress` gets the fraction sent (0..1).
 */
export function uploadFile(file: File, progress: (fraction: number) => void): { done: Promise<{ url: string; filename: string }>; abort(): void } {
  const xhr = new XMLHttpRequest();
  const done = new Promise<{ url: string; filename: string }>((resolve, reject) => {
    xhr.open("POST", "/json/user_uploads");
    xhr.withCredentials = true;
    xhr.setRequestHeader("X-CSRFToken", csrf());
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) progress(e.loaded / e.total);
    };
    xhr.onerror = () => reject(new ApiError(0, "NETWORK", "The server cannot be reached"));
    xhr.onabort = () => reject(new ApiError(0, "ABORTED", "Upload cancelled"));
    xhr.onload = () => {
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(xhr.responseText) as Record<string, unknown>;
      } catch {
        // Not the API's envelope (a proxy's page, a body too large for it).
      }
      if (xhr.status === 200 && json.result === "success") {
        resolve({ url: String(json.url ?? json.uri), filename: String(json.filename ?? file.name) });
      } else {
        const msg = typeof json.msg === "string" ? json.msg : xhr.status === 413 ? "The file is too large" : `HTTP ${xhr.status}`;
        reject(new ApiError(xhr.status, typeof json.code === "string" ? json.code : "HTTP", msg));
      }
    };
    const form = new FormData();
    form.append("file", file, file.name);
    xhr.send(form);
  });
  return { done, abort: () => xhr.abort() };
}

/**
 * POST /users/me/presence as the web app pings it: active or idle, whether the user did anything
 * since; with `withRealm`, the realm's presence comes back and goes into the state.
 */
export async function sendPresence(status: "active" | "idle", newUserInput: boolean, withRealm = false): Promise<void> {
  const answer = await call<{ presences?: Record<string, Record<string, unknown>> }>("POST", "users/me/presence", { status, new_user_input: newUserInput, ping_only: !withRealm, slim_presence: true });
  const presences = answer.presences;
  if (withRealm && presences) update((s) => withPresences(s, presences));
}
