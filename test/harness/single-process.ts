import { it } from "vitest";
import { clusterMode } from "./server.js";

// Apart from server.ts, which benchmarks import too: vitest's `it` exists only under vitest.
const singleProcessReasons = new Set<string>();

/**
 * A test of behaviour that is by design one process's own (`reason` says why): run as usual, and
 * skipped in cluster mode, which prints each reason once.
 */
export function singleProcess(reason: string): ReturnType<typeof it.skipIf> {
  if (clusterMode && !singleProcessReasons.has(reason)) {
    singleProcessReasons.add(reason);
    console.info(`single-process tests skipped in cluster mode: ${reason}`);
  }
  return it.skipIf(clusterMode);
}
