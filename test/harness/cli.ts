import { execFile } from "node:child_process";
import { promisify } from "node:util";

const run = promisify(execFile);

/** What one run of the rookery command gave. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built rookery command `main` with `args` and `env`; never throws for a failing exit code. */
export async function runRookery(main: string, args: string[], env: NodeJS.ProcessEnv): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run("node", [main, ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (failure) {
    const f = failure as { code: number; stdout: string; stderr: string };
    return { code: f.code, stdout: f.stdout, stderr: f.stderr };
  }
}
