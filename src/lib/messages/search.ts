import { sql, type RawBuilder, type SqlBool } from "kysely";
import type { Db } from "../../db/index.js";
import { porterStem } from "../../algorithms/porter-stemmer.js";

/**
 * The `search` operator on either backend (Zulip's tsearch semantics): every word of the operand,
 * stemmed, must occur in the message's topic or rendered text (db/migrations/007), and each
 * "quoted phrase" must also occur verbatim, case-insensitively, in its content or topic.
 */
export interface MessageSearch {
  operand: string;
  /** The operand's words, as the full-text index splits text. */
  words: string[];
  /** The quoted phrases, without their quotes. */
  phrases: string[];
}

/** Runs of letters and digits: the words of SQLite's unicode61 tokenizer. */
const WORD = /[\p{L}\p{N}\p{Co}]+/gu;

/** Splits a search operand into words and quoted phrases. */
export function parseSearch(operand: string): MessageSearch {
  const phrases = [...operand.matchAll(/"([^"]+)"/g)].map((m) => m[1] ?? "");
  return { operand, words: operand.match(WORD) ?? [], phrases };
}

/** The SQL condition on `message m` for a search; a search without words matches nothing, as in Zulip. */
export async function searchCondition(db: Db, dialect: "sqlite" | "postgres", search: MessageSearch): Promise<RawBuilder<SqlBool>> {
  if (search.words.length === 0) return sql<SqlBool>`1 = 0`;
  const like = sql.raw(dialect === "postgres" ? "ILIKE" : "LIKE");
  const phrases = search.phrases.map((phrase) => {
    const pattern = `%${phrase.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return sql<SqlBool>`(m.content ${like} ${pattern} ESCAPE '\\' OR m.topic ${like} ${pattern} ESCAPE '\\')`;
  });
  return sql<SqlBool>`(${sql.join([await indexedCondition(db, dialect, search), ...phrases], sql` AND `)})`;
}

/**
 * The words through the index. Neither planner weighs a text match well against walking the
 * newest messages, so we count the hits first (up to one message in 50) and pick the plan: few
 * hits are listed once and looked up; more are checked per message, newest first, which finds a
 * page of 50 after some 2,500 messages. Both forms select the same rows.
 */
async function indexedCondition(db: Db, dialect: "sqlite" | "postgres", search: MessageSearch): Promise<RawBuilder<SqlBool>> {
  const matches =
    dialect === "sqlite"
      ? sql<SqlBool>`message_search MATCH ${search.words.map((w) => `"${w}"`).join(" ")}`
      : sql<SqlBool>`search_tsvector @@ plainto_tsquery('english', ${search.operand})`;
  const newest = await db.selectFrom("message").select((eb) => eb.fn.max("id").as("id")).executeTakeFirst();
  const cap = Math.ceil((newest?.id ?? 0) / 50) + 1;
  const counted = await sql<{ hits: number }>`SELECT count(*) AS hits FROM (SELECT 1 FROM message_search WHERE ${matches} LIMIT ${cap}) s`.execute(db);
  const few = Number(counted.rows[0]?.hits ?? 0) < cap;
  if (dialect === "sqlite") {
    return few
      ? sql<SqlBool>`m.id IN (SELECT rowid FROM message_search WHERE ${matches})`
      : sql<SqlBool>`EXISTS (SELECT 1 FROM message_search WHERE ${matches} AND rowid = m.id)`;
  }
  return few
    ? sql<SqlBool>`m.id = ANY(ARRAY(SELECT message_id FROM message_search WHERE ${matches}))`
    : sql<SqlBool>`m.id IN (SELECT message_id FROM message_search WHERE ${matches})`;
}

/** A word's search key: lower-cased, accents removed, stemmed, so "Walked" and "walking" share one. */
export function searchKey(word: string): string {
  return porterStem(word.toLowerCase().normalize("NFD").replace(/\p{M}/gu, ""));
}

/** The words of a text with their offsets, for highlighting. */
export function wordsOf(text: string): { word: string; index: number }[] {
  return [...text.matchAll(WORD)].map((m) => ({ word: m[0], index: m.index }));
}
