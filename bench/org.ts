import type { App } from "../src/app.js";
import { createRealm } from "../src/actions/realms.js";
import { insertUser } from "../src/db/queries/users.js";
import { randomToken } from "../src/base/secrets.js";
import { initialSettingsFor } from "../src/lib/users/settings.js";

/** A user of a benchmark's organisation and its credentials. */
export interface BenchUser {
  id: number;
  email: string;
  key: string;
}

/**
 * An organisation of `count` users (the owner first, then members) in `app`'s database. The
 * members are inserted directly: creating them through the API would mostly time password hashing.
 */
export async function benchOrganisation(app: App, count: number, now: number): Promise<BenchUser[]> {
  const { owner } = await createRealm(app.ctx, { name: "Bench", stringId: "", ownerEmail: "owner@bench.test", ownerName: "Owner", password: "bench-password" });
  const users: BenchUser[] = [{ id: owner.id, email: owner.delivery_email, key: owner.api_key }];
  await app.ctx.store.write(async (tx) => {
    const initial = await initialSettingsFor(tx, owner.realm_id);
    for (let i = 1; i < count; i++) {
      const email = `user${i}@bench.test`;
      const key = randomToken(32);
      const id = await insertUser(tx, {
        realm_id: owner.realm_id, email, delivery_email: email, full_name: `User ${i}`, password_hash: null, api_key: key, role: 400,
        is_active: 1, is_bot: 0, bot_type: null, bot_owner_id: null, is_billing_admin: 0, date_joined: now, timezone: "",
        avatar_source: "G", avatar_version: 1, email_address_visibility: initial.emailAddressVisibility, settings: initial.settings,
      });
      users.push({ id, email, key });
    }
  });
  return users;
}
