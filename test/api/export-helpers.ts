import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as tar from "tar";
import { expect } from "vitest";
import type { Json } from "../harness/client.js";
import { validateEvent } from "../harness/openapi.js";
import type { FixtureName, TestServer } from "../harness/server.js";

/** A queue of `who` for realm_export events: `next(n)` waits for n more events and validates them. */
export async function exportQueue(server: TestServer, who: FixtureName): Promise<{ next: (count: number) => Promise<Json[]> }> {
  const client = server.as(who);
  const registered = await client.post("/register", { event_types: ["realm_export"] });
  expect(registered.status).toBe(200);
  const queueId = registered.body.queue_id as string;
  let lastEventId = registered.body.last_event_id as number;
  return {
    async next(count: number) {
      const events: Json[] = [];
      while (events.length < count) {
        const res = await client.get("/events", { queue_id: queueId, last_event_id: lastEventId });
        expect(res.status).toBe(200);
        for (const event of res.body.events as Json[]) {
          lastEventId = event.id as number;
          if (event.type === "heartbeat") continue;
          validateEvent(event);
          events.push(event);
        }
      }
      expect(events).toHaveLength(count);
      return events;
    },
  };
}

/** Extracts an archive (with the `tar` package, an independent reader) into a fresh folder. */
export async function extract(archive: Buffer): Promise<{ dir: string; top: string; read: (name: string) => Json; files: () => string[]; remove: () => void }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-export-test-"));
  const file = path.join(dir, "archive.tar.gz");
  fs.writeFileSync(file, archive);
  const out = path.join(dir, "out");
  fs.mkdirSync(out);
  await tar.x({ file, cwd: out, strict: true });
  const [top] = fs.readdirSync(out);
  if (top === undefined) throw new Error("empty archive");
  const root = path.join(out, top);
  const list = (at: string): string[] => fs.readdirSync(path.join(root, at), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? list(path.join(at, e.name)) : [path.join(at, e.name)]));
  return {
    dir: root,
    top,
    read: (name) => JSON.parse(fs.readFileSync(path.join(root, name), "utf8")) as Json,
    files: () => list("").sort(),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
