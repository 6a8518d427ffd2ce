import fs from "node:fs";
import SQLite from "../src/db/sqlite-binding.js";
import { registerSearchText } from "../src/db/search-text.js";

/**
 * The import benches' baseline (a helper, not a bench): the same rows inserted directly into an emptied copy of the database, as
 * bench/messages-generate.ts builds its database: prepared statements, row by row, read from the
 * imported database in id order, in one transaction, with the import's page cache (64 MiB).
 */
export function bulkInsertBaseline(imported: string, copy: string): number {
  fs.copyFileSync(imported, copy);
  const db = new SQLite(copy);
  registerSearchText(db);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("foreign_keys = ON");
  db.pragma("cache_size = -65536");
  db.exec("DELETE FROM reaction; DELETE FROM attachment_message; DELETE FROM user_message; UPDATE stream SET first_message_id = NULL; DELETE FROM message;");
  const source = new SQLite(imported, { readonly: true });
  const started = performance.now();
  const columns = (table: string) => (db.prepare(`SELECT name FROM pragma_table_info('${table}')`).all() as { name: string }[]).map((c) => c.name);
  db.transaction(() => {
    for (const [table, order] of [["message", "id"], ["user_message", "message_id, user_id"], ["reaction", "message_id"]] as const) {
      const names = columns(table);
      const insert = db.prepare(`INSERT INTO ${table} (${names.map((n) => `"${n}"`).join(", ")}) VALUES (${names.map(() => "?").join(", ")})`);
      for (const row of source.prepare(`SELECT ${names.map((n) => `"${n}"`).join(", ")} FROM ${table} ORDER BY ${order}`).raw().iterate()) insert.run(...(row as unknown[]));
    }
  })();
  const seconds = (performance.now() - started) / 1000;
  source.close();
  db.close();
  return seconds;
}
