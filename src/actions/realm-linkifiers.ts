import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import {
  deleteLinkifier,
  insertLinkifier,
  linkifierById,
  linkifiersOfRealm,
  linkifierWithPattern,
  reorderLinkifiers,
  updateLinkifier,
} from "../db/queries/realm-filters.js";
import type { UserRow } from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";
import { badRequest } from "../base/errors.js";
import { checkLinkifierFields, linkifierDicts } from "../lib/realm/linkifiers.js";
import { pyStrip } from "../algorithms/python-text.js";

/**
 * Linkifiers (Zulip's realm_linkifiers actions). Callers have checked the administrator role.
 * Every change sends realm_linkifiers (the whole ordered list) to every active user of the realm;
 * queues without the linkifier_url_template capability drop it. After the commit the realm's
 * compiled linkifiers are dropped, so the next message rendered uses the new set.
 */

/** POST /realm/filters: validates like Zulip's full_clean and adds the linkifier last. */
export async function checkAddLinkifier(ctx: AppContext, user: UserRow, rawPattern: string, rawUrlTemplate: string): Promise<number> {
  const pattern = pyStrip(rawPattern);
  const urlTemplate = pyStrip(rawUrlTemplate);
  return write(ctx, async (tx, outbox) => {
    const taken = (await linkifierWithPattern(tx, user.realm_id, pattern)) !== undefined;
    checkLinkifierFields(pattern, urlTemplate, taken);
    const id = await insertLinkifier(tx, user.realm_id, pattern, urlTemplate);
    await notifyLinkifiers(tx, outbox, user.realm_id);
    return id;
  });
}

/** PATCH /realm/filters/{filter_id}: replaces pattern and URL template, keeping its place. */
export async function checkUpdateLinkifier(ctx: AppContext, user: UserRow, id: number, rawPattern: string, rawUrlTemplate: string): Promise<void> {
  const pattern = pyStrip(rawPattern);
  const urlTemplate = pyStrip(rawUrlTemplate);
  await write(ctx, async (tx, outbox) => {
    if (!(await linkifierById(tx, user.realm_id, id))) throw badRequest("Linkifier not found.");
    const taken = (await linkifierWithPattern(tx, user.realm_id, pattern, id)) !== undefined;
    checkLinkifierFields(pattern, urlTemplate, taken);
    await updateLinkifier(tx, id, pattern, urlTemplate);
    await notifyLinkifiers(tx, outbox, user.realm_id);
  });
}

/** DELETE /realm/filters/{filter_id}. */
export async function checkRemoveLinkifier(ctx: AppContext, user: UserRow, id: number): Promise<void> {
  await write(ctx, async (tx, outbox) => {
    if (!(await linkifierById(tx, user.realm_id, id))) throw badRequest("Linkifier not found.");
    await deleteLinkifier(tx, id);
    await notifyLinkifiers(tx, outbox, user.realm_id);
  });
}

/**
 * PATCH /realm/linkifiers: the new order must name every linkifier of the realm exactly once. A
 * realm without linkifiers accepts [] and announces nothing.
 */
export async function checkReorderLinkifiers(ctx: AppContext, user: UserRow, orderedIds: readonly number[]): Promise<void> {
  const wanted = new Set(orderedIds);
  if (wanted.size < orderedIds.length) throw badRequest("The ordered list must not contain duplicated linkifiers");
  await write(ctx, async (tx, outbox) => {
    const existing = (await linkifiersOfRealm(tx, user.realm_id)).map((row) => row.id);
    if (existing.length !== wanted.size || existing.some((id) => !wanted.has(id))) {
      throw badRequest("The ordered list must enumerate all existing linkifiers exactly once");
    }
    if (existing.length === 0) return;
    await reorderLinkifiers(tx, orderedIds);
    await notifyLinkifiers(tx, outbox, user.realm_id);
  });
}

async function notifyLinkifiers(tx: Db, outbox: Outbox, realmId: number): Promise<void> {
  const realmLinkifiers = linkifierDicts(await linkifiersOfRealm(tx, realmId));
  outbox.sendToRealm({ type: "realm_linkifiers", realm_linkifiers: realmLinkifiers }, realmId);
  outbox.invalidate({ cache: "linkifiers", realmId: realmId });
}
