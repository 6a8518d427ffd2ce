import pino from "pino";
import { createContext } from "../app.js";
import { lockDataDir } from "../data-lock.js";
import { ConfigError, loadConfig, type Config } from "../config.js";
import type { AppContext } from "../context.js";
import { mailTriesSettled } from "../actions/mail.js";
import { relayBus } from "../events/relay.js";
import { ApiError } from "../base/errors.js";

/** The configuration from the environment; a bad value ends the command with one line. */
export function config(): Config {
  try {
    return loadConfig();
  } catch (error) {
    return fail(error);
  }
}

/**
 * Runs a command on the database. Its changes reach a running server's clients and caches: in
 * cluster mode through the cluster's stream, otherwise through the server's control socket.
 */
export async function withContext(fn: (ctx: AppContext) => Promise<void>): Promise<void> {
  const settings = config();
  const bus = settings.redisUrl === null ? relayBus(settings.dataDir, (message) => process.stderr.write(`rookery: warning: ${message}\n`)) : undefined;
  // Warnings go to stderr: stdout is the command's result (JSON with --json).
  const logger = pino({ level: "warn" }, pino.destination(2));
  const ctx = await createContext({ ...settings, logLevel: "warn" }, { logger, ...(bus ? { bus } : {}) });
  try {
    await fn(ctx);
    // A mail the command queued has had its first try before the command ends (a failed one is the server's to retry).
    await mailTriesSettled(ctx);
  } catch (error) {
    await ctx.cluster?.stop(() => []);
    await ctx.store.close();
    fail(error);
  }
  await ctx.cluster?.stop(() => []);
  await ctx.store.close();
}

/**
 * Runs an import into the data folder, locked meanwhile so that no server runs on it half-imported,
 * with no cluster; progress lines go to stderr, and the result, with the seconds taken, is printed.
 */
export async function runImport(json: boolean | undefined, load: (ctx: AppContext, progress: (line: string) => void) => Promise<Record<string, unknown>>): Promise<void> {
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
    const result = await load(ctx, (line) => process.stderr.write(`rookery: ${line}\n`));
    print({ ...result, seconds: Math.round(performance.now() - started) / 1000 }, json, undefined);
  } catch (error) {
    await ctx.store.close();
    lock.release();
    fail(error);
  }
  await ctx.store.close();
  lock.release();
}

/** Prints a command's result: one JSON line with --json, else one `key: value` line per field. */
export function print(result: Record<string, unknown>, json: boolean | undefined, generatedPassword?: string): void {
  if (json) {
    process.stdout.write(JSON.stringify(result) + "\n");
    return;
  }
  for (const [key, value] of Object.entries(result)) process.stdout.write(`${key}: ${String(value)}\n`);
  if (generatedPassword) process.stdout.write(`password: ${generatedPassword}\n`);
}

/** Ends the command with one line on stderr and exit code 1. */
export function fail(error: unknown): never {
  const message = error instanceof ApiError || error instanceof ConfigError ? error.message : error instanceof Error ? error.message : String(error);
  process.stderr.write(`rookery: ${message}\n`);
  process.exit(1);
}
