/** Runs the built `rookery` command as the installed one runs, timing it and sampling its peak RSS. */
import { spawn } from "node:child_process";
import fs from "node:fs";

export interface CommandRun {
  seconds: number;
  peakMb: number;
  /** What the command printed with --json. */
  result: Record<string, unknown>;
}

/**
 * Runs `main` with `args` (ending in --json), with the environment and node flags of its first line,
 * sampling VmHWM until it exits; its stderr (progress) is echoed when `echoStderr` is set.
 */
export async function runCommand(main: string, args: readonly string[], env: NodeJS.ProcessEnv, echoStderr = false): Promise<CommandRun> {
  const words = (fs.readFileSync(main, "utf8").split("\n", 1)[0] ?? "").replace(/^#!\/usr\/bin\/env -S /, "").split(" ");
  const nodeAt = words.indexOf("node");
  const shebangEnv = Object.fromEntries(words.slice(0, Math.max(0, nodeAt)).map((w) => w.split("=", 2) as [string, string]));
  const started = performance.now();
  const child = spawn("node", [...words.slice(nodeAt + 1), main, ...args], { env: { ...env, ...shebangEnv } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
  child.stderr.on("data", (d: Buffer) => {
    stderr += d.toString();
    if (echoStderr) process.stderr.write(d);
  });
  let peakKb = 0;
  const sample = setInterval(() => {
    try {
      const hwm = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, "utf8"));
      if (hwm) peakKb = Math.max(peakKb, Number(hwm[1]));
    } catch {
      // The process has just ended.
    }
  }, 50);
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve));
  clearInterval(sample);
  if (code !== 0) throw new Error(`rookery ${args[0] ?? ""} failed (${code}): ${stderr}`);
  return { seconds: (performance.now() - started) / 1000, peakMb: peakKb / 1024, result: JSON.parse(stdout) as Record<string, unknown> };
}
