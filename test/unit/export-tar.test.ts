import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PassThrough, Readable } from "node:stream";
import * as tar from "tar";
import { describe, expect, it } from "vitest";
import { TarGzWriter } from "../../src/lib/export/tar.js";

/** Writes `entries` with TarGzWriter and lists them back with the `tar` package (an independent reader). */
async function roundTrip(entries: [string, Buffer][]): Promise<Map<string, Buffer>> {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  out.on("data", (c: Buffer) => chunks.push(c));
  const writer = new TarGzWriter(out);
  for (const [i, [name, data]] of entries.entries()) {
    if (i % 2 === 0) await writer.addBuffer(name, data, 1_700_000_000_000);
    else await writer.addStream(name, data.length, Readable.from([data.subarray(0, 7), data.subarray(7)]), 1_700_000_000_000);
  }
  await writer.finish();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-tar-test-"));
  try {
    const file = path.join(dir, "a.tar.gz");
    fs.writeFileSync(file, Buffer.concat(chunks));
    const read = new Map<string, Buffer>();
    const pending: Promise<void>[] = [];
    await tar.t({
      file,
      strict: true,
      onReadEntry: (entry) => {
        const parts: Buffer[] = [];
        entry.on("data", (c: Buffer) => parts.push(c));
        pending.push(new Promise((resolve) => entry.on("end", () => resolve())));
        read.set(entry.path, Buffer.alloc(0));
        entry.on("end", () => read.set(entry.path, Buffer.concat(parts)));
      },
    });
    await Promise.all(pending);
    return read;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("TarGzWriter", () => {
  it("writes names of every length (ustar, ustar with a prefix, pax) and any bytes, as tar reads them", async () => {
    const entries: [string, Buffer][] = [
      ["zulip-export-abc/realm.json", Buffer.from('{"a": 1}\n')],
      [`zulip-export-abc/uploads/2/ab/${"x".repeat(60)}/${"long name ".repeat(8)}.txt`, Buffer.alloc(513, 7)],
      [`zulip-export-abc/uploads/2/cd/${"y".repeat(24)}/${"n".repeat(240)}.pdf`, Buffer.alloc(0)],
      ["zulip-export-abc/uploads/2/ef/zz/résumé 📎.txt", Buffer.from("unicode name")],
      ["zulip-export-abc/messages-000001.json", Buffer.alloc(1024 * 1024 + 3, 1)],
    ];
    const read = await roundTrip(entries);
    expect([...read.keys()]).toEqual(entries.map(([name]) => name));
    for (const [name, data] of entries) expect(read.get(name)?.equals(data), name).toBe(true);
  });

  it("refuses a stream that yields more or fewer bytes than announced", async () => {
    const sink = new PassThrough();
    sink.resume();
    const writer = new TarGzWriter(sink);
    await expect(writer.addStream("a", 3, Readable.from([Buffer.from("four")]))).rejects.toThrow("a grew while being archived");
    const other = new TarGzWriter(new PassThrough().resume());
    await expect(other.addStream("b", 5, Readable.from([Buffer.from("four")]))).rejects.toThrow("b shrank while being archived");
  });
});
