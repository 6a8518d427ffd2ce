import { write, type AppContext } from "../context.js";
import { saveStatus, statusOf } from "../db/queries/user-status.js";
import type { UserRow } from "../db/queries/users.js";
import type { UserStatusEvent } from "../events/types.js";
import { badRequest } from "../base/errors.js";
import { checkEmojiRequest, emojiDataFor } from "../lib/realm/emoji-check.js";
import { userSetting } from "../lib/users/settings.js";
import { doPresenceEnabledChanged } from "./presence.js";
import { doChangeUserSetting } from "./settings.js";

/** What POST /users/me/status was sent (undefined = not passed). */
export interface StatusChange {
  away?: boolean;
  statusText?: string;
  emojiName?: string;
  emojiCode?: string;
  reactionType?: string;
}

/**
 * Sets the caller's status; only passed fields change. `away` is the legacy view of
 * presence_enabled and goes through the settings path. The user_status event goes to every
 * active user of the realm (everyone can access everyone here).
 */
export async function checkUpdateStatus(ctx: AppContext, user: UserRow, change: StatusChange): Promise<void> {
  const statusText = change.statusText?.trim();
  if (change.away === undefined && statusText === undefined && change.emojiName === undefined) {
    throw badRequest("Client did not pass any new values.");
  }
  if (statusText !== undefined && [...statusText].length > 60) throw badRequest("status_text is too long (limit: 60 characters)");
  let emoji: { name: string; code: string; type: string } | undefined;
  if (change.emojiName === "") emoji = { name: "", code: "", type: "unicode_emoji" };
  else if (change.emojiName !== undefined) emoji = await checkStatusEmoji(ctx, user, change.emojiName, change.emojiCode, change.reactionType);
  else if (change.emojiCode !== undefined || change.reactionType !== undefined) {
    throw badRequest("Client must pass emoji_name if they pass either emoji_code or reaction_type.");
  }
  const presenceFlip = change.away !== undefined && userSetting(user, "presence_enabled") !== !change.away;
  await write(ctx, async (tx, outbox) => {
    if (presenceFlip) {
      await doChangeUserSetting(ctx, tx, outbox, user.id, "presence_enabled", !change.away);
      outbox.invalidate({ cache: "user", id: user.id });
    }
    const row = (await statusOf(tx, user.id)) ?? {
      user_id: user.id,
      realm_id: user.realm_id,
      status_text: "",
      emoji_name: "",
      emoji_code: "",
      reaction_type: "unicode_emoji",
      timestamp: 0,
    };
    row.timestamp = ctx.clock.now();
    if (statusText !== undefined) row.status_text = statusText;
    if (emoji) Object.assign(row, { emoji_name: emoji.name, emoji_code: emoji.code, reaction_type: emoji.type });
    await saveStatus(tx, row);
    const event: UserStatusEvent = { type: "user_status", user_id: user.id };
    if (change.away !== undefined) event.away = change.away;
    if (statusText !== undefined) event.status_text = statusText;
    if (emoji) Object.assign(event, { emoji_name: emoji.name, emoji_code: emoji.code, reaction_type: emoji.type });
    outbox.sendToRealm(event, user.realm_id);
  });
  if (presenceFlip) await doPresenceEnabledChanged(ctx, (await ctx.users.get(user.id)) ?? user, !change.away);
}

/** Zulip's get_emoji_data (when the code or type is missing) and check_emoji_request for the status emoji. */
async function checkStatusEmoji(ctx: AppContext, user: UserRow, name: string, code: string | undefined, type: string | undefined): Promise<{ name: string; code: string; type: string }> {
  const data = code === undefined || type === undefined ? await emojiDataFor(ctx.db, user.realm_id, name) : { code, type };
  await checkEmojiRequest(ctx.db, user.realm_id, name, data.code, data.type);
  return { name, code: data.code, type: data.type };
}
