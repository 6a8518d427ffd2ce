import type { Selectable } from "kysely";
import type { Db } from "../index.js";
import type { PushDeviceTokenTable } from "../schema.js";

/** A push device token row. */
export type PushTokenRow = Selectable<PushDeviceTokenTable>;

/** Zulip's token kinds. */
export const PushKind = { APNS: 1, FCM: 2 } as const;

/** A user's token of a kind, if registered. */
export function pushTokenOf(db: Db, userId: number, kind: number, token: string): Promise<PushTokenRow | undefined> {
  return db
    .selectFrom("push_device_token")
    .selectAll()
    .where("user_id", "=", userId)
    .where("kind", "=", kind)
    .where("token", "=", token)
    .executeTakeFirst();
}

/** Registers a token (the caller checked it is not registered yet). */
export async function insertPushToken(db: Db, row: Omit<PushTokenRow, "id">): Promise<void> {
  await db.insertInto("push_device_token").values(row).execute();
}

/** Refreshes a registered token's app id and time. */
export async function touchPushToken(db: Db, id: number, appId: string | null, now: number): Promise<void> {
  await db.updateTable("push_device_token").set({ ios_app_id: appId, last_updated: now }).where("id", "=", id).execute();
}

/** Removes one token. */
export async function deletePushToken(db: Db, id: number): Promise<void> {
  await db.deleteFrom("push_device_token").where("id", "=", id).execute();
}
