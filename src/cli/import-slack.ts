import path from "node:path";
import pino from "pino";
import type { Command } from "commander";
import { createContext } from "../app.js";
import { lockDataDir } from "../data-lock.js";
import { importSlack } from "../import/slack.js";
import { config, fail, print } from "./run.js";

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
    .action(async (file: string, opts: { name?: string; subdomain: string; json?: boolean }) => {
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
        const name = opts.name ?? path.basename(file).replace(/\.zip$/i, "");
        const result = await importSlack(ctx, file, { name, subdomain: opts.subdomain, progress: (line) => process.stderr.write(`rookery: ${line}\n`) });
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
