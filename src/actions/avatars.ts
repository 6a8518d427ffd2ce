import { Readable } from "node:stream";
import { write, type AppContext } from "../context.js";
import { updateUser, userById, type UserRow } from "../db/queries/users.js";
import { ApiError, badRequest } from "../base/errors.js";
import type { UploadedFile } from "../uploads/incoming.js";
import { realmProp } from "../lib/realm/props.js";
import { botAudience } from "./users.js";
import { isAdmin } from "../lib/users/roles.js";
import { avatarChangePerson, avatarHash } from "../lib/users/users.js";
import { AVATAR_SIZE, badImage, MEDIUM_AVATAR_SIZE, receivedImageType, resizeAvatar, THUMBNAIL_ACCEPT_IMAGE_TYPES } from "../uploads/images.js";

/** Zulip's MAX_AVATAR_FILE_SIZE_MIB default (as /register reports it). */
export const MAX_AVATAR_FILE_SIZE_MIB = 5;


async function checkAvatarChangesAllowed(ctx: AppContext, user: UserRow): Promise<void> {
  const disabled = realmProp(await ctx.realms.get(user.realm_id), "avatar_changes_disabled");
  if (disabled === true && !isAdmin(user)) throw badRequest("Avatar changes are disabled in this organization.");
}

/**
 * POST /users/me/avatar (Zulip's set_avatar_backend): one image, at most 5 MiB, of an accepted
 * type; stored as its original and as 100 px and 500 px square PNGs. Returns the new avatar_url.
 */
export async function checkSetAvatar(ctx: AppContext, user: UserRow, files: readonly UploadedFile[]): Promise<string> {
  const [file, ...others] = files;
  if (!file || others.length > 0) throw badRequest("You must upload exactly one avatar.");
  await checkAvatarChangesAllowed(ctx, user);
  if (file.data.length > MAX_AVATAR_FILE_SIZE_MIB * 1024 * 1024) {
    throw badRequest(`Uploaded file is larger than the allowed limit of ${MAX_AVATAR_FILE_SIZE_MIB} MiB`);
  }
  if (!THUMBNAIL_ACCEPT_IMAGE_TYPES.has(await receivedImageType(file.data, file.mimetype))) throw badImage("Invalid image format");
  const small = await resizeAvatar(file.data, AVATAR_SIZE);
  const medium = await resizeAvatar(file.data, MEDIUM_AVATAR_SIZE);
  // Written before the change commits, under the next version's name: no URL ever points at nothing.
  const current = (await userById(ctx.db, user.id)) ?? user;
  const key = `user_avatars/${avatarHash({ ...current, avatar_version: current.avatar_version + 1 })}`;
  await ctx.files.put(`${key}.original`, Readable.from([file.data]));
  await ctx.files.put(`${key}.png`, Readable.from([small]));
  await ctx.files.put(`${key}-medium.png`, Readable.from([medium]));
  const changed = await doChangeAvatarSource(ctx, user, "U");
  return String(avatarChangePerson(changed).avatar_url);
}

/** DELETE /users/me/avatar: back to Gravatar (Zulip's delete_avatar_backend). Returns the new avatar_url. */
export async function checkDeleteAvatar(ctx: AppContext, user: UserRow): Promise<string> {
  await checkAvatarChangesAllowed(ctx, user);
  const changed = await doChangeAvatarSource(ctx, user, "G");
  return String(avatarChangePerson(changed).avatar_url);
}

/**
 * Zulip's do_change_avatar_fields: the source and a new version (so every URL changes); the
 * files for the new version are written first. realm_user update with the avatar fields goes
 * to every active user of the realm, and realm_bot update to a bot's owner and administrators.
 */
async function doChangeAvatarSource(ctx: AppContext, user: UserRow, source: "U" | "G"): Promise<UserRow> {
  return write(ctx, async (tx, outbox) => {
    const current = await userById(tx, user.id);
    if (!current) throw new ApiError("No such user", "BAD_REQUEST", 400);
    const next: UserRow = { ...current, avatar_source: source, avatar_version: current.avatar_version + 1 };
    await updateUser(tx, user.id, { avatar_source: source, avatar_version: next.avatar_version });
    outbox.invalidate({ cache: "user", id: user.id });
    const person = avatarChangePerson(next);
    // Every active user: one realm-wide entry, not the whole organisation read in the transaction.
    outbox.sendToRealm({ type: "realm_user", op: "update", person }, user.realm_id);
    if (next.is_bot) outbox.send({ type: "realm_bot", op: "update", bot: { user_id: next.id, avatar_url: person.avatar_url } }, await botAudience(tx, next));
    return next;
  });
}
