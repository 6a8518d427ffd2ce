import type { Db } from "../../db/index.js";
import { activeRealmEmojiByName, realmEmojiById } from "../../db/queries/realm-emoji.js";
import { badRequest } from "../../base/errors.js";
import { emojiByCode, emojiByName } from "../../markdown/emoji-data.js";

/** An emoji as reactions and statuses store it. */
export interface EmojiData {
  code: string;
  type: "realm_emoji" | "zulip_extra_emoji" | "unicode_emoji";
}

/** Zulip's get_emoji_data: an active custom emoji of that name first, then `zulip`, then unicode. */
export async function emojiDataFor(db: Db, realmId: number, name: string): Promise<EmojiData> {
  const custom = await activeRealmEmojiByName(db, realmId, name);
  if (custom) return { code: String(custom.id), type: "realm_emoji" };
  if (name === "zulip") return { code: "zulip", type: "zulip_extra_emoji" };
  const unicode = emojiByName(name);
  if (unicode) return { code: unicode.code, type: "unicode_emoji" };
  throw badRequest(`Emoji '${name}' does not exist`);
}

/** Zulip's check_emoji_request: whether name, code and type name one emoji usable for something new. */
export async function checkEmojiRequest(db: Db, realmId: number, name: string, code: string, type: string): Promise<void> {
  if (type === "realm_emoji") {
    const custom = /^\d+$/.test(code) ? await realmEmojiById(db, realmId, Number(code)) : undefined;
    if (!custom) throw badRequest("Invalid custom emoji.");
    if (custom.name !== name) throw badRequest("Invalid custom emoji name.");
    if (custom.deactivated === 1) throw badRequest("This custom emoji has been deactivated.");
  } else if (type === "zulip_extra_emoji") {
    if (code !== "zulip") throw badRequest("Invalid emoji code.");
    if (name !== code) throw badRequest("Invalid emoji name.");
  } else if (type === "unicode_emoji") {
    if (!emojiByCode(code)) throw badRequest("Invalid emoji code.");
    if (emojiByName(name)?.code !== code) throw badRequest("Invalid emoji name.");
  } else {
    throw badRequest("Invalid emoji type.");
  }
}
