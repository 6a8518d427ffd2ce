import net from "node:net";
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
  /** The sender of every mail (ROOKERY_EMAIL_FROM): an address, or `Name <address>`. */
  emailFrom: string;
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
  /**
   * Addresses and CIDR ranges of the reverse proxies in front (ROOKERY_TRUSTED_PROXIES): from them,
   * and only from them, the caller's address is read from X-Forwarded-For. Empty = no proxy trusted.
   */
  trustedProxies: string[];
  /** HTTPS served directly (ROOKERY_TLS_CERT, ROOKERY_TLS_KEY; reloaded on SIGHUP); null = plain HTTP. */
  tls: TlsFiles | null;
  /**
   * Seconds a client may take to send one whole request, headers and body (ROOKERY_BODY_TIMEOUT_S,
   * default 30; 0 = no limit). A long-poll's request is whole at once, so its wait is not counted.
   */
  bodyTimeoutS: number;
  /** The image proxy behind /thumbnail (previews of images on other sites). */
  imageProxy: ImageProxyConfig;
}

/** Limits of the image proxy (ROOKERY_IMAGE_PROXY_*). */
export interface ImageProxyConfig {
  /** Also fetch from loopback, private, link-local and other non-public addresses (tests, closed networks). */
  allowPrivate: boolean;
  /** The largest image fetched, in MiB (default 10). */
  maxMib: number;
  /** Seconds one fetch may take, redirects included (default 10). */
  timeoutS: number;
  /** The disk cache's cap in MiB (default 500); the least recently shown images go first. */
  cacheMib: number;
}

/** The PEM files of the certificate (its chain may follow it) and of its private key. */
export interface TlsFiles {
  certFile: string;
  keyFile: string;
}

/** A configuration value that cannot be used; the message is one line meant for the operator. */
export class ConfigError extends Error {}

/** Hosts that listen on every address: no URL can be made from them. */
const WILDCARD_HOSTS = ["0.0.0.0", "::", "[::]", "0:0:0:0:0:0:0:0"];
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
  const tls = parseTls(env);
  if (WILDCARD_HOSTS.includes(host) && !env.ROOKERY_EXTERNAL_URL) {
    // http://0.0.0.0:9991 in the banner, the zuliprc and realm_url would send every client nowhere.
    throw new ConfigError(`ROOKERY_HOST=${host} listens on every address, so the URL clients use cannot be guessed: set ROOKERY_EXTERNAL_URL (e.g. http://chat.example.com:${port})`);
  }
  const externalUrl = (env.ROOKERY_EXTERNAL_URL ?? `${tls ? "https" : "http"}://${host.includes(":") ? `[${host}]` : host}:${port}`).replace(/\/+$/, "");
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
  const emailFrom = (env.ROOKERY_EMAIL_FROM ?? "Rookery <noreply@rookery.invalid>").trim();
  if (!/^(?:[^<>@\r\n]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/.test(emailFrom)) {
    throw new ConfigError(`ROOKERY_EMAIL_FROM must be an email address or "Name <address>", got "${emailFrom}"`);
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
    // The processes call each other at their listening address, which a public certificate does not name.
    if (tls) throw new ConfigError("ROOKERY_TLS_CERT serves one process; in cluster mode, end TLS at the load balancer (deploy/nginx.conf)");
  }
  const internalUrl = env.ROOKERY_INTERNAL_URL ? env.ROOKERY_INTERNAL_URL.replace(/\/+$/, "") : null;
  if (internalUrl !== null && !isHttpUrl(internalUrl)) throw new ConfigError(`ROOKERY_INTERNAL_URL must be an http(s) URL, got "${internalUrl}"`);
  const redisPrefix = env.ROOKERY_REDIS_PREFIX ?? "rookery:";
  const clusterSecret = env.ROOKERY_CLUSTER_SECRET || null;
  const trustedProxies = parseTrustedProxies(env.ROOKERY_TRUSTED_PROXIES ?? "");
  const bodyTimeoutS = parseCount(env, "ROOKERY_BODY_TIMEOUT_S", "30");
  const imageProxy = parseImageProxy(env);
  const webDir = path.resolve(env.ROOKERY_WEB_DIR ?? "./dist/web");
  return { host, port, dataDir, databaseUrl, externalUrl, emailGatewayDomain, smtpUrl, emailFrom, logLevel, logFormat, rateLimitPerMinute, anonRateLimitPerMinute, maxFileUploadSizeMib, redisUrl, internalUrl, redisPrefix, clusterSecret, trustedProxies, tls, bodyTimeoutS, imageProxy, webDir };
}

function parseTls(env: NodeJS.ProcessEnv): TlsFiles | null {
  const certFile = env.ROOKERY_TLS_CERT || null;
  const keyFile = env.ROOKERY_TLS_KEY || null;
  if (certFile === null && keyFile === null) return null;
  if (certFile === null || keyFile === null) throw new ConfigError("ROOKERY_TLS_CERT and ROOKERY_TLS_KEY go together: set both to serve HTTPS, or neither");
  return { certFile: path.resolve(certFile), keyFile: path.resolve(keyFile) };
}

/** A comma- or space-separated list of IPv4/IPv6 addresses and CIDR ranges (10.0.0.0/8, fd00::/8). */
function parseTrustedProxies(value: string): string[] {
  const entries = value.split(/[\s,]+/).filter((entry) => entry !== "");
  for (const entry of entries) {
    const [address = "", bits, extra] = entry.split("/");
    const family = net.isIP(address);
    const maxBits = family === 4 ? 32 : 128;
    const validBits = bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= maxBits);
    if (family === 0 || !validBits || extra !== undefined) {
      throw new ConfigError(`ROOKERY_TRUSTED_PROXIES must list IP addresses or CIDR ranges (e.g. 10.0.0.0/8, ::1), got "${entry}"`);
    }
  }
  return entries;
}

function parseImageProxy(env: NodeJS.ProcessEnv): ImageProxyConfig {
  const allow = env.ROOKERY_IMAGE_PROXY_ALLOW_PRIVATE ?? "0";
  if (allow !== "0" && allow !== "1") throw new ConfigError(`ROOKERY_IMAGE_PROXY_ALLOW_PRIVATE must be 0 or 1, got "${allow}"`);
  const positive = (name: string, fallback: string): number => {
    const value = parseCount(env, name, fallback);
    if (value === 0) throw new ConfigError(`${name} must be at least 1, got "0"`);
    return value;
  };
  return {
    allowPrivate: allow === "1",
    maxMib: positive("ROOKERY_IMAGE_PROXY_MAX_MIB", "10"),
    timeoutS: positive("ROOKERY_IMAGE_PROXY_TIMEOUT_S", "10"),
    cacheMib: positive("ROOKERY_IMAGE_PROXY_CACHE_MIB", "500"),
  };
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
