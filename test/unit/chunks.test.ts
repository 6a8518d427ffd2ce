import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { insertInChunks, runInChunks, selectInChunks } from "../../src/db/chunks.js";
import { openStore, type Store } from "../../src/db/index.js";

// 70,000 values: more than one SQLite statement may bind (32,766) and than PostgreSQL's 65,535.
const COUNT = 70_000;
const ids = Array.from({ length: COUNT }, (_, i) => i + 1);

let store: Store;
let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-chunks-"));
  store = await openStore(`sqlite:${path.join(dir, "db.sqlite3")}`);
  await store.write((tx) => sql`CREATE TABLE item (id INTEGER PRIMARY KEY, tag TEXT NOT NULL)`.execute(tx));
});
afterAll(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const count = async () => (await sql<{ n: number }>`SELECT count(*) AS n FROM item`.execute(store.db)).rows[0]?.n;
const selectIds = (slice: number[]) => sql<{ id: number }>`SELECT id FROM item WHERE id IN (${sql.join(slice)})`.execute(store.db).then((r) => r.rows);

describe("statements over long lists", () => {
  it("one statement cannot bind them all", async () => {
    await expect(selectIds(ids)).rejects.toThrow(/too many SQL variables/);
  });

  it("inserts, selects and deletes them in slices", async () => {
    const rows = ids.map((id) => ({ id, tag: `t${id}` }));
    await store.write((tx) => insertInChunks(rows, (slice) => sql`INSERT INTO item (id, tag) VALUES ${sql.join(slice.map((r) => sql`(${r.id}, ${r.tag})`))}`.execute(tx)));
    expect(await count()).toBe(COUNT);
    const found = await selectInChunks([...ids, ...ids, COUNT + 5], selectIds);
    expect(found.map((r) => r.id).sort((a, b) => a - b)).toEqual(ids);
    await store.write((tx) => runInChunks(ids.slice(0, COUNT - 3), (slice) => sql`DELETE FROM item WHERE id IN (${sql.join(slice)})`.execute(tx)));
    expect((await selectInChunks(ids, selectIds)).map((r) => r.id).sort((a, b) => a - b)).toEqual([COUNT - 2, COUNT - 1, COUNT]);
  });

  it("leaves out numbers no 32-bit id can equal, and runs nothing for an empty list", async () => {
    const seen: number[][] = [];
    await runInChunks([3_000_000_000, -3_000_000_000, 7], async (slice) => seen.push(slice));
    await runInChunks([], async (slice) => seen.push(slice));
    expect(seen).toEqual([[7]]);
  });
});
