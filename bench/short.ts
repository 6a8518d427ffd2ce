import os from "node:os";
import path from "node:path";

/**
 * ROOKERY_BENCH_SHORT=1 runs every benchmark for a few seconds on small sizes: CI runs each once
 * this way to show it still runs to completion. Its figures mean nothing.
 */
export const SHORT = process.env.ROOKERY_BENCH_SHORT === "1";

/** The database messages-generate writes and messages-read reads: a small one of its own in short mode. */
export const MESSAGES_FILE = path.join(os.tmpdir(), SHORT ? "rookery-bench-short.sqlite3" : "rookery-bench-1m.sqlite3");

/** A size or duration: the command-line value if given, else `full`, or `short` in short mode. */
export function sized(arg: string | undefined, full: number, short: number): number {
  return Number(arg ?? (SHORT ? short : full));
}
