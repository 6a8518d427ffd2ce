import path from "node:path";

/** Everything the server and the CLI read from the environment, validated once. */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  databaseUrl: string;
  externalUrl: string;
  /** The domain of channel email addresses (Zulip's EMAIL_GATEWAY_PATTERN "%s@<domain>"); "" = no gateway. */
  emailGatewayDomain: string;
  smtpUrl: string | null;
  logLevel: string;
  /** "json" (one JSON object per line, for log collectors) or "pretty" (coloured text, for a terminal). */
  logFormat: LogFormat;
  /** Per-user API calls allowed per minute (Zulip's api_by_user default is 200 per 60 s). */
  rateLimitPerMinute: number;
  /** Unauthenticated API calls allowed per minute from one address (Zulip's api_by_ip: 100 per 60 s). */
  anonRateLimitPerMinute: number;
  /** The largest file POST /user_uploads accepts, in MiB (Zulip's MAX_FILE_UPLOAD_SIZE, default 25). */
  maxFileUploadSizeMib: number;
  /** Cluster mode: the Redis every process of the organisation shares (ROOKERY_REDIS_URL); null = one process. */
  redisUrl: string | null;
  /**
   * The address other processes reach this one at for forwarded event-queue requests
   * (ROOKERY_INTERNAL_URL); null = http://<host>:<listening port>, with 127.0.0.1 for a wildcard host.
   */
  internalUrl: string | null;
  /** The prefix of every Redis key of the cluster (ROOKERY_REDIS_PREFIX, default "rookery:"). */
  redisPrefix: string;
  /** The built web app: manifest.json and the hashed files it names (ROOKERY_WEB_DIR, default ./dist/web). */
  webDir: string;
  /** The secret processes send with forwarded requests (ROOKERY_CLUSTER_SECRET); null = one made and kept in Redis. */
  clusterSecret: string | null;
}

/** A configuration value that cannot be used; the message is one line meant for the operator. */
export class ConfigError extends Error {}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];
const LOG_FORMATS = ["json", "pretty"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/** Reads and validates the ROOKERY_* environment variables. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const host = env.ROOKERY_HOST ?? "127.0.0.1";
  const port = parsePort(env.ROOKERY_PORT ?? "9991");
  const dataDir = path.resolve(env.ROOKERY_DATA_DIR ?? "./data");
  const databaseUrl = env.ROOKERY_DATABASE_URL ?? `sqlite:${path.join(dataDir, "rookery.sqlite3")}`;
  if (!/^(sqlite:|postgres:\/\/|postgresql:\/\/)/.test(databaseUrl)) {
    throw new ConfigError(`ROOKERY_DATABASE_URL must start with sqlite: or postgres://, got "${databaseUrl}"`);
  }
  const externalUrl = (env.ROOKERY_EXTERNAL_URL ?? `http://${host}:${port}`).replace(/\/+$/, "");
  if (!isHttpUrl(externalUrl)) {
    throw new ConfigError(`ROOKERY_EXTERNAL_URL must be an http(s) URL, got "${externalUrl}"`);
  }
  const emailGatewayDomain = env.ROOKERY_EMAIL_GATEWAY_DOMAIN ?? new URL(externalUrl).hostname;
  if (!/^[^\s@]*$/.test(emailGatewayDomain)) {
    throw new ConfigError(`ROOKERY_EMAIL_GATEWAY_DOMAIN must be a domain (or empty for none), got "${emailGatewayDomain}"`);
  }
  const smtpUrl = env.ROOKERY_SMTP_URL || null;
  if (smtpUrl !== null && !/^smtps?:\/\//.test(smtpUrl)) {
    throw new ConfigError(`ROOKERY_SMTP_URL must start with smtp:// or smtps://, got "${smtpUrl}"`);
  }
  const logLevel = env.ROOKERY_LOG_LEVEL ?? "info";
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`ROOKERY_LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got "${logLevel}"`);
  }
  const logFormat = LOG_FORMATS.find((format) => format === (env.ROOKERY_LOG_FORMAT ?? "json"));
  if (logFormat === undefined) {
    throw new ConfigError(`ROOKERY_LOG_FORMAT must be one of ${LOG_FORMATS.join(", ")}, got "${env.ROOKERY_LOG_FORMAT}"`);
  }
  const rateLimitPerMinute = parseCount(env, "ROOKERY_RATE_LIMIT_PER_MINUTE", "200");
  const anonRateLimitPerMinute = parseCount(env, "ROOKERY_ANON_RATE_LIMIT_PER_MINUTE", "100");
  const maxFileUploadSizeMib = parseCount(env, "ROOKERY_MAX_FILE_UPLOAD_SIZE_MIB", "25");
  const redisUrl = env.ROOKERY_REDIS_URL || null;
  if (redisUrl !== null) {
    if (!/^(rediss?:\/\/|unix:\/)/.test(redisUrl)) throw new ConfigError(`ROOKERY_REDIS_URL must start with redis://, rediss:// or unix:/, got "${redisUrl}"`);
    // Processes share one database; an SQLite file belongs to one process.
    if (databaseUrl.startsWith("sqlite:")) throw new ConfigError("ROOKERY_REDIS_URL (cluster mode) needs a postgres:// ROOKERY_DATABASE_URL; SQLite serves one process only");
  }
  const internalUrl = env.ROOKERY_INTERNAL_URL ? env.ROOKERY_INTERNAL_URL.replace(/\/+$/, "") : null;
  if (internalUrl !== null && !isHttpUrl(internalUrl)) throw new ConfigError(`ROOKERY_INTERNAL_URL must be an http(s) URL, got "${internalUrl}"`);
  const redisPrefix = env.ROOKERY_REDIS_PREFIX ?? "rookery:";
  const clusterSecret = env.ROOKERY_CLUSTER_SECRET || null;
  const webDir = path.resolve(env.ROOKERY_WEB_DIR ?? "./dist/web");
  return { host, port, dataDir, databaseUrl, externalUrl, emailGatewayDomain, smtpUrl, logLevel, logFormat, rateLimitPerMinute, anonRateLimitPerMinute, maxFileUploadSizeMib, redisUrl, internalUrl, redisPrefix, clusterSecret, webDir };
}

function parseCount(env: NodeJS.ProcessEnv, name: string, fallback: string): number {
  const value = env[name] ?? fallback;
  if (!/^\d+$/.test(value)) throw new ConfigError(`${name} must be a whole number, got "${value}"`);
  return Number(value);
}

function parsePort(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) > 65535) {
    throw new ConfigError(`ROOKERY_PORT must be a port number (0-65535), got "${value}"`);
  }
  return Number(value);
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}
