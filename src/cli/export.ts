import { createWriteStream } from "node:fs";
import fs from "node:fs/promises";
import path from "node:path";
import pino from "pino";
import type { Command } from "commander";
import { createContext } from "../app.js";
import { defaultRealm, realmByStringId } from "../db/queries/realms.js";
import { exportFolderName } from "../lib/export/exports.js";
import { writeRealmExport } from "../lib/export/realm-export.js";
import { config, fail, print } from "./run.js";

/**
 * `rookery export FILE`: the organisation's full export in Zulip's format (private channels,
 * direct messages, scheduled messages and drafts; with --with-secrets also API keys and password
 * hashes, for a move to another Rookery), as a .tar.gz. It only reads, so the server may keep
 * running; the file appears only once written whole. Progress goes to stderr.
 */
export function addExportCommand(program: Command): void {
  program
    .command("export")
    .description("write the organisation's full export in Zulip's format (.tar.gz) to FILE")
    .argument("<file>", "the archive to write, e.g. zulip-export-acme.tar.gz")
    .option("--subdomain <subdomain>", "the organisation to export (default: the server's first)")
    .option("--public-only", "only what POST /export/realm exports: public channels' messages and files")
    .option("--with-secrets", "include API keys and password hashes (so bots and passwords keep working on another Rookery)")
    .option("--json", "print the result as JSON")
    .action(async (file: string, opts: { subdomain?: string; publicOnly?: boolean; withSecrets?: boolean; json?: boolean }) => {
      const settings = { ...config(), logLevel: "warn", redisUrl: null };
      const ctx = await createContext(settings, { logger: pino({ level: "warn" }, pino.destination(2)) });
      const partial = `${file}.partial`;
      const started = performance.now();
      try {
        const realm = opts.subdomain === undefined ? await defaultRealm(ctx.db) : await realmByStringId(ctx.db, opts.subdomain);
        if (!realm) throw new Error(opts.subdomain === undefined ? "there is no organisation to export" : `no organisation has the subdomain "${opts.subdomain}"`);
        const base = path.basename(file).replace(/\.tar\.gz$|\.tgz$/i, "");
        const folder = /^[A-Za-z0-9._-]+$/.test(base) ? base : exportFolderName();
        const out = createWriteStream(partial, { flags: "wx" });
        const summary = await writeRealmExport(ctx.db, ctx.files, realm.id, out, {
          publicOnly: opts.publicOnly === true,
          withSecrets: opts.withSecrets === true,
          folder,
          dataDir: settings.dataDir,
          progress: progressLine(started),
        });
        await fs.rename(partial, file);
        const { size } = await fs.stat(file);
        print({ file, realm: realm.string_id, messages: summary.messages, files: summary.files, bytes: size, seconds: Math.round(performance.now() - started) / 1000 }, opts.json);
      } catch (error) {
        await fs.rm(partial, { force: true });
        await ctx.store.close();
        fail(error);
      }
      await ctx.store.close();
    });
}

/** Prints `messages N/T (P%), R/s, about S s left` to stderr, at most once a second and at the end. */
function progressLine(started: number): (done: number, total: number) => void {
  let last = 0;
  return (done, total) => {
    const now = performance.now();
    if (now - last < 1000 && done < total) return;
    last = now;
    const rate = done / Math.max((now - started) / 1000, 0.001);
    const left = rate > 0 ? Math.round((total - done) / rate) : 0;
    process.stderr.write(`rookery: messages ${done}/${total} (${total > 0 ? Math.floor((done * 100) / total) : 100}%), ${Math.round(rate)}/s, about ${left} s left\n`);
  };
}
