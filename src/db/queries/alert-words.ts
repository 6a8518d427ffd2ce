import type { Db } from "../index.js";
import { insertInChunks, runInChunks } from "../chunks.js";

/** A user's alert words, in the order they were added. */
export async function alertWordsOf(db: Db, userId: number): Promise<string[]> {
  const rows = await db.selectFrom("alert_word").select("word").where("user_id", "=", userId).orderBy("id").execute();
  return rows.map((r) => r.word);
}

/** Every alert word of a realm, with its owner. */
export function alertWordsOfRealm(db: Db, realmId: number): Promise<{ user_id: number; word: string }[]> {
  return db.selectFrom("alert_word").select(["user_id", "word"]).where("realm_id", "=", realmId).orderBy("id").execute();
}

/** Adds words for a user. */
export async function insertAlertWords(db: Db, userId: number, realmId: number, words: readonly string[]): Promise<void> {
  const rows = words.map((word) => ({ user_id: userId, realm_id: realmId, word }));
  await insertInChunks(rows, (slice) => db.insertInto("alert_word").values(slice).execute());
}

/** Removes words of a user (exact stored spelling). */
export async function deleteAlertWords(db: Db, userId: number, words: readonly string[]): Promise<void> {
  await runInChunks(words, (slice) => db.deleteFrom("alert_word").where("user_id", "=", userId).where("word", "in", slice).execute());
}
