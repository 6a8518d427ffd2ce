import type { UserRow } from "../db/queries/users.js";
import { badRequest } from "../base/errors.js";

/** Zulip's human_users_only: bots may not call this endpoint. */
export function requireHuman(user: UserRow): void {
  if (user.is_bot) throw badRequest("This endpoint does not accept bot requests.");
}
