import type { Db } from "../db/index.js";
import { maxReceivedMessageId } from "../db/queries/messages.js";

/** The id of the newest message the user has received, or -1 (GET /users/me max_message_id). */
export function maxMessageIdForUser(db: Db, userId: number): Promise<number> {
  return maxReceivedMessageId(db, userId);
}
