import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

/**
 * Where the real clients' source checkouts are: ROOKERY_ZULIP_CLIENTS, or a folder
 * `zulip-clients` beside the repository (as `shared` is), holding `zulip-terminal`,
 * `python-zulip-api` and `zulip-flutter` as cloned from their repositories.
 */
export const clientsDir = process.env.ROOKERY_ZULIP_CLIENTS ?? path.resolve(import.meta.dirname, "../../../zulip-clients");

/** A client's checkout, or undefined when it is absent. */
export function checkout(name: "zulip-terminal" | "python-zulip-api" | "zulip-flutter"): string | undefined {
  const dir = path.join(clientsDir, name);
  return fs.existsSync(dir) ? dir : undefined;
}

/**
 * The first Python 3 that imports every module named (ROOKERY_PYTHON, then python3 on the PATH,
 * then the system's), with `pythonPath` on its path; undefined when none does.
 */
export function pythonWith(modules: string[], pythonPath: string[] = []): string | undefined {
  const candidates = [process.env.ROOKERY_PYTHON, "python3", "/usr/bin/python3"].filter((p): p is string => p !== undefined);
  for (const python of candidates) {
    const run = spawnSync(python, ["-c", modules.map((m) => `import ${m}`).join("; ")], { env: { ...process.env, PYTHONPATH: pythonPath.join(":") }, stdio: "ignore", timeout: 20_000 });
    if (run.status === 0) return python;
  }
  return undefined;
}

/** Whether a program answers `--version`/`-V` (tmux). */
export function hasProgram(name: string, flag = "-V"): boolean {
  return spawnSync(name, [flag], { stdio: "ignore" }).status === 0;
}
