import { once } from "node:events";
import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import type { TarGzWriter } from "./tar.js";

/** Rows of one table, a page at a time. */
export type Pages = AsyncIterable<readonly Record<string, unknown>[]>;

/**
 * A JSON file written to a scratch folder a piece at a time (a tar entry's size must be known
 * before its bytes), then moved into the archive and removed: memory holds one page of rows.
 */
export class JsonSpool {
  private readonly out: WriteStream;
  private first = true;

  private constructor(
    private readonly file: string,
    private readonly entryName: string,
  ) {
    this.out = createWriteStream(file, { flags: "wx" });
  }

  /** A spool in `dir` for the archive entry `entryName`. */
  static open(dir: string, entryName: string): JsonSpool {
    return new JsonSpool(path.join(dir, entryName.replace(/\//g, "__")), entryName);
  }

  /** Writes text, waiting while the file's buffer is full. */
  async write(text: string): Promise<void> {
    if (!this.out.write(text)) await once(this.out, "drain");
  }

  /** Writes `{"name": [rows…]` (or `, "name": […]` after the first) for an object of tables. */
  async table(name: string, pages: Pages): Promise<number> {
    await this.write(`${this.first ? "{" : ","}\n${JSON.stringify(name)}: [`);
    this.first = false;
    const count = await this.rows(pages);
    await this.write("]");
    return count;
  }

  /** Writes the rows of `pages` as JSON array items, one per line. */
  async rows(pages: Pages): Promise<number> {
    let count = 0;
    for await (const page of pages) {
      if (page.length === 0) continue;
      const text = page.map((row) => JSON.stringify(row)).join(",\n");
      await this.write(`${count === 0 ? "\n" : ",\n"}${text}`);
      count += page.length;
    }
    return count;
  }

  /** Finishes the file, adds it to `tar` and removes it. */
  async moveInto(tar: TarGzWriter, closing: string): Promise<void> {
    await this.write(closing);
    this.out.end();
    await once(this.out, "finish");
    const { size } = await fs.stat(this.file);
    await tar.addStream(this.entryName, size, createReadStream(this.file));
    await fs.rm(this.file, { force: true });
  }

  /** Drops the file (the export failed). */
  async discard(): Promise<void> {
    this.out.destroy();
    await fs.rm(this.file, { force: true });
  }
}

/** A table's rows as pages (for rows already in memory: one small table). */
export async function* onePage(rows: readonly Record<string, unknown>[]): Pages {
  yield rows;
}
