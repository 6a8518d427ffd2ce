import { Redis } from "ioredis";
import pg from "pg";

/** A PostgreSQL database and a Redis key prefix of a benchmark's own, and how to remove both. */
export interface BenchDatabase {
  url: string;
  redisPrefix: string;
  drop(): Promise<void>;
}

/** Creates a database `<name>_<pid>_<random>` through the admin URL `pgUrl`; `drop` removes it and every Redis key under its prefix. */
export async function freshBenchDatabase(pgUrl: string, redisUrl: string, name: string): Promise<BenchDatabase> {
  const database = `${name}_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  await adminQuery(pgUrl, `CREATE DATABASE ${database}`);
  const url = new URL(pgUrl);
  url.pathname = `/${database}`;
  const redisPrefix = `${database}:`;
  return {
    url: url.toString(),
    redisPrefix,
    async drop() {
      await adminQuery(pgUrl, `DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await dropRedisKeys(redisUrl, redisPrefix);
    },
  };
}

async function adminQuery(pgUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}

async function dropRedisKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl);
  try {
    let cursor = "0";
    do {
      const [next, keys] = await redis.scan(cursor, "MATCH", `${prefix}*`, "COUNT", 1000);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== "0");
  } finally {
    redis.disconnect();
  }
}
