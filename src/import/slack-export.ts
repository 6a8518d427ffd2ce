import { ImportError, type SlackZip } from "./slack-zip.js";

/** A JSON object of the export, read field by field (the export is untrusted input). */
export type SlackObject = Record<string, unknown>;

/** The workspace's lists: who, which channels and conversations, and where each one's day files are. */
export interface SlackWorkspace {
  users: SlackObject[];
  channels: SlackObject[];
  groups: SlackObject[];
  dms: SlackObject[];
  mpims: SlackObject[];
  /** Day file names ("2024-01-02.json") in date order, each with the folders that have one. */
  days: [string, string[]][];
  /** Files the archive holds, by Slack file id: the entry name. */
  heldFiles: Map<string, string>;
}

export function isObject(value: unknown): value is SlackObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

export function text(object: SlackObject, key: string): string | undefined {
  const value = object[key];
  return typeof value === "string" ? value : undefined;
}

export function flag(object: SlackObject, key: string): boolean {
  return object[key] === true;
}

export function child(object: SlackObject, key: string): SlackObject {
  const value = object[key];
  return isObject(value) ? value : {};
}

export function list(object: SlackObject, key: string): unknown[] {
  const value = object[key];
  return Array.isArray(value) ? value : [];
}

export function strings(object: SlackObject, key: string): string[] {
  return list(object, key).filter((v): v is string => typeof v === "string");
}

/** A JSON file of the archive that must hold an array of objects (each with a string `id` when `ids`). */
export async function objectList(zip: SlackZip, name: string, required: boolean, ids = true): Promise<SlackObject[]> {
  if (!zip.has(name)) {
    if (required) throw new ImportError(`the archive has no ${name}: it is not a Slack workspace export; nothing was imported`);
    return [];
  }
  const value = await zip.json(name);
  if (!Array.isArray(value) || !value.every(isObject)) throw new ImportError(`${name} is not a list of objects as in a Slack export; nothing was imported`);
  const bad = ids ? value.findIndex((item) => typeof item["id"] !== "string") : -1;
  if (bad >= 0) throw new ImportError(`${name}: item ${bad} has no "id"; nothing was imported`);
  return value;
}

/** Reads the workspace's lists and finds the day files of its channels and conversations. */
export async function readWorkspace(zip: SlackZip): Promise<SlackWorkspace> {
  const users = await objectList(zip, "users.json", true);
  const channels = await objectList(zip, "channels.json", true);
  const groups = await objectList(zip, "groups.json", false);
  const dms = await objectList(zip, "dms.json", false);
  const mpims = await objectList(zip, "mpims.json", false);
  // Channel and group DM folders are named after the conversation, DM folders after its id.
  const folders = new Set<string>([...channels, ...groups, ...mpims].map((c) => text(c, "name") ?? "").filter((n) => n !== ""));
  for (const dm of dms) folders.add(text(dm, "id") ?? "");
  const byDay = new Map<string, string[]>();
  const heldFiles = new Map<string, string>();
  for (const name of zip.entries.keys()) {
    const day = /^([^/]+)\/(\d{4}-\d{2}-\d{2}\.json)$/.exec(name);
    if (day && folders.has(day[1] ?? "")) {
      const dayName = day[2] ?? "";
      byDay.set(dayName, [...(byDay.get(dayName) ?? []), day[1] ?? ""]);
      continue;
    }
    // Files an export tool downloaded beside the JSON: __uploads/<file id>/<name>.
    const held = /^__uploads\/([^/]+)\/[^/]+$/.exec(name);
    if (held) heldFiles.set(held[1] ?? "", name);
  }
  const days = [...byDay.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { users, channels, groups, dms, mpims, days, heldFiles };
}

/** Subtypes Zulip's converter leaves out: pins and Slack's join, leave and rename notices. */
const SKIPPED_SUBTYPES = new Set(["pinned_item", "unpinned_item", "channel_join", "channel_leave", "channel_name"]);

/** A message of a day file with the folder it came from. */
export interface DayMessage {
  folder: string;
  message: SlackObject;
  ts: number;
}

/** The fields the import reads; the rest of an exported message (blocks, profiles…) is let go at once. */
const MESSAGE_FIELDS = ["ts", "user", "text", "subtype", "thread_ts", "parent_user_id", "root", "edited", "reactions", "files", "file", "comment", "bot_id", "username", "attachments"];

function slim(message: SlackObject): SlackObject {
  const out: SlackObject = {};
  for (const key of MESSAGE_FIELDS) if (message[key] !== undefined) out[key] = message[key];
  // Every message a person writes has a rich_text block repeating its text: only other blocks are kept.
  const blocks = list(message, "blocks").filter((b) => !isObject(b) || b["type"] !== "rich_text");
  if (blocks.length > 0) out["blocks"] = blocks;
  return out;
}

/** Who sent a message: its user, the uploader of its file, or the bot that posted it. */
export function senderOf(message: SlackObject): string | undefined {
  if (text(message, "subtype") === "file_comment") return text(child(message, "comment"), "user");
  return text(message, "user") ?? text(child(message, "file"), "user") ?? text(message, "bot_id");
}

/**
 * One day's messages of every channel and conversation, oldest first, less those Zulip's converter
 * leaves out (no sender, the "U00" user of some rename notices, Slack Posts, pins, joins and leaves).
 * A day file that is not a list of messages is an ImportError.
 */
export async function dayMessages(zip: SlackZip, day: string, folders: readonly string[]): Promise<DayMessage[]> {
  const out: DayMessage[] = [];
  for (const folder of folders) {
    const name = `${folder}/${day}`;
    const value = await zip.json(name);
    if (!Array.isArray(value)) throw new ImportError(`${name} is not a list of messages; nothing was imported`);
    for (const [index, message] of value.entries()) {
      if (!isObject(message)) throw new ImportError(`${name}: message ${index} is not an object; nothing was imported`);
      const ts = Number(text(message, "ts"));
      if (!Number.isFinite(ts)) throw new ImportError(`${name}: message ${index} has no valid "ts"; nothing was imported`);
      const sender = senderOf(message);
      if (sender === undefined || sender === "U00") continue;
      if (text(message, "mimetype") === "application/vnd.slack-docs") continue;
      if (SKIPPED_SUBTYPES.has(text(message, "subtype") ?? "")) continue;
      out.push({ folder, message: slim(message), ts });
    }
  }
  return out.sort((a, b) => a.ts - b.ts);
}
