import { sql, type Kysely, type Migration } from "kysely";
import { dialectOf } from "./helpers.js";

/**
 * Full-text search over each message's topic and rendered text (Zulip's search_tsvector), kept in
 * step by triggers on message, so every insert, edit, move and delete updates it whoever writes.
 * SQLite: a contentless FTS5 table with the porter stemmer, fed by message_search_text (registered
 * on the connection, see db/search-text.ts). PostgreSQL: a tsvector per message with English
 * stemming and a GIN index; the topic is HTML-escaped so the parser reads it as text, not tags.
 */
export const m007MessageSearch: Migration = {
  async up(db: Kysely<unknown>) {
    const statements = (await dialectOf(db)) === "sqlite" ? SQLITE : POSTGRES;
    for (const statement of statements) await sql.raw(statement).execute(db);
  },
};

const SQLITE = [
  `CREATE VIRTUAL TABLE message_search USING fts5(text, content='', contentless_delete=1, tokenize='porter unicode61 remove_diacritics 2')`,
  `INSERT INTO message_search (rowid, text) SELECT id, message_search_text(topic, rendered_content) FROM message`,
  `CREATE TRIGGER message_search_insert AFTER INSERT ON message BEGIN
     INSERT INTO message_search (rowid, text) VALUES (new.id, message_search_text(new.topic, new.rendered_content));
   END`,
  `CREATE TRIGGER message_search_update AFTER UPDATE OF topic, rendered_content ON message
     WHEN old.topic IS NOT new.topic OR old.rendered_content IS NOT new.rendered_content BEGIN
     DELETE FROM message_search WHERE rowid = old.id;
     INSERT INTO message_search (rowid, text) VALUES (new.id, message_search_text(new.topic, new.rendered_content));
   END`,
  `CREATE TRIGGER message_search_delete AFTER DELETE ON message BEGIN
     DELETE FROM message_search WHERE rowid = old.id;
   END`,
];

const POSTGRES = [
  `CREATE FUNCTION message_search_document(topic text, rendered_content text) RETURNS tsvector LANGUAGE sql IMMUTABLE AS $$
     SELECT to_tsvector('english', replace(replace(replace(topic, '&', '&amp;'), '<', '&lt;'), '>', '&gt;') || ' ' || rendered_content)
   $$`,
  `CREATE TABLE message_search (
     message_id integer PRIMARY KEY REFERENCES message (id) ON DELETE CASCADE,
     search_tsvector tsvector NOT NULL
   )`,
  `INSERT INTO message_search (message_id, search_tsvector) SELECT id, message_search_document(topic, rendered_content) FROM message`,
  `CREATE INDEX message_search_tsvector ON message_search USING gin (search_tsvector)`,
  `CREATE FUNCTION message_search_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     INSERT INTO message_search (message_id, search_tsvector) VALUES (NEW.id, message_search_document(NEW.topic, NEW.rendered_content))
       ON CONFLICT (message_id) DO UPDATE SET search_tsvector = EXCLUDED.search_tsvector;
     RETURN NULL;
   END
   $$`,
  `CREATE TRIGGER message_search_insert AFTER INSERT ON message FOR EACH ROW EXECUTE FUNCTION message_search_refresh()`,
  `CREATE TRIGGER message_search_update AFTER UPDATE OF topic, rendered_content ON message FOR EACH ROW
     WHEN (OLD.topic IS DISTINCT FROM NEW.topic OR OLD.rendered_content IS DISTINCT FROM NEW.rendered_content)
     EXECUTE FUNCTION message_search_refresh()`,
];
