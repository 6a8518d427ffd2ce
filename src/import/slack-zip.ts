import type { Readable } from "node:stream";
import yauzl from "yauzl";

/** A bad, truncated or unreadable archive, or a file in it that is not what it should be. */
export class ImportError extends Error {}

/** The largest JSON file read whole (a day of one channel, or users.json): larger ones are refused. */
const MAX_JSON_BYTES = 256 * 1024 * 1024;

/**
 * A zip archive read entry by entry: its central directory is listed once (names and sizes, no
 * contents), then each entry is opened on demand, so only the entry being read is in memory.
 */
export class SlackZip {
  private constructor(
    private readonly zip: yauzl.ZipFile,
    /** The entries by name (UTF-8, as Slack writes them even without the zip's UTF-8 flag). */
    readonly entries: ReadonlyMap<string, yauzl.Entry>,
  ) {}

  /** Opens the archive and lists its entries; a file that is not a whole zip archive is an ImportError. */
  static async open(file: string): Promise<SlackZip> {
    let zip: yauzl.ZipFile;
    try {
      zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true });
    } catch (error) {
      throw new ImportError(`${file} is not a readable zip archive (${reason(error)}); nothing was imported`);
    }
    try {
      return new SlackZip(zip, await listEntries(zip));
    } catch (error) {
      zip.close();
      throw new ImportError(`${file} is a damaged zip archive (${reason(error)}); nothing was imported`);
    }
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** A stream of one entry's bytes; a damaged entry errors the stream. */
  async stream(name: string): Promise<Readable> {
    const entry = this.entries.get(name);
    if (!entry) throw new ImportError(`the archive has no ${name}`);
    try {
      return await this.zip.openReadStreamPromise(entry);
    } catch (error) {
      throw new ImportError(`${name} in the archive cannot be read (${reason(error)}); nothing was imported`);
    }
  }

  /** One JSON entry, parsed; a damaged entry or invalid JSON is an ImportError naming it. */
  async json(name: string): Promise<unknown> {
    const entry = this.entries.get(name);
    if (!entry) throw new ImportError(`the archive has no ${name}`);
    if (entry.uncompressedSize > MAX_JSON_BYTES) throw new ImportError(`${name} is larger than ${MAX_JSON_BYTES} bytes; nothing was imported`);
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of await this.stream(name)) chunks.push(chunk as Buffer);
    } catch (error) {
      throw new ImportError(`${name} in the archive cannot be read (${reason(error)}); nothing was imported`);
    }
    try {
      return JSON.parse(Buffer.concat(chunks).toString("utf8")) as unknown;
    } catch (error) {
      throw new ImportError(`${name} is not valid JSON (${reason(error)}); nothing was imported`);
    }
  }

  close(): void {
    this.zip.close();
  }
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Reads the central directory: every entry's name and sizes, none of their contents. */
function listEntries(zip: yauzl.ZipFile): Promise<Map<string, yauzl.Entry>> {
  return new Promise((resolve, reject) => {
    const entries = new Map<string, yauzl.Entry>();
    zip.on("entry", (entry: yauzl.Entry) => {
      // decodeStrings is off: names are raw bytes, and Slack writes UTF-8 without setting the flag.
      const raw: unknown = entry.fileName;
      const name = Buffer.isBuffer(raw) ? raw.toString("utf8") : String(raw);
      const invalid = yauzl.validateFileName(name);
      if (invalid !== null) {
        reject(new Error(`bad entry name ${JSON.stringify(name)}: ${invalid}`));
        return;
      }
      if (!name.endsWith("/")) entries.set(name, entry);
      zip.readEntry();
    });
    zip.on("end", () => resolve(entries));
    zip.on("error", reject);
    zip.readEntry();
  });
}
