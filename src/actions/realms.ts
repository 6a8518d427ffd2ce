import { write, type AppContext } from "../context.js";
import { insertRealm, realmByStringId, type RealmRow } from "../db/queries/realms.js";
import { realmById } from "../db/queries/realms.js";
import type { UserRow } from "../db/queries/users.js";
import { badRequest } from "../base/errors.js";
import { REALM_DEFAULTS } from "../lib/realm/props.js";
import { Role } from "../lib/users/roles.js";
import { hashPassword } from "../base/secrets.js";
import { createNotificationBot, createWelcomeBot } from "./notification-bot.js";
import { setUpNewRealm } from "./onboarding.js";
import { createSystemGroups } from "./user-groups.js";
import { doCreateUser } from "./users.js";

/** What a new organisation is made of. */
export interface NewRealm {
  name: string;
  /** Subdomain; "" serves the root domain. */
  stringId: string;
  ownerEmail: string;
  ownerName: string;
  password: string;
  /**
   * false leaves out the initial channels and the Welcome Bot's messages, as Zulip's test fixtures
   * build their organisation from their own data; a real organisation always has them.
   */
  initialContent?: boolean;
}

/**
 * Zulip's do_create_realm: read receipts start on in a closed organisation (joining needs an
 * invitation, Zulip's default, or emails are restricted to the organisation's domains) and off in
 * an open one. Stored at creation, so organisations made before keep what they had.
 */
export function defaultReadReceipts(inviteRequired: boolean, emailsRestrictedToDomains: boolean): boolean {
  return inviteRequired || emailsRestrictedToDomains;
}

/**
 * Creates an organisation, its owner and its system bots in one transaction, then (unless told
 * not to) Zulip 9.0's initial channels and messages.
 */
export async function createRealm(ctx: AppContext, input: NewRealm): Promise<{ realm: RealmRow; owner: UserRow }> {
  if (input.name.trim().length === 0) throw badRequest("Realm name must not be empty");
  const passwordHash = await hashPassword(input.password);
  return write(ctx, async (tx, outbox) => {
    if (await realmByStringId(tx, input.stringId)) throw badRequest(`Subdomain '${input.stringId}' is already in use`);
    const realmId = await insertRealm(tx, {
      string_id: input.stringId,
      name: input.name.trim(),
      description: "",
      date_created: ctx.clock.now(),
      deactivated: 0,
      props: JSON.stringify({ enable_read_receipts: defaultReadReceipts(REALM_DEFAULTS.invite_required, REALM_DEFAULTS.emails_restricted_to_domains) }),
    });
    await createSystemGroups(tx, realmId, ctx.clock.now());
    const owner = await doCreateUser(
      ctx,
      tx,
      outbox,
      { realmId, email: input.ownerEmail.trim(), fullName: input.ownerName, password: input.password, role: Role.OWNER, welcome: false },
      passwordHash,
    );
    await createNotificationBot(tx, realmId, ctx.clock.now());
    await createWelcomeBot(tx, realmId, ctx.clock.now());
    if (input.initialContent !== false) await setUpNewRealm(ctx, tx, outbox, realmId, owner);
    const realm = await realmById(tx, realmId);
    if (!realm) throw new Error("created realm vanished");
    return { realm, owner };
  });
}
