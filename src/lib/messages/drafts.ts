import type { Db } from "../../db/index.js";
import type { DraftRow } from "../../db/queries/drafts.js";
import type { UserRow } from "../../db/queries/users.js";
import type { DraftObject } from "../../events/types.js";
import { badRequest } from "../../base/errors.js";
import { userSetting } from "../users/settings.js";
import { accessStreamById, MAX_TOPIC_LENGTH } from "../channels/streams.js";
import { accessUserById } from "../users/users.js";

/** /register carries at most this many drafts (MAX_DRAFTS_IN_REGISTER_RESPONSE). */
export const MAX_DRAFTS_IN_REGISTER = 1000;
const MAX_MESSAGE_LENGTH = 10000;
const DRAFT_KEYS = ["type", "to", "topic", "content", "timestamp"] as const;

/** A draft as the client sent it, after type checks. */
export interface DraftInput {
  type: "" | "stream" | "private";
  to: number[];
  topic: string;
  content: string;
  timestamp: number | undefined;
}

/** A draft ready to store. */
export interface ValidDraft {
  type: "" | "stream" | "private";
  to: number[];
  topic: string;
  content: string;
  lastEditTime: number;
}

/** Every /drafts endpoint refuses while the user has turned synchronisation off. */
export function checkDraftsEnabled(user: UserRow): void {
  if (userSetting(user, "enable_drafts_synchronization") !== true) throw badRequest("User has disabled synchronizing drafts.");
}

/** Type-checks one draft object the way Zulip's strict model does, naming fields `x["key"]`. */
export function parseDraft(value: unknown, name: string): DraftInput {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw badRequest(`${name} is not a dict`);
  const input = value as Record<string, unknown>;
  const field = (key: string) => `${name}[${JSON.stringify(key)}]`;
  for (const key of ["type", "to", "topic", "content"]) {
    if (!(key in input)) throw badRequest(`${field(key)} field is missing`);
  }
  if (!["", "stream", "private"].includes(input.type as string)) throw badRequest(`Invalid ${field("type")}`);
  if (!Array.isArray(input.to)) throw badRequest(`${field("to")} is not a list`);
  input.to.forEach((id, i) => {
    if (typeof id !== "number" || !Number.isInteger(id)) throw badRequest(`${field("to")}[${i}] is not an integer`);
  });
  if (typeof input.topic !== "string") throw badRequest(`${field("topic")} is not a string`);
  if (typeof input.content !== "string") throw badRequest(`${field("content")} is not a string`);
  if (input.content.trim().length === 0) throw badRequest(`${field("content")} cannot be blank`);
  const timestamp = input.timestamp;
  if (timestamp !== undefined && timestamp !== null && typeof timestamp !== "number") throw badRequest(`${field("timestamp")} is not a float`);
  for (const key of Object.keys(input)) {
    if (!(DRAFT_KEYS as readonly string[]).includes(key)) throw badRequest(`Argument "${key}" at ${field(key)} is unexpected`);
  }
  return {
    type: input.type as DraftInput["type"],
    to: input.to as number[],
    topic: input.topic,
    content: input.content.trim(),
    timestamp: typeof timestamp === "number" ? timestamp : undefined,
  };
}

/**
 * Zulip's further_validated_draft_dict: content normalised, a missing timestamp filled with now,
 * channel drafts need exactly one accessible channel, direct drafts valid users.
 */
export async function validateDraft(db: Db, user: UserRow, draft: DraftInput, now: number): Promise<ValidDraft> {
  const content = truncate(draft.content.replace(/\s+$/u, "").replace(/^\n+/, ""), MAX_MESSAGE_LENGTH, "\n[message truncated]");
  if (content.length === 0) throw badRequest("Message must not be empty");
  if (content.includes("\0")) throw badRequest("Message must not contain null bytes");
  const seconds = draft.timestamp === undefined ? now / 1000 : Math.round(draft.timestamp * 1e6) / 1e6;
  if (seconds < 0) throw badRequest("Timestamp must not be negative.");
  if (draft.type === "stream") {
    const topic = truncate(draft.topic, MAX_TOPIC_LENGTH, "...");
    if (topic.includes("\0")) throw badRequest("Topic must not contain null bytes");
    if (draft.to.length !== 1) throw badRequest("Must specify exactly 1 channel ID for channel messages");
    await accessStreamById(db, user, draft.to[0] as number);
    return { type: "stream", to: [draft.to[0] as number], topic, content, lastEditTime: Math.round(seconds * 1000) };
  }
  if (draft.type === "private" && draft.to.length > 0) {
    const ids = [...new Set(draft.to)];
    for (const id of ids) await accessUserById(db, user, id, { allowDeactivated: true, allowBots: true });
    return { type: "private", to: conversationIds(user.id, ids), topic: "", content, lastEditTime: Math.round(seconds * 1000) };
  }
  // No recipient: stored (and read back) as an unaddressed draft.
  return { type: "", to: [], topic: "", content, lastEditTime: Math.round(seconds * 1000) };
}

/** The Draft object of the API. */
export function apiDraft(row: DraftRow): DraftObject {
  const to = parseIds(row.to_ids);
  const type = row.type === "stream" || row.type === "private" ? row.type : "";
  return { id: row.id, type, to, topic: row.topic, content: row.content, timestamp: Math.floor(row.last_edit_time / 1000) };
}

/** As Zulip reads a draft's recipient back: the other user of a 1:1, every member (caller included) of a group. */
function conversationIds(self: number, ids: readonly number[]): number[] {
  const members = new Set([...ids, self]);
  if (members.size <= 2) {
    const others = [...members].filter((id) => id !== self);
    return others.length === 0 ? [self] : others;
  }
  return [...members].sort((a, b) => a - b);
}

function parseIds(text: string): number[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is number => typeof v === "number") : [];
  } catch {
    return [];
  }
}

function truncate(text: string, max: number, marker: string): string {
  const chars = [...text];
  return chars.length > max ? chars.slice(0, max - marker.length).join("") + marker : text;
}
