import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Redis } from "ioredis";
import { freshPostgres } from "./postgres.js";
import pino from "pino";
import { buildApp, type App } from "../../src/app.js";
import type { Config } from "../../src/config.js";
import type { UserRow } from "../../src/db/queries/users.js";
import { Client } from "./client.js";
import { startProxy, type Proxy } from "./proxy.js";
import { createFixtures, TestClock, testConfig, type FixtureName } from "./server.js";

/**
 * Cluster tests need a PostgreSQL server and a Redis: ROOKERY_TEST_PG_URL (an admin URL to create
 * databases with) and ROOKERY_TEST_REDIS_URL. Undefined when either is unset (the tests skip).
 */
export function clusterBackends(): { pgUrl: string; redisUrl: string } | undefined {
  const pgUrl = process.env.ROOKERY_TEST_PG_URL;
  const redisUrl = process.env.ROOKERY_TEST_REDIS_URL;
  return pgUrl && redisUrl ? { pgUrl, redisUrl } : undefined;
}

/** The line a skipped cluster test file prints. */
export const CLUSTER_SKIP_REASON = "cluster tests skipped: set ROOKERY_TEST_PG_URL and ROOKERY_TEST_REDIS_URL (PostgreSQL and Redis) to run them";

/** N Rookery apps in this process on one fresh PostgreSQL database and one Redis, behind a round-robin proxy. */
export interface TestCluster {
  apps: App[];
  /** Each app's own address. */
  urls: string[];
  proxy: Proxy;
  clock: TestClock;
  users: Record<FixtureName, UserRow>;
  password: string;
  databaseUrl: string;
  redisUrl: string;
  /** The Redis key prefix of this cluster. */
  prefix: string;
  dataDir: string;
  /** A client for a fixture user (or any row) through the proxy, or straight to app `on`. */
  as(who: FixtureName | UserRow, on?: number): Client;
  stop(): Promise<void>;
}

/** The configuration of one process of a test cluster. */
export function clusterConfig(dataDir: string, databaseUrl: string, redisUrl: string, prefix: string, overrides: Partial<Config> = {}): Config {
  return testConfig(dataDir, databaseUrl, { redisUrl, redisPrefix: prefix, ...overrides });
}

/** Starts `count` apps (3 by default) sharing a fresh database, a Redis key prefix and a clock, with the fixture organisation. */
export async function startCluster(count = 3, overrides: Partial<Config> = {}): Promise<TestCluster> {
  const backends = clusterBackends();
  if (!backends) throw new Error(CLUSTER_SKIP_REASON);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "rookery-cluster-"));
  const { url: databaseUrl, drop } = await freshPostgres(backends.pgUrl);
  const prefix = `rookery-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}:`;
  const clock = new TestClock();
  const config = clusterConfig(dataDir, databaseUrl, backends.redisUrl, prefix, overrides);
  const logger = pino({ level: process.env.ROOKERY_TEST_LOG ?? "silent" });
  // The first takes the jobs lease (tests run its timers); the others start together, as a
  // deployment does, and find the migrations done.
  const first = await buildApp(config, { clock, logger });
  const apps = [first, ...(await Promise.all(Array.from({ length: count - 1 }, () => buildApp(config, { clock, logger }))))];
  const urls: string[] = [];
  for (const app of apps) {
    const address = await app.http.listen({ host: "127.0.0.1", port: 0 });
    await app.listening(address);
    urls.push(address);
  }
  const { users, password } = await createFixtures(apps[0]!);
  const proxy = await startProxy([...urls]);
  const cluster: TestCluster = {
    apps,
    urls,
    proxy,
    clock,
    users,
    password,
    databaseUrl,
    redisUrl: backends.redisUrl,
    prefix,
    dataDir,
    as: (who, on) => {
      const user = typeof who === "string" ? cluster.users[who] : who;
      return new Client(on === undefined ? proxy.url : urls[on]!, { email: user.delivery_email, apiKey: user.api_key });
    },
    async stop() {
      await proxy.close();
      await Promise.all(apps.map((app) => app.close().catch(() => undefined)));
      await dropKeys(backends.redisUrl, prefix);
      await drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return cluster;
}

/** Deletes every key under `prefix`. */
export async function dropKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    let cursor = "0";
    do {
      const [nextCursor, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
      cursor = nextCursor;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== "0");
  } catch {
    // A Redis a test stopped has nothing left to clean.
  } finally {
    redis.disconnect();
  }
}
