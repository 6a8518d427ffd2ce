import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import { hasReaction, insertReaction, ownReactionName, reactionNameOnMessage, removeReaction } from "../db/queries/reactions.js";
import { insertHistoricalRows } from "../db/queries/user-messages.js";
import type { UserRow } from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";
import { ApiError, badRequest } from "../base/errors.js";
import { HISTORICAL_FLAGS } from "../lib/messages/flags.js";
import { accessMessage } from "../lib/messages/access.js";
import { messageAudience } from "../lib/messages/audience.js";
import { checkEmojiRequest, emojiDataFor } from "../lib/realm/emoji-check.js";

/** A reaction as the endpoints name it. */
export interface ReactionInput {
  emojiName: string | undefined;
  emojiCode: string | undefined;
  reactionType: string | undefined;
}

/**
 * Adds the user's reaction (Zulip's check_add_reaction). A reaction with an emoji others already
 * used counts as a vote for theirs and takes its name. Sends `reaction` add to the message's audience.
 */
export async function checkAddReaction(ctx: AppContext, user: UserRow, messageId: number, input: ReactionInput): Promise<void> {
  if (input.emojiName === undefined) throw new ApiError("Missing 'emoji_name' argument", "REQUEST_VARIABLE_MISSING", 400, { var_name: "emoji_name" });
  const emojiName = input.emojiName;
  await write(ctx, async (tx, outbox) => {
    const { message, flags } = await accessMessage(tx, user, messageId);
    let code = input.emojiCode;
    let type = input.reactionType;
    if (code === undefined || type === undefined) ({ code, type } = await emojiDataFor(tx, user.realm_id, emojiName));
    if (await hasReaction(tx, message.id, user.id, type, code)) throw new ApiError("Reaction already exists.", "REACTION_ALREADY_EXISTS", 400);
    const existingName = await reactionNameOnMessage(tx, message.id, code, type);
    const name = existingName ?? emojiName;
    if (existingName === undefined) await checkEmojiRequest(tx, user.realm_id, name, code, type);
    // Reacting subscribes the user to the message's later updates, as Zulip's historical row does.
    if (flags === undefined) await insertHistoricalRows(tx, user.id, [message.id], HISTORICAL_FLAGS);
    await insertReaction(tx, { message_id: message.id, user_id: user.id, emoji_name: name, emoji_code: code, reaction_type: type });
    await notify(tx, outbox, user, "add", message.id, message.stream_id, { name, code, type });
  });
}

/**
 * Adds a reaction the server decides on itself (Zulip's do_add_reaction, as the Welcome Bot
 * reacts to its turtle); sends `reaction` add to the message's audience.
 */
export async function doAddReaction(tx: Db, outbox: Outbox, user: UserRow, message: { id: number; stream_id: number | null }, emoji: { name: string; code: string; type: string }): Promise<void> {
  await insertReaction(tx, { message_id: message.id, user_id: user.id, emoji_name: emoji.name, emoji_code: emoji.code, reaction_type: emoji.type });
  await notify(tx, outbox, user, "add", message.id, message.stream_id, emoji);
}

/** Removes the user's reaction (Zulip's remove_reaction); the code may be found from the name. */
export async function checkRemoveReaction(ctx: AppContext, user: UserRow, messageId: number, input: ReactionInput): Promise<void> {
  await write(ctx, async (tx, outbox) => {
    const { message } = await accessMessage(tx, user, messageId);
    const type = input.reactionType ?? "unicode_emoji";
    let code = input.emojiCode;
    if (code === undefined) {
      if (input.emojiName === undefined) throw badRequest("At least one of the following arguments must be present: emoji_name, emoji_code");
      code = (await emojiDataFor(tx, user.realm_id, input.emojiName)).code;
    }
    const ownName = await ownReactionName(tx, message.id, user.id, code, type);
    if (ownName === undefined) throw new ApiError("Reaction doesn't exist.", "REACTION_DOES_NOT_EXIST", 400);
    await removeReaction(tx, message.id, user.id, type, code);
    await notify(tx, outbox, user, "remove", message.id, message.stream_id, { name: ownName, code, type });
  });
}

/** Sends `reaction` to everyone who has the message and to subscribers who may read the channel's history. */
async function notify(tx: Db, outbox: Outbox, user: UserRow, op: "add" | "remove", messageId: number, streamId: number | null, emoji: { name: string; code: string; type: string }): Promise<void> {
  outbox.send(
    {
      type: "reaction",
      op,
      user_id: user.id,
      user: { user_id: user.id, email: user.email, full_name: user.full_name },
      message_id: messageId,
      emoji_name: emoji.name,
      emoji_code: emoji.code,
      reaction_type: emoji.type,
    },
    await messageAudience(tx, [messageId], streamId),
  );
}
