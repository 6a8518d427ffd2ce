import type { Insertable, Selectable } from "kysely";
import type { Db } from "../index.js";
import type { DraftTable } from "../schema.js";

/** A draft row as stored. */
export type DraftRow = Selectable<DraftTable>;

/** A user's drafts, oldest edit first (at most `limit`). */
export function draftsOf(db: Db, userId: number, limit?: number): Promise<DraftRow[]> {
  let query = db.selectFrom("draft").selectAll().where("user_id", "=", userId).orderBy("last_edit_time").orderBy("id");
  if (limit !== undefined) query = query.limit(limit);
  return query.execute();
}

/** One draft of a user. */
export function draftOf(db: Db, userId: number, id: number): Promise<DraftRow | undefined> {
  return db.selectFrom("draft").selectAll().where("user_id", "=", userId).where("id", "=", id).executeTakeFirst();
}

/** Inserts a draft and returns its id. */
export async function insertDraft(db: Db, row: Insertable<DraftTable>): Promise<number> {
  const { id } = await db.insertInto("draft").values(row).returning("id").executeTakeFirstOrThrow();
  return id;
}

/** Replaces a draft's addressing, content and edit time. */
export async function updateDraft(db: Db, id: number, row: Omit<Insertable<DraftTable>, "user_id" | "id">): Promise<void> {
  await db.updateTable("draft").set(row).where("id", "=", id).execute();
}

/** Deletes one draft. */
export async function deleteDraft(db: Db, id: number): Promise<void> {
  await db.deleteFrom("draft").where("id", "=", id).execute();
}

/** Deletes every draft of a user. */
export async function deleteDraftsOf(db: Db, userId: number): Promise<void> {
  await db.deleteFrom("draft").where("user_id", "=", userId).execute();
}
