import fs from "node:fs/promises";
import path from "node:path";
import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import {
  activeRealmEmojiByName,
  deactivateRealmEmoji,
  insertRealmEmoji,
  realmEmojiOfRealm,
  setRealmEmojiFile,
} from "../db/queries/realm-emoji.js";
import type { UserRow } from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";
import { badRequest, notFound, insufficientPermission } from "../base/errors.js";
import type { UploadedFile } from "../uploads/incoming.js";
import { emojiByName } from "../markdown/emoji-data.js";
import { checkValidEmojiName, EMOJI_IMAGE_TYPES, emojiFilePath, emojiStillName, MAX_EMOJI_FILE_SIZE_MIB, realmEmojiDict } from "../lib/realm/emoji.js";
import { badImage, receivedImageType, resizeEmoji } from "../uploads/images.js";
import { isAdmin } from "../lib/users/roles.js";
import { randomToken } from "../base/secrets.js";
import { realmSetting } from "../lib/realm/props.js";
import { hasRolePolicy, requireMemberOrAdmin } from "../lib/groups/user-groups.js";

/**
 * POST /realm/emoji/{name}: Zulip's checks in Zulip's order (members and administrators only,
 * the name, add_custom_emoji_policy, a free name, exactly one file, default emoji names for
 * administrators only, size, image type); the image is stored under the data directory and
 * realm_emoji (the whole dictionary) goes to every active user of the realm.
 */
export async function checkAddRealmEmoji(ctx: AppContext, user: UserRow, rawName: string, files: readonly UploadedFile[]): Promise<void> {
  requireMemberOrAdmin(user);
  const name = rawName.trim().replace(/ /g, "_");
  checkValidEmojiName(name);
  const realm = await ctx.realms.get(user.realm_id);
  if (!realm) throw new Error(`user ${user.id} has no realm`);
  if (!hasRolePolicy(user, realmSetting(realm, "add_custom_emoji_policy"), realm, ctx.clock.now())) throw insufficientPermission();
  if (await activeRealmEmojiByName(ctx.db, realm.id, name)) throw badRequest("A custom emoji with this name already exists.");
  const [file, ...others] = files;
  if (!file || others.length > 0) throw badRequest("You must upload exactly one file.");
  if ((emojiByName(name) !== undefined || name === "zulip") && !isAdmin(user)) throw badRequest("Only administrators can override default emoji.");
  if (file.data.length > MAX_EMOJI_FILE_SIZE_MIB * 1024 * 1024) {
    throw badRequest(`Uploaded file is larger than the allowed limit of ${MAX_EMOJI_FILE_SIZE_MIB} MiB`);
  }
  const type = await receivedImageType(file.data, file.mimetype);
  const extension = EMOJI_IMAGE_TYPES[type];
  if (extension === undefined) throw badImage("Invalid image format");
  const { image, still } = await resizeEmoji(file.data, EMOJI_FORMATS[type] ?? "png");
  await write(ctx, async (tx, outbox) => {
    // Checked again in the transaction: two uploads of one name must not both succeed.
    if (await activeRealmEmojiByName(tx, realm.id, name)) throw badRequest("A custom emoji with this name already exists.");
    const id = await insertRealmEmoji(tx, { realm_id: realm.id, name, author_id: user.id, file_name: "", is_animated: still ? 1 : 0, deactivated: 0 });
    // The id plus a random part: names cannot be enumerated and never collide.
    const fileName = `${id}-${randomToken(8)}${extension}`;
    const target = emojiFilePath(ctx.config.dataDir, realm.id, fileName);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.writeFile(target, image);
    if (still) {
      const stillTarget = emojiFilePath(ctx.config.dataDir, realm.id, emojiStillName(fileName));
      await fs.mkdir(path.dirname(stillTarget), { recursive: true });
      await fs.writeFile(stillTarget, still);
    }
    await setRealmEmojiFile(tx, id, fileName);
    await notifyRealmEmoji(tx, outbox, realm.id);
  });
}

/**
 * DELETE /realm/emoji/{name}: deactivates the active emoji of that name; its author or an
 * administrator may. realm_emoji to every active user of the realm.
 */
export async function checkRemoveRealmEmoji(ctx: AppContext, user: UserRow, name: string): Promise<void> {
  await write(ctx, async (tx, outbox) => {
    const emoji = await activeRealmEmojiByName(tx, user.realm_id, name);
    if (!emoji) throw notFound(`Emoji '${name}' does not exist`);
    if (!isAdmin(user) && emoji.author_id !== user.id) throw badRequest("Must be an organization administrator or emoji author");
    await deactivateRealmEmoji(tx, emoji.id);
    await notifyRealmEmoji(tx, outbox, user.realm_id);
  });
}

// The encoder for each accepted type: emoji are served in the format they were uploaded in.
const EMOJI_FORMATS: Readonly<Record<string, "png" | "gif" | "jpeg" | "webp" | "avif">> = {
  "image/png": "png",
  "image/gif": "gif",
  "image/jpeg": "jpeg",
  "image/webp": "webp",
  "image/avif": "avif",
};

async function notifyRealmEmoji(tx: Db, outbox: Outbox, realmId: number): Promise<void> {
  const dict = realmEmojiDict(await realmEmojiOfRealm(tx, realmId));
  outbox.sendToRealm({ type: "realm_emoji", op: "update", realm_emoji: dict }, realmId);
}
