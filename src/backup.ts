import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import zlib from "node:zlib";
import SQLite from "./db/sqlite-binding.js";
import * as tar from "tar";
import { ConfigError, type Config } from "./config.js";
import { lockDataDir } from "./data-lock.js";

/** What `rookery backup` wrote. */
export interface BackupSummary {
  file: string;
  database: "sqlite" | "postgres";
  /** Files of the data folder in the archive (uploads, thumbnails, avatars, secrets…). */
  files: number;
  bytes: number;
}

/** The archive's first entry: what it is and what it holds. */
interface Manifest {
  format: "rookery-backup";
  version: 1;
  created: string;
  database: "sqlite" | "postgres";
}

const MANIFEST = "rookery-backup.json";
const DATABASE_ENTRY = { sqlite: "database.sqlite3", postgres: "database.pgdump" } as const;
/**
 * Entries of the data folder that are not data: a running process's own files, and the image
 * proxy's cache of other sites' images (up to 500 MiB, fetched again on demand).
 */
const NOT_DATA = new Set(["rookery.lock", "rookery.lock-journal", "rookery.pid", "control.sock", "event-queues.json", "image-proxy"]);

const run = promisify(execFile);

/**
 * `rookery backup FILE`: one gzipped tar archive of everything a server needs, taken while it
 * runs. The database first, as one consistent snapshot (SQLite's online backup in a single step,
 * which reads one snapshot while writers carry on in the WAL; PostgreSQL's pg_dump, which reads
 * one transaction's snapshot), then the data folder's files (uploads, thumbnails, avatars and
 * emoji, secrets/): every file a row of the snapshot names was written before that row committed.
 * The archive appears under its name only once complete.
 */
export async function backup(config: Config, file: string): Promise<BackupSummary> {
  const target = path.resolve(file);
  if (fs.existsSync(target)) throw new ConfigError(`${target} already exists; nothing was written (choose a new name)`);
  const partial = `${target}.partial-${process.pid}`;
  const database = config.databaseUrl.startsWith("sqlite:") ? "sqlite" : "postgres";
  const snapshot = `${target}.database-${process.pid}`;
  try {
    if (database === "sqlite") await snapshotSqlite(sqliteFile(config), snapshot);
    else await dumpPostgres(config.databaseUrl, snapshot);
    const manifest: Manifest = { format: "rookery-backup", version: 1, created: new Date().toISOString(), database };
    const skip = new Set([target, partial, snapshot, ...(database === "sqlite" ? sqliteFiles(sqliteFile(config)) : [])]);
    const files = dataFiles(config.dataDir, skip);
    let count = 0;
    async function* archive(): AsyncGenerator<Buffer> {
      yield* entry(MANIFEST, Buffer.from(JSON.stringify(manifest, null, 2) + "\n"));
      yield* fileEntry(DATABASE_ENTRY[database], snapshot);
      for (const relative of files) {
        if (relative.endsWith("/")) {
          yield* directoryEntry(`data/${relative}`, path.join(config.dataDir, relative));
          continue;
        }
        if (yield* fileEntry(`data/${relative}`, path.join(config.dataDir, relative))) count++;
      }
      // The end of the archive: two empty blocks.
      yield Buffer.alloc(1024);
    }
    await pipeline(Readable.from(archive()), zlib.createGzip(), fs.createWriteStream(partial, { mode: 0o600 }));
    fs.renameSync(partial, target);
    return { file: target, database, files: count, bytes: fs.statSync(target).size };
  } finally {
    fs.rmSync(partial, { force: true });
    fs.rmSync(snapshot, { force: true });
  }
}

/**
 * `rookery restore FILE`: fills an empty data folder (and, for PostgreSQL, an empty database)
 * from an archive `backup` wrote. A folder or database that holds anything is refused untouched.
 * The data folder is locked meanwhile, so no server starts on it half-restored.
 */
export async function restore(config: Config, file: string): Promise<{ database: "sqlite" | "postgres"; files: number }> {
  const source = path.resolve(file);
  if (!fs.existsSync(source)) throw new ConfigError(`${source} does not exist`);
  const manifest = await readManifest(source);
  const database = config.databaseUrl.startsWith("sqlite:") ? "sqlite" : "postgres";
  if (manifest.database !== database) {
    throw new ConfigError(`this backup holds a ${manifest.database === "sqlite" ? "SQLite" : "PostgreSQL"} database, but ROOKERY_DATABASE_URL is ${database === "sqlite" ? "an SQLite file" : "a PostgreSQL database"}; restore it with the same kind of database`);
  }
  const dataDir = config.dataDir;
  if (fs.existsSync(dataDir) && fs.readdirSync(dataDir).length > 0) {
    throw new ConfigError(`the data folder ${dataDir} is not empty; restore fills an empty folder only (nothing was changed)`);
  }
  const dbFile = database === "sqlite" ? sqliteFile(config) : null;
  if (dbFile !== null && sqliteFiles(dbFile).some((f) => fs.existsSync(f))) throw new ConfigError(`${dbFile} already exists; restore fills an empty database only (nothing was changed)`);
  if (database === "postgres") await checkPostgresEmpty(config.databaseUrl);
  const lock = lockDataDir(dataDir);
  let files = 0;
  try {
    const dump = dbFile ?? path.join(dataDir, `restore-${process.pid}.pgdump`);
    await extractOne(source, DATABASE_ENTRY[database], dump);
    if (dbFile !== null) {
      const check = new SQLite(dump, { readonly: true });
      const result = check.pragma("quick_check", { simple: true });
      check.close();
      if (result !== "ok") throw new ConfigError(`the database in ${source} is damaged (quick_check: ${String(result)})`);
    } else {
      await restorePostgres(config.databaseUrl, dump);
      fs.rmSync(dump);
    }
    await tar.x({
      file: source,
      cwd: dataDir,
      strip: 1,
      filter: (entryPath) => {
        const wanted = entryPath.startsWith("data/");
        if (wanted && !entryPath.endsWith("/")) files++;
        return wanted;
      },
    });
  } catch (error) {
    // The folder was empty: leave it so, ready for another try.
    lock.release();
    for (const name of fs.readdirSync(dataDir)) fs.rmSync(path.join(dataDir, name), { recursive: true, force: true });
    if (dbFile !== null) for (const f of sqliteFiles(dbFile)) fs.rmSync(f, { force: true });
    throw error;
  }
  lock.release();
  return { database, files };
}

function sqliteFile(config: Config): string {
  return path.resolve(config.databaseUrl.slice("sqlite:".length));
}

/** The database file and the files SQLite keeps beside it. */
function sqliteFiles(file: string): string[] {
  return [file, `${file}-wal`, `${file}-shm`, `${file}-journal`];
}

/** SQLite's online backup of `file` into `target`, every page in one step: one consistent snapshot. */
async function snapshotSqlite(file: string, target: string): Promise<void> {
  if (!fs.existsSync(file)) throw new ConfigError(`no database at ${file}: nothing to back up`);
  const source = new SQLite(file, { fileMustExist: true });
  try {
    source.pragma("busy_timeout = 5000");
    // Step by step, a write by the server between two steps would start the copy over, and a busy
    // server would keep it from ever finishing; one step reads one snapshot while writes go on.
    await source.backup(target, { progress: () => 0x7fffffff });
  } finally {
    source.close();
  }
}

async function dumpPostgres(url: string, target: string): Promise<void> {
  try {
    await run("pg_dump", ["--format=custom", "--no-owner", "--no-privileges", `--file=${target}`, `--dbname=${url}`], { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    throw new ConfigError(`pg_dump failed: ${commandError(error)}`);
  }
}

async function restorePostgres(url: string, dump: string): Promise<void> {
  try {
    await run("pg_restore", ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", `--dbname=${url}`, dump], { maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    throw new ConfigError(`pg_restore failed: ${commandError(error)}`);
  }
}

async function checkPostgresEmpty(url: string): Promise<void> {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>("SELECT count(*) AS n FROM pg_tables WHERE schemaname NOT IN ('pg_catalog', 'information_schema')");
    if (Number(rows[0]?.n) > 0) throw new ConfigError(`the database of ROOKERY_DATABASE_URL has ${rows[0]?.n} tables; restore fills an empty database only (nothing was changed)`);
  } finally {
    await client.end();
  }
}

function commandError(error: unknown): string {
  const failure = error as { code?: string; stderr?: string; message?: string };
  if (failure.code === "ENOENT") return "the command is not installed (Debian: apt-get install postgresql-client)";
  return (failure.stderr?.trim() || failure.message || String(error)).split("\n")[0] ?? "";
}

/**
 * The data folder's folders (ending in "/") and regular files, relative to it, each folder before
 * what it holds; what is not data and `skip` left out.
 */
function dataFiles(dataDir: string, skip: Set<string>): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    const entries = fs.readdirSync(path.join(dataDir, relative), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      const child = relative === "" ? entry.name : `${relative}/${entry.name}`;
      if (relative === "" && NOT_DATA.has(entry.name)) continue;
      if (skip.has(path.join(dataDir, child))) continue;
      if (entry.isDirectory()) {
        found.push(`${child}/`);
        walk(child);
      } else if (entry.isFile()) found.push(child);
    }
  };
  if (fs.existsSync(dataDir)) walk("");
  return found;
}

/** A tar header for a file of `size` bytes or a folder (with a PAX header first for a long or non-ASCII name). */
function header(name: string, size: number, mode: number, mtime: Date, type: "File" | "Directory" = "File"): Buffer[] {
  const data = { path: name, mode, size, mtime, type, uid: 0, gid: 0 };
  const block = new tar.Header(data);
  const blocks: Buffer[] = [];
  if (block.encode()) blocks.push(new tar.Pax({ path: name, size, mtime }).encode());
  if (!block.block) throw new Error(`cannot write a tar header for ${name}`);
  blocks.push(block.block);
  return blocks;
}

function padding(size: number): Buffer {
  return Buffer.alloc((512 - (size % 512)) % 512);
}

function* entry(name: string, content: Buffer): Generator<Buffer> {
  yield* header(name, content.length, 0o600, new Date());
  yield content;
  yield padding(content.length);
}

/** A folder's entry (its mode: secrets/ stays private); one removed meanwhile is left out. */
function* directoryEntry(name: string, dir: string): Generator<Buffer> {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(dir);
  } catch {
    return;
  }
  yield* header(name, 0, stat.mode & 0o777, stat.mtime, "Directory");
}

/**
 * A file's entry, read from one open handle: a file removed meanwhile (an unclaimed upload swept
 * away) is left out, and one still growing is cut at the size its header says. False if left out.
 */
async function* fileEntry(name: string, file: string): AsyncGenerator<Buffer, boolean> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(file, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
  try {
    const stat = await handle.stat();
    yield* header(name, stat.size, stat.mode & 0o777, stat.mtime);
    let left = stat.size;
    while (left > 0) {
      const { buffer, bytesRead } = await handle.read({ buffer: Buffer.alloc(Math.min(left, 1 << 20)) });
      if (bytesRead === 0) throw new Error(`${file} shrank while it was being archived`);
      yield buffer.subarray(0, bytesRead);
      left -= bytesRead;
    }
    yield padding(stat.size);
    return true;
  } finally {
    await handle.close();
  }
}

/** Reads the archive's manifest: a file that is not a Rookery backup is refused with one line. */
async function readManifest(source: string): Promise<Manifest> {
  let text = "";
  try {
    await tar.t({
      file: source,
      filter: (entryPath) => entryPath === MANIFEST,
      onReadEntry: (readEntry) => readEntry.on("data", (chunk: Buffer) => (text += chunk.toString())),
    });
  } catch (error) {
    throw new ConfigError(`${source} is not a Rookery backup (${error instanceof Error ? error.message : String(error)})`);
  }
  let manifest: Partial<Manifest> = {};
  try {
    manifest = JSON.parse(text) as Partial<Manifest>;
  } catch {
    // Reported below.
  }
  const { format, version, created, database } = manifest;
  if (format !== "rookery-backup" || (database !== "sqlite" && database !== "postgres")) throw new ConfigError(`${source} is not a Rookery backup (no ${MANIFEST} in it)`);
  if (version !== 1) throw new ConfigError(`${source} is a backup of format version ${String(version)}, which this version of Rookery cannot read`);
  return { format, version, created: String(created), database };
}

/** Writes the archive entry `name` to `target`. */
async function extractOne(source: string, name: string, target: string): Promise<void> {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  const out = fs.createWriteStream(target, { mode: 0o600 });
  let found = false;
  await tar.t({
    file: source,
    filter: (entryPath) => entryPath === name,
    onReadEntry: (readEntry) => {
      found = true;
      readEntry.pipe(out);
    },
  });
  if (!found) out.end();
  await new Promise<void>((resolve, reject) => (out.writableFinished ? resolve() : out.once("finish", resolve).once("error", reject)));
  if (!found) throw new ConfigError(`${source} has no ${name}: the backup is incomplete`);
}
