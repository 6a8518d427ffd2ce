import { SqliteAdapter, type CreateTableBuilder, type Kysely } from "kysely";

/** The backend a migration runs on. */
export type DialectName = "sqlite" | "postgres";

/** Reads the dialect from the connection's adapter, so migrations stay plain Migration objects. */
export async function dialectOf(db: Kysely<unknown>): Promise<DialectName> {
  return db.getExecutor().adapter instanceof SqliteAdapter ? "sqlite" : "postgres";
}

/** An auto-incrementing integer primary key on either backend. */
export function withId<T extends string>(table: CreateTableBuilder<T, never>, dialect: DialectName): CreateTableBuilder<T, "id"> {
  return dialect === "sqlite"
    ? table.addColumn("id", "integer", (c) => c.primaryKey().autoIncrement())
    : table.addColumn("id", "serial", (c) => c.primaryKey());
}
