import type { AppContext } from "../../context.js";
import { readersOf } from "../../db/queries/user-messages.js";
import type { UserRow } from "../../db/queries/users.js";
import { badRequest } from "../../base/errors.js";
import { accessMessage } from "./access.js";
import { realmSetting } from "../realm/props.js";
import { userSetting } from "../users/settings.js";

/**
 * Zulip's read_receipts: who has read a message the caller may read, where the organization
 * shares read receipts. Never the sender, deactivated users, users who turned
 * send_read_receipts off, or users muted by or muting the caller; bots are included.
 */
export async function readReceipts(ctx: AppContext, user: UserRow, messageId: number): Promise<number[]> {
  const { message } = await accessMessage(ctx.db, user, messageId);
  const realm = await ctx.realms.get(user.realm_id);
  if (!realm || !realmSetting(realm, "enable_read_receipts")) throw badRequest("Read receipts are disabled in this organization.");
  const out: number[] = [];
  for (const id of await readersOf(ctx.db, message.id, message.sender_id, user.id)) {
    const reader = await ctx.users.get(id);
    if (reader && userSetting(reader, "send_read_receipts") !== false) out.push(id);
  }
  return out;
}
