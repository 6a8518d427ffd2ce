import path from "node:path";
import type { Command } from "commander";
import { importSlack } from "../import/slack.js";
import { runImport } from "./run.js";

/**
 * `rookery import-slack FILE.zip`: loads a Slack workspace export into an empty Rookery. The data
 * folder is locked meanwhile, so no server runs on it half-imported; progress goes to stderr.
 */
export function addImportSlackCommand(program: Command): void {
  program
    .command("import-slack")
    .description("load a Slack workspace export (.zip) into an empty Rookery (stop the server first)")
    .argument("<file>", "the Slack export: a .zip with users.json, channels.json and a folder of day files per channel")
    .option("--name <name>", "the organisation's name (default: the file's name)")
    .option("--subdomain <subdomain>", "subdomain the organisation is served on", "")
    .option("--json", "print the result as JSON")
    .action((file: string, opts: { name?: string; subdomain: string; json?: boolean }) =>
      runImport(opts.json, async (ctx, progress) => {
        const name = opts.name ?? path.basename(file).replace(/\.zip$/i, "");
        return { ...(await importSlack(ctx, file, { name, subdomain: opts.subdomain, progress })) };
      }),
    );
}
