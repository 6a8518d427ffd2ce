import { write, type AppContext } from "../context.js";
import { insertRealm, realmByStringId, type RealmRow } from "../db/queries/realms.js";
import { realmById } from "../db/queries/realms.js";
import type { UserRow } from "../db/queries/users.js";
import { badRequest } from "../http/errors.js";
import { Role } from "../lib/roles.js";
import { hashPassword } from "../lib/secrets.js";
import { createNotificationBot } from "./notification-bot.js";
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
}

/** Creates an organisation and its owner in one transaction. */
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
      props: "{}",
    });
    await createSystemGroups(tx, realmId, ctx.clock.now());
    const owner = await doCreateUser(
      ctx,
      tx,
      outbox,
      { realmId, email: input.ownerEmail.trim(), fullName: input.ownerName, password: input.password, role: Role.OWNER },
      passwordHash,
    );
    await createNotificationBot(tx, realmId, ctx.clock.now());
    const realm = await realmById(tx, realmId);
    if (!realm) throw new Error("created realm vanished");
    return { realm, owner };
  });
}
