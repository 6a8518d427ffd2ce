import { createReadStream, createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { randomToken } from "../base/secrets.js";
import { uploadFolderOf } from "./paths.js";

/** A byte range of a stored file, both ends included (HTTP Range semantics). */
export interface ByteRange {
  start: number;
  end: number;
}

/** Where uploaded files live. Keys are path ids (`2/ab/xyz/name.png`) or derived keys. */
export interface FileStore {
  /**
   * Streams `source` into `key`. The file appears under its key only once written whole; a
   * source that fails (or a size limit it throws) leaves nothing behind. Returns the size.
   */
  put(key: string, source: Readable): Promise<number>;
  /** A stream of the file (or of a range of it), or undefined when there is none. */
  get(key: string, range?: ByteRange): Promise<Readable | undefined>;
  /** The file's size, or undefined when there is none. */
  size(key: string): Promise<number | undefined>;
  exists(key: string): Promise<boolean>;
  /** Removes the file; removing a missing file is not an error. */
  delete(key: string): Promise<void>;
  /** Removes every file whose key starts with `prefix` (which ends with "/"). */
  deletePrefix(prefix: string): Promise<void>;
  /** Removes the folder `prefix` (which ends with "/") if nothing is left in it; a store without folders does nothing. */
  deleteEmptyFolder(prefix: string): Promise<void>;
  /**
   * The file's path on this machine's disk, when the store keeps files there: image work then
   * reads it directly (in libvips' threads) instead of through a buffer in JavaScript.
   */
  localPath?(key: string): string;
}

/**
 * Removes an upload's file, its thumbnails, and the folders only they occupied (its own, then the
 * realm's shared ones above it while they are left empty).
 */
export async function deleteUploadFiles(files: FileStore, pathId: string): Promise<void> {
  await files.delete(pathId);
  await files.deletePrefix(`thumbnail/${pathId}/`);
  const folder = uploadFolderOf(pathId);
  if (folder === undefined) return;
  const [realm, shard] = folder.split("/");
  for (const prefix of [folder, `${realm}/${shard}/`, `${realm}/`]) {
    await files.deleteEmptyFolder(prefix);
    await files.deleteEmptyFolder(`thumbnail/${prefix}`);
  }
}

/** Files on local disk under one root directory (the data directory's `uploads/`). */
export class LocalFileStore implements FileStore {
  constructor(readonly root: string) {}

  async put(key: string, source: Readable): Promise<number> {
    const target = this.pathOf(key);
    let created: string | undefined;
    // Written beside the target, then renamed: readers never see half a file.
    const partial = `${target}.${randomToken(8)}.partial`;
    try {
      created = await fs.mkdir(path.dirname(target), { recursive: true });
      await pipeline(source, createWriteStream(partial, { flags: "wx" }));
      await fs.rename(partial, target);
    } catch (error) {
      // A failed write leaves nothing: neither the partial file nor the folders made for it.
      source.resume();
      await fs.rm(partial, { force: true }).catch(() => {});
      if (created !== undefined) await this.removeEmptyFolders(path.dirname(target), created);
      throw error;
    }
    return (await fs.stat(target)).size;
  }

  /** Removes `folder` and its parents up to `top` (both included) while they are empty. */
  private async removeEmptyFolders(folder: string, top: string): Promise<void> {
    for (let dir = folder; dir.startsWith(top); dir = path.dirname(dir)) {
      try {
        await fs.rmdir(dir);
      } catch {
        return;
      }
      if (dir === top) return;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable | undefined> {
    const file = this.pathOf(key);
    if ((await this.size(key)) === undefined) return undefined;
    return createReadStream(file, range ? { start: range.start, end: range.end } : {});
  }

  async size(key: string): Promise<number | undefined> {
    try {
      const stat = await fs.stat(this.pathOf(key));
      return stat.isFile() ? stat.size : undefined;
    } catch {
      return undefined;
    }
  }

  async exists(key: string): Promise<boolean> {
    return (await this.size(key)) !== undefined;
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.pathOf(key), { force: true });
  }

  async deletePrefix(prefix: string): Promise<void> {
    if (!prefix.endsWith("/")) throw new Error(`not a key prefix: ${prefix}`);
    await fs.rm(this.pathOf(prefix.slice(0, -1)), { recursive: true, force: true });
  }

  async deleteEmptyFolder(prefix: string): Promise<void> {
    if (!prefix.endsWith("/")) throw new Error(`not a key prefix: ${prefix}`);
    try {
      await fs.rmdir(this.pathOf(prefix.slice(0, -1)));
    } catch (error) {
      const code = typeof error === "object" && error !== null && "code" in error ? error.code : undefined;
      if (code !== "ENOTEMPTY" && code !== "ENOENT" && code !== "EEXIST") throw error;
    }
  }

  localPath(key: string): string {
    return this.pathOf(key);
  }

  /** The key's file under the root; a key that would leave the root is refused. */
  private pathOf(key: string): string {
    const resolved = path.resolve(this.root, key);
    if (!resolved.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`storage key outside the store: ${key}`);
    return resolved;
  }
}
