import type { Db } from "../db/index.js";

/** The id of the newest message the user has received, or -1 (GET /users/me max_message_id). */
export async function maxMessageIdForUser(_db: Db, _userId: number): Promise<number> {
  // No message store exists yet, so no user has received a message.
  return -1;
}
