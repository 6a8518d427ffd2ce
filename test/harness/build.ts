import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

const ROOT = path.resolve(import.meta.dirname, "../..");

/**
 * Builds the `rookery` command into a folder of its own (dist/<name>-<pid>/rookery.js), with the
 * project's build script: test files that run at the same time never overwrite each other's build.
 * Returns the built file and a function that removes it.
 */
export async function buildCommand(name: string): Promise<{ main: string; remove: () => void }> {
  const dir = path.join(ROOT, "dist", `${name}-${process.pid}`);
  const main = path.join(dir, "rookery.js");
  const scripts = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: { build: string } }).scripts;
  const command = scripts.build.replace("--outfile=dist/rookery.js", `--outfile=${main}`);
  await promisify(execFile)("sh", ["-c", `npx ${command}`], { cwd: ROOT });
  return { main, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
