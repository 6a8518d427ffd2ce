import pino from "pino";
import type { Command } from "commander";
import { createContext } from "../app.js";
import { lockDataDir } from "../data-lock.js";
import { importZulip } from "../import/zulip.js";
import { config, fail, print } from "./run.js";

/**
 * `rookery import FILE`: loads an export in Zulip's format (a .tar.gz as `rookery export` and
 * Zulip's `manage.py export` write it, or the unpacked folder) into an empty Rookery, keeping
 * ids. The data folder is locked meanwhile; progress and the fields not used go to stderr.
 */
export function addImportCommand(program: Command): void {
  program
    .command("import")
    .description("load an export in Zulip's format (.tar.gz or its unpacked folder) into an empty Rookery (stop the server first)")
    .argument("<file>", "the export: a .tar.gz written by `rookery export` or Zulip's `manage.py export`, or its unpacked folder")
    .option("--json", "print the result as JSON")
    .action(async (file: string, opts: { json?: boolean }) => {
      const settings = { ...config(), logLevel: "warn", redisUrl: null };
      const started = performance.now();
      let lock;
      try {
        lock = lockDataDir(settings.dataDir);
      } catch (error) {
        fail(error);
      }
      const ctx = await createContext(settings, { logger: pino({ level: "warn" }, pino.destination(2)) });
      try {
        const result = await importZulip(ctx, file, { progress: (line) => process.stderr.write(`rookery: ${line}\n`) });
        if (result.ignored.length > 0) process.stderr.write(`rookery: ignored: ${result.ignored.join(", ")}\n`);
        print({ ...result, seconds: Math.round(performance.now() - started) / 1000 }, opts.json, undefined);
      } catch (error) {
        await ctx.store.close();
        lock.release();
        fail(error);
      }
      await ctx.store.close();
      lock.release();
    });
}
