import type { Command } from "commander";
import { importZulip } from "../import/zulip.js";
import { runImport } from "./run.js";

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
    .action((file: string, opts: { json?: boolean }) =>
      runImport(opts.json, async (ctx, progress) => {
        const result = await importZulip(ctx, file, { progress });
        if (result.ignored.length > 0) progress(`ignored: ${result.ignored.join(", ")}`);
        return { ...result };
      }),
    );
}
