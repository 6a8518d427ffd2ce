import { execFile, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import SQLite from "../../src/db/sqlite-binding.js";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, spawnServer } from "../harness/process.js";
import { freshDatabase, testBackend } from "../harness/server.js";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../..");
const BUILD_DIR = path.join(ROOT, "dist", `durability-${process.pid}`);
const MAIN = path.join(BUILD_DIR, "rookery.js");
const SENDERS = 20;
const ANSWERED_BEFORE_KILL = 400;

let dataDir: string;
let databaseUrl: string;
let drop: () => Promise<void>;

beforeAll(async () => {
  // A build of its own: the CLI tests build dist/rookery.js at the same time.
  const scripts = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: { build: string } }).scripts;
  const command = scripts.build.replace("--outfile=dist/rookery.js", `--outfile=${MAIN}`);
  await run("sh", ["-c", `npx ${command}`], { cwd: ROOT });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-durability-"));
  ({ url: databaseUrl, drop } = await freshDatabase(dataDir));
}, 120_000);

afterAll(async () => {
  await drop();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(BUILD_DIR, { recursive: true, force: true });
});


function startServer(port: number): Promise<{ child: ChildProcess; out: () => string }> {
  return spawnServer(MAIN, { ...process.env, ROOKERY_DATA_DIR: dataDir, ROOKERY_DATABASE_URL: databaseUrl, ROOKERY_PORT: String(port), ROOKERY_LOG_LEVEL: "warn", ROOKERY_RATE_LIMIT_PER_MINUTE: "0" });
}

describe(`a server killed with SIGKILL during a burst of sends (${testBackend()})`, () => {
  it("keeps every message whose POST /messages was answered with an id, and a sound database", async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/api/v1`;
    const first = await startServer(port);
    const key = /key=([A-Za-z0-9]{32})/.exec(first.out())?.[1];
    const auth = { authorization: "Basic " + Buffer.from(`owner@rookery.local:${key}`).toString("base64") };
    const form = (fields: Record<string, string>) => ({ method: "POST", headers: { ...auth, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });
    expect((await fetch(`${base}/users/me/subscriptions`, form({ subscriptions: JSON.stringify([{ name: "burst" }]) }))).status).toBe(200);

    const answered = new Map<number, string>();
    let killed = false;
    const sender = async (n: number) => {
      for (let i = 0; !killed; i++) {
        const content = `sender ${n} message ${i}`;
        try {
          const res = await fetch(`${base}/messages`, form({ type: "stream", to: "burst", topic: `t${n}`, content }));
          const body = (await res.json()) as { id?: number };
          if (res.status === 200 && typeof body.id === "number") answered.set(body.id, content);
        } catch {
          return; // the server is gone
        }
        if (answered.size >= ANSWERED_BEFORE_KILL && !killed) {
          killed = true;
          first.child.kill("SIGKILL");
        }
      }
    };
    const exited = new Promise((resolve) => first.child.on("exit", resolve));
    await Promise.all(Array.from({ length: SENDERS }, (_, n) => sender(n)));
    await exited;
    expect(answered.size).toBeGreaterThanOrEqual(ANSWERED_BEFORE_KILL);

    if (testBackend() === "sqlite") {
      const db = new SQLite(databaseUrl.replace(/^sqlite:/, ""));
      expect(db.pragma("integrity_check", { simple: true })).toBe("ok");
      db.close();
    }

    const second = await startServer(port);
    const ids = [...answered.keys()].sort((a, b) => a - b);
    const fetched = await fetch(`${base}/messages?${new URLSearchParams({ anchor: String(ids[0]), num_before: "0", num_after: String(ids.length + 2 * SENDERS), apply_markdown: "false", narrow: JSON.stringify([{ operator: "channel", operand: "burst" }]) })}`, { headers: auth });
    const messages = ((await fetched.json()) as { messages: { id: number; content: string }[] }).messages;
    const stored = new Map(messages.map((m) => [m.id, m.content]));
    const lost = ids.filter((id) => stored.get(id) !== answered.get(id));
    expect(lost).toEqual([]);

    // No per-user row without its message, and no message without its sender's row.
    const orphans = await countOrphans();
    expect(orphans).toEqual({ rowsWithoutMessage: 0, messagesWithoutRows: 0 });
    second.child.kill("SIGTERM");
    await new Promise((resolve) => second.child.on("exit", resolve));
  }, 120_000);
});

async function countOrphans(): Promise<{ rowsWithoutMessage: number; messagesWithoutRows: number }> {
  const rowsWithoutMessage = "SELECT count(*) AS n FROM user_message um WHERE NOT EXISTS (SELECT 1 FROM message m WHERE m.id = um.message_id)";
  const messagesWithoutRows = "SELECT count(*) AS n FROM message m WHERE NOT EXISTS (SELECT 1 FROM user_message um WHERE um.message_id = m.id)";
  if (testBackend() === "sqlite") {
    const db = new SQLite(databaseUrl.replace(/^sqlite:/, ""), { readonly: true });
    const count = (q: string) => Number((db.prepare(q).get() as { n: number }).n);
    const result = { rowsWithoutMessage: count(rowsWithoutMessage), messagesWithoutRows: count(messagesWithoutRows) };
    db.close();
    return result;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const count = async (q: string) => Number((await client.query<{ n: string }>(q)).rows[0]!.n);
  const result = { rowsWithoutMessage: await count(rowsWithoutMessage), messagesWithoutRows: await count(messagesWithoutRows) };
  await client.end();
  return result;
}
