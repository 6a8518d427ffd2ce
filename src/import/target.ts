import path from "node:path";
import type { Db } from "../db/index.js";
import { ImportError } from "./slack-zip.js";

/** Refuses a database that already holds an organisation: imports load into an empty Rookery only. */
export async function requireEmptyTarget(db: Db, dataDir: string, command: string): Promise<void> {
  const realm = await db.selectFrom("realm").select(["id", "name"]).orderBy("id").limit(1).executeTakeFirst();
  if (realm) throw new ImportError(`the target is not empty: it holds the organisation "${realm.name}" (id ${realm.id}) in ${path.resolve(dataDir)}; ${command} loads into an empty Rookery only (nothing was changed)`);
}
