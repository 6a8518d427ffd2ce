import type { Insertable, Selectable, Updateable } from "kysely";
import type { Db } from "../index.js";
import type { StreamTable } from "../schema.js";
import { selectInChunks } from "../chunks.js";

/** A channel row as stored. */
export type StreamRow = Selectable<StreamTable>;

/** A channel by id (archived ones included). */
export function streamById(db: Db, id: number): Promise<StreamRow | undefined> {
  return db.selectFrom("stream").selectAll().where("id", "=", id).executeTakeFirst();
}

/** An active channel of a realm by name, case-insensitively. */
export function activeStreamByName(db: Db, realmId: number, name: string): Promise<StreamRow | undefined> {
  return db
    .selectFrom("stream")
    .selectAll()
    .where("realm_id", "=", realmId)
    .where("deactivated", "=", 0)
    .where((eb) => eb(eb.fn("lower", ["name"]), "=", name.toLowerCase()))
    .executeTakeFirst();
}

/** Any channel of a realm (archived included) by name, case-insensitively: names stay unique. */
export function anyStreamByName(db: Db, realmId: number, name: string): Promise<StreamRow | undefined> {
  return db
    .selectFrom("stream")
    .selectAll()
    .where("realm_id", "=", realmId)
    .where((eb) => eb(eb.fn("lower", ["name"]), "=", name.toLowerCase()))
    .executeTakeFirst();
}

/** Every active channel of a realm, by id. */
export function activeStreamsOfRealm(db: Db, realmId: number): Promise<StreamRow[]> {
  return db.selectFrom("stream").selectAll().where("realm_id", "=", realmId).where("deactivated", "=", 0).orderBy("id").execute();
}

/** Active channels with these ids. */
export async function activeStreamsByIds(db: Db, ids: readonly number[]): Promise<StreamRow[]> {
  const rows = await selectInChunks(ids, (slice) => db.selectFrom("stream").selectAll().where("id", "in", slice).where("deactivated", "=", 0).execute());
  return rows.sort((a, b) => a.id - b.id);
}

/** Inserts a channel and returns its id. */
export async function insertStream(db: Db, row: Insertable<StreamTable>): Promise<number> {
  const { id } = await db.insertInto("stream").values(row).returning("id").executeTakeFirstOrThrow();
  return id;
}

/** Updates columns of one channel. */
export async function updateStream(db: Db, id: number, changes: Updateable<StreamTable>): Promise<void> {
  await db.updateTable("stream").set(changes).where("id", "=", id).execute();
}

/** Ids of a realm's default channels. */
export async function defaultStreamIds(db: Db, realmId: number): Promise<number[]> {
  const rows = await db.selectFrom("default_stream").select("stream_id").where("realm_id", "=", realmId).orderBy("stream_id").execute();
  return rows.map((r) => r.stream_id);
}

/** Makes a channel a default channel; already being one is fine. */
export async function addDefaultStream(db: Db, realmId: number, streamId: number): Promise<void> {
  await db.insertInto("default_stream").values({ realm_id: realmId, stream_id: streamId }).onConflict((oc) => oc.doNothing()).execute();
}

/** Removes a channel from the default channels. */
export async function removeDefaultStream(db: Db, realmId: number, streamId: number): Promise<void> {
  await db.deleteFrom("default_stream").where("realm_id", "=", realmId).where("stream_id", "=", streamId).execute();
}

/** One topic of a channel: its newest message id and that message's spelling of the name. */
export interface TopicRow {
  name: string;
  max_id: number;
}

/**
 * Topics of a channel, newest first. With `forUserId`, only topics of messages that user has a
 * row for (private channels with protected history).
 */
export async function topicsOfStream(db: Db, streamId: number, forUserId?: number): Promise<TopicRow[]> {
  let inner = db
    .selectFrom("message")
    .select((eb) => [eb.fn.max("message.id").as("max_id")])
    .where("message.stream_id", "=", streamId)
    .groupBy((eb) => eb.fn("lower", ["message.topic"]));
  if (forUserId !== undefined) {
    inner = inner.innerJoin("user_message", "user_message.message_id", "message.id").where("user_message.user_id", "=", forUserId);
  }
  const rows = await db
    .selectFrom(inner.as("t"))
    .innerJoin("message as m", "m.id", "t.max_id")
    .select(["m.topic as name", "m.id as max_id"])
    .orderBy("m.id", "desc")
    .execute();
  return rows.map((r) => ({ name: r.name, max_id: Number(r.max_id) }));
}

/** The id of the realm's role:administrators system group, or 0 while the realm has none. */
export async function administratorsGroupId(db: Db, realmId: number): Promise<number> {
  const row = await db
    .selectFrom("user_group")
    .select("id")
    .where("realm_id", "=", realmId)
    .where("name", "=", "role:administrators")
    .where("is_system_group", "=", 1)
    .executeTakeFirst();
  return row?.id ?? 0;
}
