/** Calls behind the settings pages: your settings, profile, avatar, alert words, muted users, status, channels, administration. */
import { ApiError, call, csrf, type Param } from "./http.js";

type Params = Record<string, Param>;

/** PATCH /settings: any of the user's settings (full_name, email, password, color_scheme, enter_sends...). */
export function updateSettings(params: Params): Promise<Record<string, unknown>> {
  return call("PATCH", "settings", params);
}

/** Uploads a new avatar (multipart, as Zulip's web client sends it). */
export const uploadAvatar = (file: File) => multipart("users/me/avatar", file);

/** Removes the uploaded avatar. */
export const deleteAvatar = () => call("DELETE", "users/me/avatar");

/** Sets (value string) or clears (null) the user's custom profile fields. */
export const updateProfileData = (data: { id: number; value: string | null }[]) => {
  const set = data.filter((d) => d.value !== null && d.value !== "");
  const clear = data.filter((d) => d.value === null || d.value === "").map((d) => d.id);
  return Promise.all([set.length ? call("PATCH", "users/me/profile_data", { data: set }) : null, clear.length ? call("DELETE", "users/me/profile_data", { data: clear }) : null]);
};

/** Adds or removes alert words. */
export const addAlertWords = (words: string[]) => call("POST", "users/me/alert_words", { alert_words: words });
export const removeAlertWords = (words: string[]) => call("DELETE", "users/me/alert_words", { alert_words: words });

/** Mutes or unmutes a user. */
export const setMuted = (userId: number, muted: boolean) => call(muted ? "POST" : "DELETE", `users/me/muted_users/${userId}`);

/** Sets the status: away, text, emoji ("" clears). */
export const setStatus = (params: { status_text?: string; emoji_name?: string; away?: boolean }) => call("POST", "users/me/status", params);

/** One of your subscription's properties (color, is_muted, pin_to_top, desktop_notifications...). */
export const setSubProperty = (streamId: number, property: string, value: Param) =>
  call("POST", "users/me/subscriptions/properties", { subscription_data: [{ stream_id: streamId, property, value }] });

/** Leaves a channel, or removes others from it. */
export const unsubscribe = (name: string, principals?: number[]) => call("DELETE", "users/me/subscriptions", { subscriptions: [name], principals });

/** Subscribes people to a channel. */
export const subscribe = (name: string, principals: number[]) => call("POST", "users/me/subscriptions", { subscriptions: [{ name }], principals });

/** PATCH /streams/{id}: name, description, privacy, posting policy. */
export const updateStream = (streamId: number, params: Params) => call("PATCH", `streams/${streamId}`, params);

/** Archives a channel. */
export const archiveStream = (streamId: number) => call("DELETE", `streams/${streamId}`);

/** GET /streams/{id}/members. */
export const streamMembers = (streamId: number) => call<{ subscribers: number[] }>("GET", `streams/${streamId}/members`);

/** PATCH /users/{id}: role (administrators). */
export const updateUser = (userId: number, params: Params) => call("PATCH", `users/${userId}`, params);

/** Deactivates or reactivates a user. */
export const setUserActive = (userId: number, active: boolean) => (active ? call("POST", `users/${userId}/reactivate`) : call("DELETE", `users/${userId}`));

/** Sends email invitations. */
export const invite = (emails: string, inviteAs: number, streamIds: number[]) => call("POST", "invites", { invitee_emails: emails, invite_as: inviteAs, stream_ids: streamIds });

/** Creates a reusable invitation link. */
export const createInviteLink = (inviteAs: number, streamIds: number[]) => call<{ invite_link: string }>("POST", "invites/multiuse", { invite_as: inviteAs, stream_ids: streamIds });

/** The invitations not yet used. */
export const listInvites = () => call<{ invites: Record<string, unknown>[] }>("GET", "invites");

/** Revokes an invitation (email or link). */
export const revokeInvite = (id: number, multiuse: boolean) => call("DELETE", multiuse ? `invites/multiuse/${id}` : `invites/${id}`);

/** PATCH /realm: any organisation setting. */
export const updateRealm = (params: Params) => call("PATCH", "realm", params);

/** A generic call for the organisation lists (linkifiers, playgrounds, default channels, groups, emoji). */
export const adminCall = (method: "POST" | "PATCH" | "DELETE", path: string, params: Params = {}) => call(method, path, params);

/** Uploads a custom emoji (multipart). */
export const uploadEmoji = (name: string, file: File) => multipart(`realm/emoji/${encodeURIComponent(name)}`, file);

async function multipart(path: string, file: File, fields: Record<string, string> = {}): Promise<void> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append("file", file, file.name);
  let response: Response;
  try {
    response = await fetch(`/json/${path}`, { method: "POST", credentials: "same-origin", headers: { "X-CSRFToken": csrf() }, body: form });
  } catch {
    throw new ApiError(0, "NETWORK", "The server cannot be reached");
  }
  const json = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok || json.result !== "success") throw new ApiError(response.status, String(json.code ?? "HTTP"), typeof json.msg === "string" ? json.msg : `HTTP ${response.status}`, json);
}

/** Uploads the organisation's icon or logo. */
export const uploadRealmImage = (kind: "icon" | "logo", file: File) => multipart(`realm/${kind}`, file, kind === "logo" ? { night: "false" } : {});
