import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openStore, type Db, type Store } from "../../src/db/index.js";

let store: Store;
let dir: string;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-group-commit-"));
  store = await openStore(`sqlite:${path.join(dir, "db.sqlite3")}`);
  await store.write((tx) => sql`CREATE TABLE note (id INTEGER PRIMARY KEY, body TEXT NOT NULL UNIQUE)`.execute(tx));
});

afterEach(async () => {
  await store.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const insert = (tx: Db, body: string) => sql`INSERT INTO note (body) VALUES (${body})`.execute(tx);
const bodies = async () => (await sql<{ body: string }>`SELECT body FROM note ORDER BY id`.execute(store.db)).rows.map((r) => r.body);

describe("SQLite group commit", () => {
  it("lets writes that arrive together share one commit, each seeing the ones before it", async () => {
    const inTransaction: number[] = [];
    const committed: number[] = [];
    const count = async (db: Db) => (await sql<{ n: number }>`SELECT count(*) AS n FROM note`.execute(db)).rows[0]!.n;
    await Promise.all(
      ["a", "b", "c"].map((body) =>
        store.write(async (tx) => {
          await insert(tx, body);
          inTransaction.push(await count(tx));
          committed.push(await count(store.db));
        }),
      ),
    );
    expect(inTransaction).toEqual([1, 2, 3]);
    // Nothing was committed while the three ran: they shared one transaction.
    expect(committed).toEqual([0, 0, 0]);
    expect(await bodies()).toEqual(["a", "b", "c"]);
  });

  it("resolves a write only once its commit is visible to readers", async () => {
    const visibleAtResolve = await Promise.all(
      ["x", "y"].map((body) => store.write((tx) => insert(tx, body)).then(() => bodies())),
    );
    expect(visibleAtResolve).toEqual([["x", "y"], ["x", "y"]]);
  });

  it("rolls back only the write that failed, and keeps the writes around it", async () => {
    const results = await Promise.allSettled([
      store.write((tx) => insert(tx, "kept-1")),
      store.write(async (tx) => {
        await insert(tx, "lost");
        await insert(tx, "kept-1"); // violates UNIQUE: the whole write must vanish, "lost" included
      }),
      store.write((tx) => insert(tx, "kept-2")),
    ]);
    expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
    expect(await bodies()).toEqual(["kept-1", "kept-2"]);
  });

  it("gives readers the last commit while a write transaction is open", async () => {
    await store.write((tx) => insert(tx, "before"));
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const write = store.write(async (tx) => {
      await insert(tx, "during");
      await held;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await bodies()).toEqual(["before"]);
    release();
    await write;
    expect(await bodies()).toEqual(["before", "during"]);
  });

  it("rejects writes once the store is closed, and keeps running", async () => {
    await store.close();
    await expect(store.write((tx) => insert(tx, "late"))).rejects.toThrow();
    store = await openStore(`sqlite:${path.join(dir, "db.sqlite3")}`);
    expect(await bodies()).toEqual([]);
  });

  it("refuses writes through the read handle", async () => {
    await expect(insert(store.db, "nope")).rejects.toThrow(/readonly/);
  });
});
