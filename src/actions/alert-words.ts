import { write, type AppContext } from "../context.js";
import type { Db } from "../db/index.js";
import { alertWordsOf, deleteAlertWords, insertAlertWords } from "../db/queries/alert-words.js";
import type { UserRow } from "../db/queries/users.js";
import type { Outbox } from "../events/outbox.js";

/**
 * Adds alert words (trimmed, blanks dropped; a word already present in any case is skipped) and
 * returns the full list; alert_words with that list goes to the user's clients.
 */
export async function checkAddAlertWords(ctx: AppContext, user: UserRow, words: readonly string[]): Promise<string[]> {
  const cleaned = words.map((w) => w.trim()).filter((w) => w !== "");
  return write(ctx, async (tx, outbox) => {
    const existing = new Set((await alertWordsOf(tx, user.id)).map((w) => w.toLowerCase()));
    const fresh = new Map<string, string>();
    for (const w of cleaned) if (!existing.has(w.toLowerCase())) fresh.set(w.toLowerCase(), w);
    await insertAlertWords(tx, user.id, user.realm_id, [...fresh.values()]);
    return announce(tx, outbox, user);
  });
}

/** Removes alert words, matching case-insensitively, and returns what is left (event as for adding). */
export async function checkRemoveAlertWords(ctx: AppContext, user: UserRow, words: readonly string[]): Promise<string[]> {
  return write(ctx, async (tx, outbox) => {
    const targets = new Set(words.map((w) => w.toLowerCase()));
    const existing = await alertWordsOf(tx, user.id);
    await deleteAlertWords(tx, user.id, existing.filter((w) => targets.has(w.toLowerCase())));
    return announce(tx, outbox, user);
  });
}

async function announce(tx: Db, outbox: Outbox, user: UserRow): Promise<string[]> {
  const list = await alertWordsOf(tx, user.id);
  outbox.send({ type: "alert_words", alert_words: list }, [user.id]);
  outbox.invalidate({ cache: "alert_words", realmId: user.realm_id });
  return list;
}
