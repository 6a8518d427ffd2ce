import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import { deleteMute, insertMute, isMuted, markRead, unreadFromSender } from "../db/queries/muted-users.js";
import type { UserRow } from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";
import { badRequest } from "../base/errors.js";
import { mutedUsersList } from "../lib/users/muted-users.js";
import { accessUserById } from "../lib/users/users.js";

/**
 * Mutes a user (bots and deactivated users included). The target's unread messages to the caller
 * become read (update_message_flags to the caller, only if there were any), then the caller's
 * clients get the full muted_users list. Both events go to the caller only.
 */
export async function checkMuteUser(ctx: AppContext, user: UserRow, mutedUserId: number): Promise<void> {
  if (mutedUserId === user.id) throw badRequest("Cannot mute self");
  const target = await accessUserById(ctx.db, user, mutedUserId, { allowDeactivated: true, allowBots: true });
  await write(ctx, async (tx, outbox) => {
    if (await isMuted(tx, user.id, target.id)) throw badRequest("User already muted");
    await insertMute(tx, user.id, target.id, ctx.clock.now());
    const unread = await unreadFromSender(tx, user.id, target.id);
    if (unread.length > 0) {
      await markRead(tx, user.id, unread);
      outbox.send({ type: "update_message_flags", op: "add", operation: "add", flag: "read", messages: unread, all: false }, [user.id]);
    }
    await sendMutedUsers(tx, outbox, user.id);
  });
}

/** Unmutes a user; messages stay read. The caller's clients get the new muted_users list. */
export async function checkUnmuteUser(ctx: AppContext, user: UserRow, mutedUserId: number): Promise<void> {
  const target = await accessUserById(ctx.db, user, mutedUserId, { allowDeactivated: true, allowBots: true });
  await write(ctx, async (tx, outbox) => {
    if (!(await isMuted(tx, user.id, target.id))) throw badRequest("User is not muted");
    await deleteMute(tx, user.id, target.id);
    await sendMutedUsers(tx, outbox, user.id);
  });
}

async function sendMutedUsers(tx: Db, outbox: Outbox, userId: number): Promise<void> {
  outbox.send({ type: "muted_users", muted_users: await mutedUsersList(tx, userId) }, [userId]);
}
