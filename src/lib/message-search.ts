import { sql, type RawBuilder, type SqlBool } from "kysely";
import type { Db } from "../db/index.js";
import { porterStem } from "./porter-stemmer.js";

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
  const indexed =
    dialect === "sqlite"
      ? await ftsCondition(db, search.words.map((w) => `"${w}"`).join(" "))
      : sql<SqlBool>`m.id IN (SELECT message_id FROM message_search WHERE search_tsvector @@ plainto_tsquery('english', ${search.operand}))`;
  const like = sql.raw(dialect === "postgres" ? "ILIKE" : "LIKE");
  const phrases = search.phrases.map((phrase) => {
    const pattern = `%${phrase.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return sql<SqlBool>`(m.content ${like} ${pattern} ESCAPE '\\' OR m.topic ${like} ${pattern} ESCAPE '\\')`;
  });
  return sql<SqlBool>`(${sql.join([indexed, ...phrases], sql` AND `)})`;
}

/**
 * SQLite's planner cannot weigh an FTS5 match, so we pick the plan: the matching ids listed once
 * (cheap while they are few), or, for a query matching more than one message in 50, a probe of the
 * index per candidate message, newest first, which finds a page of matches after ~50 × 50 probes.
 */
async function ftsCondition(db: Db, match: string): Promise<RawBuilder<SqlBool>> {
  const newest = await db.selectFrom("message").select((eb) => eb.fn.max("id").as("id")).executeTakeFirst();
  const cap = Math.ceil((newest?.id ?? 0) / 50) + 1;
  const { hits } = await sql<{ hits: number }>`SELECT count(*) AS hits FROM (SELECT 1 FROM message_search WHERE message_search MATCH ${match} LIMIT ${cap})`
    .execute(db)
    .then((r) => r.rows[0] ?? { hits: 0 });
  if (hits < cap) return sql<SqlBool>`m.id IN (SELECT rowid FROM message_search WHERE message_search MATCH ${match})`;
  return sql<SqlBool>`EXISTS (SELECT 1 FROM message_search WHERE message_search MATCH ${match} AND rowid = m.id)`;
}

/** A word's search key: lower-cased, accents removed, stemmed, so "Walked" and "walking" share one. */
export function searchKey(word: string): string {
  return porterStem(word.toLowerCase().normalize("NFD").replace(/\p{M}/gu, ""));
}

/** The words of a text with their offsets, for highlighting. */
export function wordsOf(text: string): { word: string; index: number }[] {
  return [...text.matchAll(WORD)].map((m) => ({ word: m[0], index: m.index }));
}
