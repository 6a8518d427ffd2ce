import type { AppContext } from "../../context.js";
import type { RealmRow } from "../../db/queries/realms.js";
import { userByDeliveryEmail, type UserRow } from "../../db/queries/users.js";
import { verifyPassword } from "../../base/secrets.js";

/** The key password attempts are counted under (Zulip's authenticate_by_username). */
export function authenticationKey(realmId: number, email: string): string {
  return `${realmId}:${email.toLowerCase()}`;
}

/** How a password login ended: each caller words these its own way (the API's errors, the login form's texts). */
export type LoginOutcome =
  | { kind: "ok"; user: UserRow }
  | { kind: "rate_limited"; secs: number }
  | { kind: "invalid" }
  | { kind: "realm_deactivated" }
  | { kind: "user_deactivated" };

/**
 * Checks an email and password, as POST /fetch_api_key and the login form both do: attempts
 * count against the address, known or not (Zulip's authenticate_by_username limit); a correct
 * password clears them; deactivation is told only to someone who knows the password.
 */
export async function checkPasswordLogin(ctx: AppContext, realm: RealmRow, email: string, password: string): Promise<LoginOutcome> {
  const attempts = authenticationKey(realm.id, email);
  const wait = await ctx.limits.authentication.hit(attempts, ctx.clock.now());
  if (wait > 0) return { kind: "rate_limited", secs: wait };
  const user = await userByDeliveryEmail(ctx.db, realm.id, email);
  // Hashed for an unknown address too: the time taken must not tell which addresses exist.
  if (!(await verifyPassword(password, user?.password_hash ?? null)) || !user) return { kind: "invalid" };
  await ctx.limits.authentication.clear(attempts);
  if (realm.deactivated) return { kind: "realm_deactivated" };
  if (!user.is_active) return { kind: "user_deactivated" };
  return { kind: "ok", user };
}
