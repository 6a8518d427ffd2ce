import { once } from "node:events";
import type { Readable, Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGzip, type Gzip } from "node:zlib";

const BLOCK = 512;
/** The largest size a ustar header holds (11 octal digits); larger files get a pax `size` record. */
const MAX_USTAR_SIZE = 0o77777777777;

/**
 * Writes a gzip-compressed tar archive (POSIX ustar, with pax headers for long names) entry by
 * entry into `out`: each entry's bytes pass through as they are read, so memory stays at one
 * chunk whatever the archive's size. Each entry's size must be known before its bytes.
 */
export class TarGzWriter {
  private readonly gzip: Gzip;
  private readonly done: Promise<void>;
  private failure: unknown;

  constructor(out: Writable, level = 6) {
    this.gzip = createGzip({ level });
    this.done = pipeline(this.gzip, out);
    this.done.catch((error: unknown) => {
      this.failure = error;
    });
  }

  /** Adds a regular file of `size` bytes read from `source` (which must yield exactly that many). */
  async addStream(name: string, size: number, source: Readable, mtimeMs = Date.now()): Promise<void> {
    await this.push(headerBlocks(name, size, mtimeMs));
    let written = 0;
    for await (const chunk of source) {
      const bytes = chunk instanceof Buffer ? chunk : Buffer.from(chunk as Uint8Array);
      written += bytes.length;
      if (written > size) throw new Error(`${name} grew while being archived`);
      await this.push(bytes);
    }
    if (written !== size) throw new Error(`${name} shrank while being archived`);
    await this.push(Buffer.alloc(padding(size)));
  }

  /** Adds a regular file holding `data`. */
  async addBuffer(name: string, data: Buffer, mtimeMs = Date.now()): Promise<void> {
    await this.push(headerBlocks(name, data.length, mtimeMs));
    await this.push(data);
    await this.push(Buffer.alloc(padding(data.length)));
  }

  /** Ends the archive (two empty blocks) and waits until every byte reached `out`. */
  async finish(): Promise<void> {
    await this.push(Buffer.alloc(BLOCK * 2));
    this.gzip.end();
    await this.done;
  }

  /** Stops writing; `out` sees an error, never a complete-looking archive. */
  abort(error: Error): void {
    this.gzip.destroy(error);
  }

  private async push(bytes: Buffer): Promise<void> {
    if (this.failure !== undefined) throw this.failure;
    if (bytes.length === 0) return;
    if (!this.gzip.write(bytes)) await Promise.race([once(this.gzip, "drain"), this.done]);
  }
}

function padding(size: number): number {
  return (BLOCK - (size % BLOCK)) % BLOCK;
}

/** The header block(s) of a file entry: a pax header first when the name or size does not fit ustar. */
function headerBlocks(name: string, size: number, mtimeMs: number): Buffer {
  const mtime = Math.floor(mtimeMs / 1000);
  const split = splitName(name);
  const records: string[] = [];
  if (!split) records.push(paxRecord("path", name));
  if (size > MAX_USTAR_SIZE) records.push(paxRecord("size", String(size)));
  const main = ustarHeader(split ?? { prefix: "", name: asciiName(name) }, size > MAX_USTAR_SIZE ? 0 : size, mtime, "0");
  if (records.length === 0) return main;
  const body = Buffer.from(records.join(""), "utf8");
  const pax = ustarHeader({ prefix: "", name: "PaxHeader" }, body.length, mtime, "x");
  return Buffer.concat([pax, body, Buffer.alloc(padding(body.length)), main]);
}

/** A pax record: its length in decimal counts the whole record, digits included. */
function paxRecord(key: string, value: string): string {
  const rest = ` ${key}=${value}\n`;
  const restBytes = Buffer.byteLength(rest, "utf8");
  let length = restBytes + String(restBytes).length;
  if (String(length).length !== String(restBytes).length) length = restBytes + String(length).length;
  return `${length}${rest}`;
}

/** Splits a name into ustar's prefix (≤155 bytes) and name (≤100 bytes) at a slash; undefined when it cannot. */
function splitName(name: string): { prefix: string; name: string } | undefined {
  if (!/^[\x20-\x7e]*$/.test(name)) return undefined;
  if (name.length <= 100) return { prefix: "", name };
  for (let cut = name.indexOf("/"); cut >= 0; cut = name.indexOf("/", cut + 1)) {
    if (cut <= 155 && name.length - cut - 1 <= 100 && name.length - cut - 1 > 0) return { prefix: name.slice(0, cut), name: name.slice(cut + 1) };
  }
  return undefined;
}

/** The ustar name field of an entry whose real name is in its pax header: the end of it, in ASCII. */
function asciiName(name: string): string {
  return name.replace(/[^\x20-\x7e]/g, "_").slice(-100);
}

function ustarHeader(name: { prefix: string; name: string }, size: number, mtime: number, type: string): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(name.name, 0, 100, "utf8");
  block.write("0000644\0", 100, "ascii");
  block.write("0000000\0", 108, "ascii");
  block.write("0000000\0", 116, "ascii");
  block.write(octal(size, 11), 124, "ascii");
  block.write(octal(mtime, 11), 136, "ascii");
  block.write("        ", 148, "ascii");
  block.write(type, 156, "ascii");
  block.write("ustar\0", 257, "ascii");
  block.write("00", 263, "ascii");
  block.write(name.prefix, 345, 155, "utf8");
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148, "ascii");
  return block;
}

function octal(value: number, digits: number): string {
  return `${value.toString(8).padStart(digits, "0")}\0`;
}
