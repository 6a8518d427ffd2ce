import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/** The words of the `rookery` command's #! line (src/main.ts). */
function hashbang(): string[] {
  return (fs.readFileSync(path.resolve(import.meta.dirname, "../src/main.ts"), "utf8").split("\n")[0] ?? "").split(/\s+/);
}

/** The node flags the `rookery` command runs with. */
export function serverFlags(): string[] {
  return hashbang().filter((word) => word.startsWith("--"));
}

/** The environment the `rookery` command sets for itself (its #! line's NAME=value words). */
export function serverEnv(): Record<string, string> {
  return Object.fromEntries(hashbang().flatMap((word) => (/^[A-Z_]+=/.test(word) ? [[word.slice(0, word.indexOf("=")), word.slice(word.indexOf("=") + 1)]] : [])));
}

/**
 * Benchmarks that run the server in their own process re-run themselves, once, under the node
 * flags the `rookery` command runs with, so they measure the server as it is deployed. A server
 * child that talks to its parent over IPC must be spawned with `serverFlags()` instead: the
 * re-run would not have the channel, and the parent would wait for it forever.
 */
export function runUnderServerFlags(script: string): void {
  const flags = serverFlags();
  const env = serverEnv();
  if (flags.every((flag) => process.execArgv.includes(flag)) && Object.entries(env).every(([name, value]) => process.env[name] === value)) return;
  if (process.send !== undefined) throw new Error(`${script}: a child with an IPC channel must be spawned with serverFlags()`);
  // argv[1] is the runner (vite-node), which keeps the script's own path and arguments to itself.
  const child = spawnSync(process.execPath, [...flags, ...process.execArgv, process.argv[1] ?? "", script, ...process.argv.slice(2)], { stdio: "inherit", env: { ...process.env, ...env } });
  process.exit(child.status ?? 1);
}
