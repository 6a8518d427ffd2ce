import { write, type AppContext } from "../context.js";
import { deletePushToken, insertPushToken, PushKind, pushTokenOf, touchPushToken } from "../db/queries/push-tokens.js";
import type { UserRow } from "../db/queries/users.js";
import { badRequest } from "../base/errors.js";

const MAX_TOKEN_LENGTH = 4096;

/**
 * Zulip's validate_token: non-empty, at most 4096 characters, and an APNs token must decode.
 * 9.x decodes base64, newer servers hex; either is accepted here (hex is what clients send now).
 */
export function checkPushToken(token: string, kind: number): void {
  if (token === "" || token.length > MAX_TOKEN_LENGTH) throw badRequest("Empty or invalid length token");
  if (kind === PushKind.APNS && !isHex(token) && !isBase64(token)) throw badRequest("Invalid APNS token");
}

function isHex(token: string): boolean {
  return token.length % 2 === 0 && /^[0-9a-fA-F]+$/.test(token);
}

function isBase64(token: string): boolean {
  return token.length % 4 === 0 && /^[A-Za-z0-9+/]+={0,2}$/.test(token);
}

/** Registers a device token for the user (registering it again only refreshes it). No event. */
export async function checkAddPushToken(ctx: AppContext, user: UserRow, kind: number, token: string, appId: string | null): Promise<void> {
  checkPushToken(token, kind);
  if (appId !== null && !/^[.a-zA-Z0-9-]+$/.test(appId)) throw badRequest("Invalid app ID");
  await write(ctx, async (tx) => {
    const existing = await pushTokenOf(tx, user.id, kind, token);
    if (existing) await touchPushToken(tx, existing.id, appId ?? existing.ios_app_id, ctx.clock.now());
    else await insertPushToken(tx, { user_id: user.id, kind, token, ios_app_id: appId, last_updated: ctx.clock.now() });
  });
}

/** Removes one of the user's device tokens: `Token does not exist` if it is not theirs. No event. */
export async function checkRemovePushToken(ctx: AppContext, user: UserRow, kind: number, token: string): Promise<void> {
  checkPushToken(token, kind);
  await write(ctx, async (tx) => {
    const existing = await pushTokenOf(tx, user.id, kind, token);
    if (!existing) throw badRequest("Token does not exist");
    await deletePushToken(tx, existing.id);
  });
}
