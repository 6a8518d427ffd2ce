import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** The node flags the `rookery` command runs with (the #! line of src/main.ts). */
export function serverFlags(): string[] {
  const hashbang = fs.readFileSync(path.resolve(import.meta.dirname, "../src/main.ts"), "utf8").split("\n")[0] ?? "";
  return hashbang.split(/\s+/).filter((word) => word.startsWith("--"));
}

/**
 * Benchmarks that run the server in their own process re-run themselves, once, under the node
 * flags the `rookery` command runs with, so they measure the server as it is deployed. A server
 * child that talks to its parent over IPC must be spawned with `serverFlags()` instead: the
 * re-run would not have the channel, and the parent would wait for it forever.
 */
export function runUnderServerFlags(script: string): void {
  const flags = serverFlags();
  if (flags.every((flag) => process.execArgv.includes(flag))) return;
  if (process.send !== undefined) throw new Error(`${script}: a child with an IPC channel must be spawned with serverFlags()`);
  // argv[1] is the runner (vite-node), which keeps the script's own path and arguments to itself.
  const child = spawnSync(process.execPath, [...flags, ...process.execArgv, process.argv[1] ?? "", script, ...process.argv.slice(2)], { stdio: "inherit" });
  process.exit(child.status ?? 1);
}
