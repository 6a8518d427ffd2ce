import type { Db } from "../../db/index.js";
import { userByApiEmail, userById, type UserRow } from "../../db/queries/users.js";
import { noSuchUser, userDeactivated } from "../../base/errors.js";

/**
 * The users named by a `principals` parameter (API emails or ids, not mixed), each an active
 * user (bots included) of the caller's realm: `No such user` / `User is deactivated` otherwise.
 */
export async function resolvePrincipals(db: Db, caller: UserRow, principals: readonly (string | number)[]): Promise<UserRow[]> {
  const out = new Map<number, UserRow>();
  for (const principal of principals) {
    const user = typeof principal === "number" ? await userById(db, principal) : await userByApiEmail(db, caller.realm_id, principal);
    if (!user || user.realm_id !== caller.realm_id) throw noSuchUser();
    if (!user.is_active) throw userDeactivated();
    out.set(user.id, user);
  }
  return [...out.values()];
}
