import { sql } from "kysely";
import type { App } from "../src/app.js";
import type { AppContext } from "../src/context.js";
import { createRealm } from "../src/actions/realms.js";
import { insertUser } from "../src/db/queries/users.js";
import { realmById } from "../src/db/queries/realms.js";
import { activeStreamsByIds, defaultStreamIds } from "../src/db/queries/streams.js";
import { insertSubscriptions } from "../src/db/queries/subscriptions.js";
import { insertMembers } from "../src/db/queries/user-groups.js";
import { randomToken } from "../src/base/secrets.js";
import { pickColors } from "../src/lib/channels/streams.js";
import { isProvisionalMember, systemGroupId } from "../src/lib/groups/user-groups.js";
import { SystemGroups } from "../src/lib/groups/system-groups.js";
import { Role } from "../src/lib/users/roles.js";
import { initialSettingsFor } from "../src/lib/users/settings.js";

/** A user of a benchmark's organisation and its credentials. */
export interface BenchUser {
  id: number;
  email: string;
  key: string;
}

/** How benchOrganisation builds its members. */
export interface BenchOrganisationOptions {
  /**
   * true: the members are left as POST /users would leave them (in role:members and, past the
   * waiting period, role:fullmembers; subscribed to the default channels), less the events.
   * false (the default): bare user rows, as the older benches measured them.
   */
  asCreated?: boolean;
}

/**
 * An organisation of `count` users (the owner first, then members) in `app`'s database; the
 * members come from addBenchMembers.
 */
export async function benchOrganisation(app: App, count: number, now: number, options: BenchOrganisationOptions = {}): Promise<BenchUser[]> {
  const { owner } = await createRealm(app.ctx, { name: "Bench", stringId: "", ownerEmail: "owner@bench.test", ownerName: "Owner", password: "bench-password" });
  const members = await addBenchMembers(app.ctx, owner.realm_id, count - 1, now, options);
  return [{ id: owner.id, email: owner.delivery_email, key: owner.api_key }, ...members];
}

/**
 * `count` members (user<n>@bench.test, from `first`) added to a realm in one transaction whatever
 * their number: user rows one statement each, then group memberships and default subscriptions as
 * multi-row inserts (the project's own chunked inserts). Nobody is told: there is nobody to tell
 * yet. Creating them through the API would time password hashing and, before the organisation is
 * built, events to every earlier member.
 */
export async function addBenchMembers(ctx: AppContext, realmId: number, count: number, now: number, options: BenchOrganisationOptions & { first?: number } = {}): Promise<BenchUser[]> {
  const users: BenchUser[] = [];
  const first = options.first ?? 1;
  await ctx.store.write(async (tx) => {
    const initial = await initialSettingsFor(tx, realmId);
    const ids: number[] = [];
    for (let i = first; i < first + count; i++) {
      const email = `user${i}@bench.test`;
      const key = randomToken(32);
      const id = await insertUser(tx, {
        realm_id: realmId, email, delivery_email: email, full_name: `User ${i}`, password_hash: null, api_key: key, role: Role.MEMBER,
        is_active: 1, is_bot: 0, bot_type: null, bot_owner_id: null, is_billing_admin: 0, date_joined: now, timezone: "",
        avatar_source: "G", avatar_version: 1, email_address_visibility: initial.emailAddressVisibility, settings: initial.settings,
      });
      users.push({ id, email, key });
      ids.push(id);
    }
    if (!options.asCreated) return;
    await insertMembers(tx, await systemGroupId(tx, realmId, SystemGroups.MEMBERS), ids);
    const realm = await realmById(tx, realmId);
    if (realm && !isProvisionalMember({ role: Role.MEMBER, date_joined: now }, realm, ctx.clock.now())) {
      await insertMembers(tx, await systemGroupId(tx, realmId, SystemGroups.FULL_MEMBERS), ids);
    }
    const streams = await activeStreamsByIds(tx, await defaultStreamIds(tx, realmId));
    const colors = pickColors([], new Map(), streams.map((s) => s.id));
    await insertSubscriptions(
      tx,
      ids.flatMap((user_id) =>
        streams.map((s) => ({ user_id, stream_id: s.id, active: 1, is_user_active: 1, color: colors.get(s.id) ?? "#c2c2c2", is_muted: 0, pin_to_top: 0 })),
      ),
    );
  });
  // Every process's caches may hold the realm's users and memberships from before these rows;
  // PostgreSQL plans from statistics, which a table grown fifty-fold at once has not caught up with yet.
  await ctx.bus.publish({ events: [], changes: [{ cache: "all" }] });
  if (ctx.store.dialect === "postgres") await sql`analyze`.execute(ctx.db);
  return users;
}
