import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import { deletePlayground, insertPlayground, playgroundById, playgroundByLanguageAndName, playgroundsOfRealm } from "../db/queries/realm-playgrounds.js";
import type { UserRow } from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";
import { badRequest } from "../base/errors.js";
import { checkPlaygroundFields, playgroundDicts } from "../lib/realm/playgrounds.js";
import { pyStrip } from "../algorithms/python-text.js";

/**
 * Code playgrounds (Zulip's realm_playgrounds actions). Callers have checked the administrator
 * role and the raw pygments_language. Every change sends realm_playgrounds (the whole list) to
 * every active user of the realm.
 */

/** POST /realm/playgrounds: strips the fields, validates like Zulip's full_clean, adds. */
export async function checkAddPlayground(ctx: AppContext, user: UserRow, fields: { name: string; pygmentsLanguage: string; urlTemplate: string }): Promise<number> {
  const name = pyStrip(fields.name);
  const pygmentsLanguage = pyStrip(fields.pygmentsLanguage);
  const urlTemplate = pyStrip(fields.urlTemplate);
  return write(ctx, async (tx, outbox) => {
    const taken = (await playgroundByLanguageAndName(tx, user.realm_id, pygmentsLanguage, name)) !== undefined;
    checkPlaygroundFields({ name, pygmentsLanguage, urlTemplate }, taken);
    const id = await insertPlayground(tx, { realm_id: user.realm_id, name, pygments_language: pygmentsLanguage, url_template: urlTemplate });
    await notifyPlaygrounds(tx, outbox, user.realm_id);
    return id;
  });
}

/** DELETE /realm/playgrounds/{playground_id}. */
export async function checkRemovePlayground(ctx: AppContext, user: UserRow, id: number): Promise<void> {
  await write(ctx, async (tx, outbox) => {
    if (!(await playgroundById(tx, user.realm_id, id))) throw badRequest("Invalid playground");
    await deletePlayground(tx, id);
    await notifyPlaygrounds(tx, outbox, user.realm_id);
  });
}

async function notifyPlaygrounds(tx: Db, outbox: Outbox, realmId: number): Promise<void> {
  const realmPlaygrounds = playgroundDicts(await playgroundsOfRealm(tx, realmId));
  outbox.sendToRealm({ type: "realm_playgrounds", realm_playgrounds: realmPlaygrounds }, realmId);
}
