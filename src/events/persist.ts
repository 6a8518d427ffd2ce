import fs from "node:fs";
import path from "node:path";
import type { Logger } from "pino";
import type { SavedQueue } from "./queue.js";
import type { QueueRegistry } from "./queues.js";
import { restartEvent } from "./restart.js";

const FORMAT = 1;

/** Where queues wait out a restart. */
export function queueDumpFile(dataDir: string): string {
  return path.join(dataDir, "event-queues.json");
}

/** Writes every queue to `file` (atomically: a crash mid-write leaves the previous dump or none). */
export function saveQueues(file: string, registry: QueueRegistry, log: Logger): void {
  const queues = registry.save();
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(temporary, JSON.stringify({ format: FORMAT, queues }));
    fs.renameSync(temporary, file);
    log.info({ queues: queues.length, file }, "event queues saved");
  } catch (error) {
    // Shutting down must still finish; clients will re-register.
    log.error({ err: error, file }, "could not save event queues");
  }
}

/**
 * Reloads the queues a previous process saved, then removes the dump so a later crash cannot
 * resurrect stale queues. A missing, unreadable or corrupt dump is skipped with a log line.
 */
export function loadQueues(file: string, registry: QueueRegistry, log: Logger): number {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    log.info({ file }, "no event queue dump from an earlier version to load");
    return 0;
  }
  fs.rmSync(file, { force: true });
  const saved = parseDump(text);
  if (saved === undefined) {
    log.warn({ file }, "the event queue dump from an earlier version is corrupt; ignored it");
    return 0;
  }
  return registry.restore(saved, restartEvent());
}

function parseDump(text: string): SavedQueue[] | undefined {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof data !== "object" || data === null || !("format" in data) || data.format !== FORMAT || !("queues" in data)) return undefined;
  const queues = data.queues;
  if (!Array.isArray(queues) || !queues.every(isSavedQueue)) return undefined;
  return queues;
}

/** Whether `value` is a queue as `EventQueue.save` writes it. */
export function isSavedQueue(value: unknown): value is SavedQueue {
  if (typeof value !== "object" || value === null) return false;
  const q = value as Record<string, unknown>;
  const options = q.options as Record<string, unknown> | null | undefined;
  return (
    typeof q.id === "string" &&
    Number.isInteger(q.nextId) &&
    Number.isInteger(q.newestPrunedId) &&
    typeof q.lastConnection === "number" &&
    Array.isArray(q.events) &&
    q.events.every((e: unknown) => typeof e === "object" && e !== null && Number.isInteger((e as { id?: unknown }).id)) &&
    typeof options === "object" &&
    options !== null &&
    Number.isInteger(options.userId) &&
    Number.isInteger(options.realmId) &&
    typeof options.lifespanSecs === "number" &&
    Array.isArray(options.narrow) &&
    (options.eventTypes === null || Array.isArray(options.eventTypes)) &&
    typeof options.capabilities === "object"
  );
}
