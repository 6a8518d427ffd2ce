import path from "node:path";
import type { RealmEmojiRow } from "../../db/queries/realm-emoji.js";
import { badRequest } from "../../base/errors.js";

/** Zulip's MAX_EMOJI_FILE_SIZE_MIB default. */
export const MAX_EMOJI_FILE_SIZE_MIB = 5;

/** The image types Zulip accepts for emoji (thumbnailable and shown inline), with their extensions. */
export const EMOJI_IMAGE_TYPES: Readonly<Record<string, string>> = {
  "image/avif": ".avif",
  "image/gif": ".gif",
  "image/jpeg": ".jpeg",
  "image/png": ".png",
  "image/webp": ".webp",
};

/** A custom emoji as GET /realm/emoji, /register and realm_emoji events show it. */
export type ApiRealmEmoji = {
  id: string;
  name: string;
  source_url: string;
  still_url: string | null;
  deactivated: boolean;
  author_id: number | null;
};

/** The URL path an emoji image is served at (relative to the realm's URL). */
export function emojiUrl(realmId: number, fileName: string): string {
  return `/user_avatars/${realmId}/emoji/images/${fileName}`;
}

/** The name of an animated emoji's still first frame (a PNG beside it, under still/). */
export function emojiStillName(fileName: string): string {
  return `still/${fileName.replace(/\.[a-z]+$/, "")}.png`;
}

/** Where an emoji image is stored under the data directory. */
export function emojiFilePath(dataDir: string, realmId: number, fileName: string): string {
  return path.join(dataDir, "user_avatars", String(realmId), "emoji", "images", fileName);
}

/** The realm's custom emoji keyed by id, deactivated ones included (Zulip's get_all_custom_emoji_for_realm). */
export function realmEmojiDict(rows: readonly RealmEmojiRow[]): Record<string, ApiRealmEmoji> {
  const out: Record<string, ApiRealmEmoji> = {};
  for (const row of rows) {
    out[String(row.id)] = {
      id: String(row.id),
      name: row.name,
      source_url: emojiUrl(row.realm_id, row.file_name),
      still_url: row.is_animated ? emojiUrl(row.realm_id, emojiStillName(row.file_name)) : null,
      deactivated: row.deactivated === 1,
      author_id: row.author_id,
    };
  }
  return out;
}

/** Zulip's check_valid_emoji_name. */
export function checkValidEmojiName(name: string): void {
  if (name === "") throw badRequest("Emoji name is missing");
  if (/^[0-9a-z_-]+$/.test(name)) {
    if (/[_-]$/.test(name)) throw badRequest("Emoji names must end with either a letter or digit.");
    return;
  }
  throw badRequest("Emoji names must contain only lowercase English letters, digits, spaces, dashes, and underscores.");
}
