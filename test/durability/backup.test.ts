import { execFile, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCommand } from "../harness/build.js";
import { freePort, spawnServer } from "../harness/process.js";
import { freshDatabase, testBackend } from "../harness/server.js";

const run = promisify(execFile);
const SENDERS = 20;
const ANSWERED_BEFORE_BACKUP = 300;

let main: string;
let remove: () => void;
let root: string;
const drops: (() => Promise<void>)[] = [];

beforeAll(async () => {
  ({ main, remove } = await buildCommand("backup"));
  root = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-backup-"));
}, 120_000);
afterAll(async () => {
  for (const drop of drops) await drop();
  remove();
  fs.rmSync(root, { recursive: true, force: true });
});

/** A data folder (empty) and a database (empty) of its own. */
async function place(name: string): Promise<{ dataDir: string; databaseUrl: string }> {
  const dataDir = path.join(root, name);
  fs.mkdirSync(dataDir);
  const { url, drop } = await freshDatabase(dataDir);
  drops.push(drop);
  return { dataDir, databaseUrl: url };
}

function env(where: { dataDir: string; databaseUrl: string }, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, ROOKERY_DATA_DIR: where.dataDir, ROOKERY_DATABASE_URL: where.databaseUrl, ROOKERY_LOG_LEVEL: "warn", ROOKERY_RATE_LIMIT_PER_MINUTE: "0", ROOKERY_ANON_RATE_LIMIT_PER_MINUTE: "0", ...extra };
}

async function rookery(args: string[], environment: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run("node", [main, ...args], { env: environment });
    return { code: 0, stdout, stderr };
  } catch (failure) {
    const f = failure as { code: number; stdout: string; stderr: string };
    return { code: f.code, stdout: f.stdout, stderr: f.stderr };
  }
}

function stop(child: ChildProcess): Promise<unknown> {
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  return exited;
}

/** Every file under `dir` (relative path → SHA-256 of its content). */
function fileHashes(dir: string): Map<string, string> {
  const hashes = new Map<string, string>();
  if (!fs.existsSync(dir)) return hashes;
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    hashes.set(path.relative(dir, file), createHash("sha256").update(fs.readFileSync(file)).digest("hex"));
  }
  return hashes;
}

describe(`rookery backup and restore (${testBackend()})`, () => {
  it("backs up while 20 clients send; the restored server has every message answered before, every upload and the same logins", async () => {
    const source = await place("source");
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/api/v1`;
    const server = await spawnServer(main, env(source, { ROOKERY_PORT: String(port) }));
    const key = /key=([A-Za-z0-9]{32})/.exec(server.out())![1]!;
    const password = /Password: (\S+)/.exec(server.out())![1]!;
    const auth = { authorization: "Basic " + Buffer.from(`owner@rookery.local:${key}`).toString("base64") };
    const form = (fields: Record<string, string>) => ({ method: "POST", headers: { ...auth, "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields).toString() });
    expect((await fetch(`${base}/users/me/subscriptions`, form({ subscriptions: JSON.stringify([{ name: "burst" }]) }))).status).toBe(200);

    // Uploads: a text file and an image (which gets thumbnails), linked from a message.
    const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: { r: 20, g: 120, b: 200 } } }).png().toBuffer();
    const uploads = new Map<string, Buffer>();
    for (const [name, data, type] of [["notes.txt", Buffer.from("the minutes\n"), "text/plain"], ["picture.png", png, "image/png"]] as const) {
      const body = new FormData();
      body.append("file", new Blob([new Uint8Array(data)], { type }), name);
      const res = await fetch(`${base}/user_uploads`, { method: "POST", headers: auth, body });
      const url = ((await res.json()) as { url: string }).url;
      uploads.set(url, data);
      expect((await fetch(`${base}/messages`, form({ type: "stream", to: "burst", topic: "files", content: `[${name}](${url})` }))).status).toBe(200);
    }

    const answered = new Map<number, string>();
    let before = new Map<number, string>();
    let filesBefore = new Map<string, string>();
    let backupRun: Promise<{ code: number; stdout: string; stderr: string }> | undefined;
    let done = false;
    const archive = path.join(root, "rookery-backup.tar.gz");
    const sender = async (n: number) => {
      for (let i = 0; !done; i++) {
        const content = `sender ${n} message ${i}`;
        const res = await fetch(`${base}/messages`, form({ type: "stream", to: "burst", topic: `t${n}`, content }));
        const body = (await res.json()) as { id?: number };
        expect(res.status).toBe(200);
        answered.set(body.id!, content);
        if (answered.size >= ANSWERED_BEFORE_BACKUP && !backupRun) {
          // Everything answered so far must be in the backup.
          before = new Map(answered);
          filesBefore = fileHashes(path.join(source.dataDir, "uploads"));
          fs.mkdirSync(path.join(source.dataDir, "image-proxy"), { recursive: true });
          fs.writeFileSync(path.join(source.dataDir, "image-proxy", "cached.webp"), "a cached image of another site");
          backupRun = rookery(["backup", archive, "--json"], env(source)).finally(() => (done = true));
        }
      }
    };
    await Promise.all(Array.from({ length: SENDERS }, (_, n) => sender(n)));
    const backedUp = await backupRun!;
    expect(backedUp).toMatchObject({ code: 0, stderr: "" });
    const summary = JSON.parse(backedUp.stdout) as Record<string, unknown>;
    expect(summary).toMatchObject({ file: archive, database: testBackend(), bytes: fs.statSync(archive).size });
    expect(answered.size).toBeGreaterThan(before.size);
    await stop(server.child);

    const target = await place("target");
    const restored = await rookery(["restore", archive, "--json"], env(target));
    expect(restored).toMatchObject({ code: 0, stderr: "" });
    expect(JSON.parse(restored.stdout)).toEqual({ database: testBackend(), files: summary.files });
    // Every file of the uploads folder (files and thumbnails) there when the backup began.
    const filesAfter = fileHashes(path.join(target.dataDir, "uploads"));
    expect([...filesBefore].filter(([file, hash]) => filesAfter.get(file) !== hash)).toEqual([]);
    expect(filesBefore.size).toBeGreaterThan(uploads.size);
    expect(fileHashes(path.join(target.dataDir, "secrets"))).toEqual(fileHashes(path.join(source.dataDir, "secrets")));
    // The image proxy's cache is not data: it is fetched again on demand.
    expect(fs.existsSync(path.join(target.dataDir, "image-proxy"))).toBe(false);

    const port2 = await freePort();
    const base2 = `http://127.0.0.1:${port2}/api/v1`;
    const second = await spawnServer(main, env(target, { ROOKERY_PORT: String(port2) }));
    try {
      // No first-run organisation: the restored one is served.
      expect(second.out()).toBe(`Rookery is serving http://127.0.0.1:${port2}\n`);
      const ids = [...before.keys()].sort((a, b) => a - b);
      const query = new URLSearchParams({ anchor: String(ids[0]), num_before: "0", num_after: String(answered.size + 10), apply_markdown: "false", narrow: JSON.stringify([{ operator: "channel", operand: "burst" }]) });
      const fetched = (await (await fetch(`${base2}/messages?${query}`, { headers: auth })).json()) as { messages: { id: number; content: string }[] };
      const stored = new Map(fetched.messages.map((m) => [m.id, m.content]));
      expect(ids.filter((id) => stored.get(id) !== before.get(id))).toEqual([]);
      // Anything stored is something that was sent, under the id it was answered with.
      expect([...stored].filter(([id, content]) => id > ids[0]! && answered.get(id) !== content)).toEqual([]);

      for (const [url, data] of uploads) {
        const got = await fetch(`http://127.0.0.1:${port2}${url}`, { headers: auth });
        expect([got.status, Buffer.from(await got.arrayBuffer()).equals(data)]).toEqual([200, true]);
      }
      const login = await fetch(`${base2}/fetch_api_key`, { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams({ username: "owner@rookery.local", password }).toString() });
      expect(await login.json()).toMatchObject({ result: "success", api_key: key, email: "owner@rookery.local" });
    } finally {
      await stop(second.child);
    }

    // A second restore into the same place is refused, and changes nothing.
    const again = await rookery(["restore", archive], env(target));
    expect(again).toEqual({ code: 1, stdout: "", stderr: `rookery: the data folder ${target.dataDir} is not empty; restore fills an empty folder only (nothing was changed)\n` });
  }, 120_000);

  it("refuses an archive that exists, a database that is not empty, and a file that is not a backup, each with one line", async () => {
    const source = await place("refusals");
    const archive = path.join(root, "refusals.tar.gz");
    fs.writeFileSync(archive, "not an archive");
    expect(await rookery(["backup", archive], env(source))).toEqual({ code: 1, stdout: "", stderr: `rookery: ${archive} already exists; nothing was written (choose a new name)\n` });
    const notBackup = await rookery(["restore", archive], env(await place("empty-1")));
    expect(notBackup.code).toBe(1);
    expect(notBackup.stderr).toMatch(new RegExp(`^rookery: ${archive.replace(/[.]/g, "\\.")} is not a Rookery backup \\(.+\\)\\n$`));
    const missing = path.join(root, "missing.tar.gz");
    expect(await rookery(["restore", missing], env(await place("empty-2")))).toEqual({ code: 1, stdout: "", stderr: `rookery: ${missing} does not exist\n` });

    // A database with tables (the server made them) and an empty data folder: refused too.
    const port = await freePort();
    const server = await spawnServer(main, env(source, { ROOKERY_PORT: String(port) }));
    await stop(server.child);
    const good = path.join(root, "good.tar.gz");
    expect((await rookery(["backup", good], env(source))).code).toBe(0);
    const emptyFolder = path.join(root, "empty-3");
    fs.mkdirSync(emptyFolder);
    const refused = await rookery(["restore", good], env({ dataDir: emptyFolder, databaseUrl: source.databaseUrl }));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toEqual(
      testBackend() === "sqlite"
        ? `rookery: ${source.databaseUrl.slice("sqlite:".length)} already exists; restore fills an empty database only (nothing was changed)\n`
        : expect.stringMatching(/^rookery: the database of ROOKERY_DATABASE_URL has \d+ tables; restore fills an empty database only \(nothing was changed\)\n$/),
    );
    expect(fs.readdirSync(emptyFolder)).toEqual([]);
    // The other kind of database is refused.
    const otherKind = testBackend() === "sqlite" ? { dataDir: emptyFolder, databaseUrl: "postgres://127.0.0.1:1/none" } : { dataDir: emptyFolder, databaseUrl: `sqlite:${path.join(emptyFolder, "x.sqlite3")}` };
    const kind = await rookery(["restore", good], env(otherKind));
    expect(kind.code).toBe(1);
    expect(kind.stderr).toMatch(/^rookery: this backup holds a (SQLite|PostgreSQL) database, but ROOKERY_DATABASE_URL is (an SQLite file|a PostgreSQL database); restore it with the same kind of database\n$/);
  }, 60_000);
});
