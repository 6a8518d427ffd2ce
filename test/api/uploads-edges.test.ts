import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { error } from "../harness/client.js";
import { startServer, type TestServer } from "../harness/server.js";
import { file, pathIdOf, upload, uploaded } from "./uploads-helpers.js";

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ maxFileUploadSizeMib: 1, bodyTimeoutS: 1 });
});
afterAll(() => server.stop());

/** Every empty folder under the upload store. */
function emptyFolders(): string[] {
  const root = path.join(server.dataDir, "uploads");
  if (!fs.existsSync(root)) return [];
  const out: string[] = [];
  const walk = (dir: string): void => {
    const entries = fs.readdirSync(dir, { withFileTypes: true });
    if (entries.length === 0 && dir !== root) out.push(path.relative(root, dir));
    for (const entry of entries) if (entry.isDirectory()) walk(path.join(dir, entry.name));
  };
  walk(root);
  return out;
}

const basic = (who: "hamlet") => "Basic " + Buffer.from(`${server.users[who].delivery_email}:${server.users[who].api_key}`).toString("base64");

/** Opens a raw connection and sends `head`; resolves with everything the server answers until it closes. */
function rawRequest(head: string, drip: { byte: string; everyMs: number; count: number } | undefined): Promise<{ text: string; ms: number }> {
  const url = new URL(server.url);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => {
      socket.write(head);
      if (!drip) return;
      let sent = 0;
      const timer = setInterval(() => {
        if (sent++ >= drip.count || socket.destroyed) return clearInterval(timer);
        socket.write(drip.byte);
      }, drip.everyMs);
      socket.on("close", () => clearInterval(timer));
    });
    let text = "";
    socket.on("data", (chunk: Buffer) => (text += chunk.toString()));
    socket.on("error", reject);
    socket.on("close", () => resolve({ text, ms: performance.now() - started }));
  });
}

describe("upload file names", () => {
  it.each([
    ["239 characters", `${"n".repeat(235)}.txt`, `${"n".repeat(196)}.txt`],
    ["200 bytes exactly", `${"s".repeat(196)}.txt`, `${"s".repeat(196)}.txt`],
    ["300 characters", `${"a".repeat(296)}.pdf`, `${"a".repeat(196)}.pdf`],
    ["300 bytes of two-byte letters", `${"é".repeat(150)}.tar.gz`, `${"é".repeat(98)}.gz`],
    ["a long name without an extension", "b".repeat(400), "b".repeat(200)],
  ])("%s: stored under a name the file system takes, extension kept; the attachment keeps the whole name", async (_what, name, stored) => {
    const url = await uploaded(server, "hamlet", file(name, Buffer.from("data")));
    const storedName = pathIdOf(url).split("/")[3] ?? "";
    expect(storedName.normalize("NFC")).toBe(stored.normalize("NFC"));
    expect(Buffer.byteLength(storedName)).toBeLessThanOrEqual(200);
    const attachments = (await server.as("hamlet").get("/attachments")).body.attachments as { name: string; path_id: string }[];
    expect(attachments.find((a) => a.path_id === pathIdOf(url))?.name).toBe(name);
    const got = await fetch(server.url + url, { headers: { authorization: basic("hamlet") } });
    expect([got.status, await got.text()]).toEqual([200, "data"]);
  });
});

describe("failed uploads leave no folder behind", () => {
  it("refused for size, for two files, or cut off mid-body", async () => {
    const before = emptyFolders();
    const big = await upload(server, "hamlet", file("big.bin", Buffer.alloc(1024 * 1024 + 10, 1)));
    expect([big.status, big.body]).toEqual([400, error("Uploaded file is larger than the allowed limit of 1 MiB")]);
    const two = await upload(server, "hamlet", file("a.txt", Buffer.from("a")), file("b.txt", Buffer.from("b")));
    expect([two.status, two.body]).toEqual([400, error("You may only upload one file at a time")]);
    // A client that goes away in the middle of its file.
    const boundary = "cut";
    const partHead = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\n\r\n`;
    const head =
      `POST /api/v1/user_uploads HTTP/1.1\r\nHost: x\r\nAuthorization: ${basic("hamlet")}\r\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 100000\r\n\r\n${partHead}${"x".repeat(5000)}`;
    const url = new URL(server.url);
    await new Promise<void>((resolve) => {
      const socket = net.connect(Number(url.port), url.hostname, () => {
        socket.write(head, () => setTimeout(() => socket.destroy(), 100));
      });
      socket.on("close", () => resolve());
      socket.on("error", () => resolve());
    });
    // The server notices the close and cleans up on its own time.
    for (let i = 0; i < 50 && emptyFolders().length > before.length; i++) await new Promise((r) => setTimeout(r, 20));
    expect(emptyFolders()).toEqual(before);
    expect(before).toEqual([]);
  });
});

describe("ROOKERY_BODY_TIMEOUT_S", () => {
  it("drops a request whose body trickles in past the limit (1 s here) with 408", async () => {
    const head = `POST /api/v1/messages HTTP/1.1\r\nHost: x\r\nAuthorization: ${basic("hamlet")}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n`;
    const { text, ms } = await rawRequest(head, { byte: "a", everyMs: 200, count: 99 });
    expect(text.startsWith("HTTP/1.1 408")).toBe(true);
    expect(ms).toBeGreaterThan(900);
    expect(ms).toBeLessThan(5_000);
  });

  it("leaves a long-poll alone: GET /events waits past the limit and answers when an event comes", async () => {
    const hamlet = server.as("hamlet");
    const queueId = (await hamlet.post("/register", { event_types: ["typing"], fetch_event_types: [] })).body.queue_id as string;
    const started = performance.now();
    const poll = hamlet.get("/events", { queue_id: queueId, last_event_id: -1 });
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    await server.as("othello").post("/typing", { op: "start", to: JSON.stringify([server.users.hamlet.id]) });
    const res = await poll;
    expect(res.status).toBe(200);
    expect(res.body.events.map((e: { type: string }) => e.type)).toEqual(["typing"]);
    expect(performance.now() - started).toBeGreaterThan(2_400);
  });

  it("reads 0 as no limit, and refuses what is not a count", async () => {
    const { loadConfig } = await import("../../src/config.js");
    expect(loadConfig({ ROOKERY_BODY_TIMEOUT_S: "0" }).bodyTimeoutS).toBe(0);
    expect(loadConfig({}).bodyTimeoutS).toBe(30);
    expect(() => loadConfig({ ROOKERY_BODY_TIMEOUT_S: "soon" })).toThrow(/ROOKERY_BODY_TIMEOUT_S/);
  });
});
