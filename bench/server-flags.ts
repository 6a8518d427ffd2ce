import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * Benchmarks that run the server in their own process re-run themselves, once, under the node
 * flags the `rookery` command runs with (the #! line of src/main.ts), so they measure the server
 * as it is deployed.
 */
export function runUnderServerFlags(script: string): void {
  const hashbang = fs.readFileSync(path.resolve(import.meta.dirname, "../src/main.ts"), "utf8").split("\n")[0] ?? "";
  const flags = hashbang.split(/\s+/).filter((word) => word.startsWith("--"));
  if (flags.every((flag) => process.execArgv.includes(flag))) return;
  // argv[1] is the runner (vite-node), which keeps the script's own path and arguments to itself.
  const child = spawnSync(process.execPath, [...flags, ...process.execArgv, process.argv[1] ?? "", script, ...process.argv.slice(2)], { stdio: "inherit" });
  process.exit(child.status ?? 1);
}
