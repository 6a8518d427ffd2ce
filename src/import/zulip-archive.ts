import { createReadStream } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import * as tar from "tar";
import { ImportError } from "./slack-zip.js";

/** Zulip's export layout: the tables of realm.json, then batches of messages-NNNNNN.json. */
const BATCH_NAME = /^messages-(\d{6})\.json$/;

/**
 * An export in Zulip's format on disk: the folder holding realm.json, either given (an unpacked
 * export) or unpacked from a .tar.gz into a scratch folder first (entry by entry, to disk), so a
 * truncated or damaged archive is refused before anything is written.
 */
export class ZulipArchive {
  private constructor(
    /** The folder of realm.json. */
    readonly root: string,
    /** messages-NNNNNN.json in order. */
    readonly batches: readonly string[],
    private readonly scratch: string | undefined,
  ) {}

  static async open(file: string, scratchDir = os.tmpdir()): Promise<ZulipArchive> {
    const stat = await fs.stat(file).catch(() => undefined);
    if (!stat) throw new ImportError(`${file} does not exist; nothing was imported`);
    let scratch: string | undefined;
    let top = file;
    if (!stat.isDirectory()) {
      scratch = await fs.mkdtemp(path.join(scratchDir, "rookery-import-"));
      try {
        await tar.x({ file, cwd: scratch, strict: true, preservePaths: false });
      } catch (error) {
        // Entries being written when the archive failed may still land: removal retries until they have.
        await fs.rm(scratch, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
        throw new ImportError(`${file} is not a whole .tar.gz archive: it is truncated or damaged (${reason(error)}); nothing was imported`);
      }
      top = scratch;
    }
    const root = await findRoot(top);
    if (!root) {
      if (scratch) await fs.rm(scratch, { recursive: true, force: true });
      throw new ImportError(`${file} holds no realm.json: it is not an export in Zulip's format; nothing was imported`);
    }
    const batches = (await fs.readdir(root)).filter((name) => BATCH_NAME.test(name)).sort();
    return new ZulipArchive(root, batches, scratch);
  }

  /** The parsed JSON of a file of the export, or undefined when it is absent and not `required`. */
  async json(name: string, required: boolean): Promise<unknown> {
    let text: string;
    try {
      text = await fs.readFile(path.join(this.root, name), "utf8");
    } catch {
      if (!required) return undefined;
      throw new ImportError(`the export has no ${name}; nothing was imported`);
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new ImportError(`${name} is not valid JSON: the export is damaged; nothing was imported`);
    }
  }

  /** An object of tables (realm.json, a batch): each table a list of records. */
  async tables(name: string, required = true): Promise<Record<string, Record<string, unknown>[]>> {
    const value = await this.json(name, required);
    if (value === undefined) return {};
    if (typeof value !== "object" || value === null || Array.isArray(value)) throw new ImportError(`${name} is not an object of tables; nothing was imported`);
    const out: Record<string, Record<string, unknown>[]> = {};
    for (const [table, rows] of Object.entries(value)) {
      if (!Array.isArray(rows) || rows.some((r) => typeof r !== "object" || r === null || Array.isArray(r))) throw new ImportError(`${name}: ${table} is not a list of records; nothing was imported`);
      out[table] = rows as Record<string, unknown>[];
    }
    return out;
  }

  /** A records.json list (uploads/, avatars/, emoji/, realm_icons/), empty when absent. */
  async records(folder: string): Promise<Record<string, unknown>[]> {
    const value = await this.json(`${folder}/records.json`, false);
    if (value === undefined) return [];
    if (!Array.isArray(value)) throw new ImportError(`${folder}/records.json is not a list; nothing was imported`);
    return value.filter((r): r is Record<string, unknown> => typeof r === "object" && r !== null && !Array.isArray(r));
  }

  /** A file of the export, streamed; undefined when absent. */
  async stream(name: string): Promise<Readable | undefined> {
    const full = path.join(this.root, name);
    if (!full.startsWith(this.root + path.sep)) return undefined;
    const stat = await fs.stat(full).catch(() => undefined);
    return stat?.isFile() ? createReadStream(full) : undefined;
  }

  /** Removes the unpacked copy. */
  async close(): Promise<void> {
    if (this.scratch) await fs.rm(this.scratch, { recursive: true, force: true });
  }
}

/** The folder holding realm.json: `dir` itself or one of its folders (an archive's top folder). */
async function findRoot(dir: string): Promise<string | undefined> {
  const has = async (d: string) => (await fs.stat(path.join(d, "realm.json")).catch(() => undefined))?.isFile() === true;
  if (await has(dir)) return dir;
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && (await has(path.join(dir, entry.name)))) return path.join(dir, entry.name);
  }
  return undefined;
}

/** An unpacking error in words that do not depend on the Node.js version: what kind of damage. */
function reason(error: unknown): string {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  if (code === "Z_BUF_ERROR" || code === "TAR_ABORT") return "it ends too early";
  return code === "Z_DATA_ERROR" || code === "TAR_BAD_ARCHIVE" ? "it is not a .tar.gz archive" : "it cannot be read";
}
